import { useState } from 'react';
import { handOverKeys } from '../../client/keys';
import { Field } from '../common/Field';

/**
 * A key field. When the field is left, the key goes to the worker and the field empties: the
 * page keeps no copy, and says the key is held instead.
 */
export function KeyInput({
  label,
  value,
  held,
  onChange,
}: {
  label: string;
  value: string;
  held: boolean;
  onChange: (v: string) => void;
}) {
  const [shown, setShown] = useState(false);
  const hint =
    held && !value
      ? 'Held for this tab by the app’s worker, which sends it only to this endpoint. Type to replace it.'
      : 'Kept in this tab’s memory; sent only to this endpoint.';
  return (
    <Field label={label} hint={hint}>
      {(id, hintId) => (
        <div className="input-row">
          <input
            id={id}
            aria-describedby={hintId}
            type={shown ? 'text' : 'password'}
            autoComplete="off"
            spellCheck={false}
            value={value}
            onChange={(e) => onChange(e.target.value)}
            onBlur={() => void handOverKeys()}
            placeholder={held ? 'Key held — type to replace' : 'sk-…'}
          />
          <button type="button" className="ghost" aria-pressed={shown} onClick={() => setShown(!shown)}>
            {shown ? 'Hide' : 'Show'}
          </button>
        </div>
      )}
    </Field>
  );
}
