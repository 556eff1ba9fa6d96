import { useId, type ReactNode } from 'react';

/** A labelled control with an optional one-line hint; the label is the control's accessible name. */
export function Field({
  label,
  hint,
  children,
  wide,
}: {
  label: string;
  hint?: ReactNode;
  children: (id: string, hintId?: string) => ReactNode;
  wide?: boolean;
}) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  return (
    <div className={wide ? 'field field-wide' : 'field'}>
      <label htmlFor={id}>{label}</label>
      {children(id, hintId)}
      {hint && (
        <small id={hintId} className="hint">
          {hint}
        </small>
      )}
    </div>
  );
}

export function NumberField(props: {
  label: string;
  hint?: ReactNode;
  value: number | undefined;
  onChange: (v: number | undefined) => void;
  min?: number;
  max?: number;
  step?: number;
  placeholder?: string;
}) {
  return (
    <Field label={props.label} hint={props.hint}>
      {(id, hintId) => (
        <input
          id={id}
          type="number"
          aria-describedby={hintId}
          value={props.value ?? ''}
          min={props.min}
          max={props.max}
          step={props.step ?? 1}
          placeholder={props.placeholder}
          onChange={(e) => props.onChange(e.target.value === '' ? undefined : Number(e.target.value))}
        />
      )}
    </Field>
  );
}

/** A labelled line of text (or, with `rows`, a text area) that reports each change as a string. */
export function TextField({
  label,
  hint,
  value,
  onChange,
  rows,
  ...input
}: {
  label: string;
  hint?: ReactNode;
  value: string;
  onChange: (v: string) => void;
  /** A text area of this many rows instead of one line. */
  rows?: number;
  type?: 'text' | 'password';
  placeholder?: string;
  maxLength?: number;
  spellCheck?: boolean;
  autoComplete?: string;
}) {
  return (
    <Field label={label} hint={hint}>
      {(id, hintId) =>
        rows ? (
          <textarea
            id={id}
            aria-describedby={hintId}
            rows={rows}
            value={value}
            onChange={(e) => onChange(e.target.value)}
          />
        ) : (
          <input
            id={id}
            aria-describedby={hintId}
            value={value}
            onChange={(e) => onChange(e.target.value)}
            {...input}
          />
        )
      }
    </Field>
  );
}

export function Alert({ children }: { children: ReactNode }) {
  return (
    <div role="alert" className="alert">
      {children}
    </div>
  );
}

export function Card({ title, children, actions }: { title?: string; children: ReactNode; actions?: ReactNode }) {
  return (
    <section className="card">
      {(title || actions) && (
        <header className="card-head">
          {title && <h2>{title}</h2>}
          {actions && <div className="card-actions">{actions}</div>}
        </header>
      )}
      {children}
    </section>
  );
}
