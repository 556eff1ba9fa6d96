import { Field } from '../common/Field';

/** A model name, with the names the endpoint listed offered as suggestions. */
export function ModelInput({
  label,
  value,
  models,
  onChange,
}: {
  label: string;
  value: string;
  models: string[];
  onChange: (v: string) => void;
}) {
  const listId = `${label.replace(/\W+/g, '-')}-models`;
  return (
    <Field
      label={label}
      hint={
        models.length
          ? `${models.length} models offered by the endpoint.`
          : 'Type the model name, or use “List models”.'
      }
    >
      {(id, hintId) => (
        <>
          <input
            id={id}
            aria-describedby={hintId}
            list={listId}
            value={value}
            spellCheck={false}
            onChange={(e) => onChange(e.target.value)}
          />
          <datalist id={listId}>
            {models.map((m) => (
              <option key={m} value={m} />
            ))}
          </datalist>
        </>
      )}
    </Field>
  );
}
