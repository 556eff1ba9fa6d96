import { BATCH_APIS, BATCH_API_LABELS } from '../../core/config/batch-api';
import { presetPrice } from '../../core/config/pricing';
import { SERVICE_TIERS, TIER_HINTS, tieredPrice } from '../../core/config/service-tier';
import { useApp } from '../../store/app-store';
import type { StoredEndpoint } from '../../worker/api-types';
import { NumberField } from '../common/Field';
import { SelectField } from '../common/SelectField';
import { choices, patchConnection, patchEndpoint, ROLE_LABEL } from './connection-edit';

const ROLES = ['target', 'optimizer'] as const;

function PriceInputs({ role }: { role: 'target' | 'optimizer' }) {
  const c = useApp((s) => s.connection);
  // Untyped, the list price at the role's service tier: what the run will be charged.
  const price = c.prices[role] ?? tieredPrice(presetPrice(c[role].model), c[role].serviceTier);
  const set = (p: Partial<{ input: number; output: number }>) =>
    patchConnection({
      prices: { ...c.prices, [role]: { input: price?.input ?? 0, output: price?.output ?? 0, ...p } },
    });
  return (
    <div className="grid-2">
      <NumberField
        label={`${ROLE_LABEL[role]} input price (USD / 1M tokens)`}
        value={price?.input}
        step={0.01}
        min={0}
        onChange={(v) => set({ input: v ?? 0 })}
      />
      <NumberField
        label={`${ROLE_LABEL[role]} output price (USD / 1M tokens)`}
        value={price?.output}
        step={0.01}
        min={0}
        onChange={(v) => set({ output: v ?? 0 })}
      />
    </div>
  );
}

/** What rides along with every call: sampling, limits, reasoning, service tier, batch API, headers and prices. */
export function CallOptions() {
  const c = useApp((s) => s.connection);
  return (
    <details className="options">
      <summary>Options: sampling, limits, prices</summary>
      <div className="grid-3">
        <NumberField
          label="Target temperature"
          hint="Above 0 the target samples: the same question can get different answers. Reasoning models vary even without it. Training measures this noise and asks again where a verdict hinges on it."
          value={c.target.temperature}
          step={0.1}
          min={0}
          max={2}
          onChange={(v) => patchEndpoint('target', { temperature: v })}
        />
        <NumberField
          label="Target max output tokens"
          value={c.target.maxOutputTokens}
          min={16}
          onChange={(v) => patchEndpoint('target', { maxOutputTokens: v })}
        />
        <NumberField
          label="Optimizer max output tokens"
          value={c.optimizer.maxOutputTokens}
          min={256}
          onChange={(v) => patchEndpoint('optimizer', { maxOutputTokens: v })}
        />
        {ROLES.map((role) => (
          <SelectField
            key={`reasoning-${role}`}
            label={`${ROLE_LABEL[role]} is a reasoning model`}
            hint="Reasoning models get max_completion_tokens and no temperature. Auto decides from the name, and switches by itself if the provider refuses the parameters."
            value={c[role].reasoningModel === undefined ? 'auto' : c[role].reasoningModel ? 'yes' : 'no'}
            options={choices(['auto', 'yes', 'no'])}
            onChange={(v) => patchEndpoint(role, { reasoningModel: v === 'auto' ? undefined : v === 'yes' })}
          />
        ))}
        {ROLES.map((role) => (
          <SelectField
            key={`tier-${role}`}
            label={`${ROLE_LABEL[role]} service tier`}
            hint={
              c[role].serviceTier
                ? TIER_HINTS[c[role].serviceTier]
                : 'Not sent: the provider’s default. Flex (OpenAI, Gemini, Groq) is about half price and slower.'
            }
            value={c[role].serviceTier ?? ''}
            options={[{ value: '', label: 'not sent' }, ...choices(SERVICE_TIERS)]}
            onChange={(v) => patchEndpoint(role, { serviceTier: (v || undefined) as StoredEndpoint['serviceTier'] })}
          />
        ))}
        <SelectField
          label="Target batch API"
          hint={
            c.target.batchApi
              ? `${BATCH_API_LABELS[c.target.batchApi]}: baseline, final validation and test go out as batches at about half price, and so does Evaluate skill; the provider answers in minutes to 24 hours, and a run can be closed meanwhile. Steps stay live.`
              : 'Off: every call is live. OpenAI and OpenRouter accept batches from this page; Anthropic’s batch endpoint refuses browser calls.'
          }
          value={c.target.batchApi ?? ''}
          options={[
            { value: '', label: 'off' },
            ...BATCH_APIS.map((api) => ({ value: api, label: BATCH_API_LABELS[api] })),
          ]}
          onChange={(v) => patchEndpoint('target', { batchApi: (v || undefined) as StoredEndpoint['batchApi'] })}
        />
        {ROLES.map((role) => (
          <SelectField
            key={`effort-${role}`}
            label={`${ROLE_LABEL[role]} reasoning effort`}
            hint="For reasoning models only (they get max_completion_tokens and no temperature); each role has its own."
            value={c[role].reasoningEffort ?? ''}
            options={[{ value: '', label: 'default' }, ...choices(['minimal', 'low', 'medium', 'high'])]}
            onChange={(v) => patchEndpoint(role, { reasoningEffort: v as StoredEndpoint['reasoningEffort'] })}
          />
        ))}
      </div>
      <label className="check">
        <input
          type="checkbox"
          checked={Boolean(c.target.minimalHeaders)}
          onChange={(e) => {
            patchEndpoint('target', { minimalHeaders: e.target.checked || undefined });
            patchEndpoint('optimizer', { minimalHeaders: e.target.checked || undefined });
          }}
        />
        Minimal headers
      </label>
      <p className="muted">
        Leave out the OpenAI SDK’s x-stainless-* headers. Tick it when Test connection says the endpoint (or a proxy in
        front of it) refuses them.
      </p>
      <PriceInputs role="target" />
      <PriceInputs role="optimizer" />
      <p className="muted">
        Prices start from list prices for common models; check your provider’s. They turn token counts into dollars for
        the estimate, the cost so far, and the budget cap.
      </p>
    </details>
  );
}
