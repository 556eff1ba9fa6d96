import { Field } from '../common/Field';

/** A base URL field: spaces trimmed as it is typed. */
export function UrlInput({ label, value, onChange }: { label: string; value: string; onChange: (v: string) => void }) {
  return (
    <Field label={label}>
      {(id) => <input id={id} value={value} spellCheck={false} onChange={(e) => onChange(e.target.value.trim())} />}
    </Field>
  );
}
