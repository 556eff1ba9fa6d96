import { BATCH_APIS, BATCH_API_LABELS } from '../../core/config/batch-api';
import { SERVICE_TIERS, TIER_HINTS } from '../../core/config/service-tier';
import {
  EFFORT_MEANING,
  WIRE_MEANING,
  WIRES,
  effortChoices,
  effortFor,
  storedFor,
} from '../../core/config/capabilities';
import { effectiveOptimizer, useApp } from '../../store/app-store';
import type { StoredEndpoint } from '../../worker/api-types';
import { NumberField } from '../common/Field';
import { SelectField } from '../common/SelectField';
import { choices, patchEndpoint, ROLE_LABEL } from './connection-edit';
import { PriceFields } from './PriceFields';

const ROLES = ['target', 'optimizer'] as const;

/** A role's reasoning effort: the efforts Test connection found accepted, and what is sent when it moved one. */
function EffortSelect({ role }: { role: 'target' | 'optimizer' }) {
  const c = useApp((s) => s.connection);
  // The optimizer's calls go where effectiveOptimizer says (the target's endpoint when shared): its findings are kept so.
  const e = role === 'optimizer' ? effectiveOptimizer(c) : c.target;
  const value = e.reasoningEffort ?? '';
  const found = storedFor(e, e.capabilities);
  const offered = effortChoices(e);
  const sent = found && value ? effortFor(value, found, false) : value;
  const hint =
    sent !== value
      ? `The model does not accept ${value}: ${sent || 'none'} is sent.`
      : value
        ? EFFORT_MEANING[value]
        : 'Not sent: the model’s default. Each role has its own.';
  return (
    <SelectField
      label={`${ROLE_LABEL[role]} reasoning effort`}
      hint={found ? `${hint} (choices: what Test connection found accepted)` : hint}
      value={value}
      options={[
        { value: '', label: 'default' },
        ...choices([...offered, ...(value && !offered.includes(value) ? [value] : [])]),
      ]}
      onChange={(v) => patchEndpoint(role, { reasoningEffort: v as StoredEndpoint['reasoningEffort'] })}
    />
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
            hint="Only the first guess, before Test connection asks the model what it accepts: a reasoning model gets max_completion_tokens and no temperature. Auto guesses from the name; a refusal mid-run corrects it."
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
          <EffortSelect key={`effort-${role}`} role={role} />
        ))}
        {ROLES.map((role) => (
          <SelectField
            key={`api-${role}`}
            label={`${ROLE_LABEL[role]} API`}
            hint={
              c[role].api
                ? WIRE_MEANING[c[role].api].said
                : 'Auto: what Test connection chose — the Responses API on OpenAI and where it is the only one, else Chat Completions.'
            }
            value={c[role].api ?? ''}
            options={[
              { value: '', label: 'auto' },
              ...WIRES.map((w) => ({ value: w, label: w === 'chat' ? 'Chat Completions' : 'Responses API' })),
            ]}
            onChange={(v) => patchEndpoint(role, { api: (v || undefined) as StoredEndpoint['api'] })}
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
      <PriceFields role="target" />
      <PriceFields role="optimizer" />
      <p className="muted">
        Prices start from list prices for common models, each with the day it was checked; check your provider’s. They
        turn token counts into dollars for the estimate, the cost so far, and the budget cap.
      </p>
    </details>
  );
}
