import { setApp, useApp } from '../../store/app-store';
import { patchConnection } from './connection-edit';
import { UrlInput } from './UrlInput';
import { KeyInput } from './KeyInput';
import { ModelInput } from './ModelInput';

/** The roles that may have an endpoint of their own; without one, the optimizer's model plays them. */
const ROLES = {
  judge: {
    name: 'Judge',
    toggle: 'Separate judge endpoint',
    use: 'Used only by the judge scorer (Data → Scorer); without it the optimizer model judges.',
    maxOutputTokens: 512,
  },
  userSimulator: {
    name: 'User simulator',
    toggle: 'Separate user-simulator endpoint',
    use: 'Plays the user of items with a user_goal (simulated users); without it the optimizer model plays them.',
    maxOutputTokens: 512,
  },
} as const;

/** A role's own endpoint (issue #11's judge; issue #31's user simulator): base URL, key and model. */
export function SeparateEndpoint({ role, models }: { role: keyof typeof ROLES; models: string[] }) {
  const c = useApp((s) => s.connection);
  const keys = useApp((s) => s.keys);
  const held = useApp((s) => s.heldKeys);
  const r = ROLES[role];
  const e = c[role];
  return (
    <>
      <div className="row">
        <label className="check">
          <input
            type="checkbox"
            checked={Boolean(e)}
            onChange={(ev) =>
              patchConnection({
                [role]: ev.target.checked
                  ? { baseURL: c.target.baseURL, model: '', temperature: 0, maxOutputTokens: r.maxOutputTokens }
                  : undefined,
              })
            }
          />
          {r.toggle}
        </label>
        <span className="muted">{r.use}</span>
      </div>
      {e && (
        <div className="grid-2">
          <UrlInput
            label={`${r.name} base URL`}
            value={e.baseURL}
            onChange={(v) => patchConnection({ [role]: { ...e, baseURL: v } })}
          />
          <KeyInput
            label={`${r.name} API key`}
            value={keys[role] ?? ''}
            held={Boolean(held[role])}
            onChange={(v) => setApp((s) => ({ keys: { ...s.keys, [role]: v } }))}
          />
          <ModelInput
            label={`${r.name} model`}
            value={e.model}
            models={models}
            onChange={(v) => patchConnection({ [role]: { ...e, model: v } })}
          />
        </div>
      )}
    </>
  );
}
