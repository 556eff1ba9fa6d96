import type { ReactNode } from 'react';
import { Field } from './Field';

/** A labelled select with its hint: the one markup every choice on Connect and Train uses. */
export function SelectField<V extends string>({
  label,
  hint,
  value,
  options,
  onChange,
}: {
  label: string;
  hint?: ReactNode;
  value: V;
  options: readonly { value: V; label: string }[];
  onChange: (value: V) => void;
}) {
  return (
    <Field label={label} hint={hint}>
      {(id, hintId) => (
        <select id={id} aria-describedby={hintId} value={value} onChange={(e) => onChange(e.target.value as V)}>
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
