import { BATCH_APIS, BATCH_API_LABELS } from '../../core/batch-api';
import { SelectField } from '../common/SelectField';
import { useState } from 'react';
import { SERVICE_TIERS, TIER_HINTS, tieredPrice } from '../../core/service-tier';
import { isLocalEndpoint } from '../../core/local-endpoint';
import { trainer } from '../../client/trainer-client';
import { effectiveOptimizer, setApp, useApp, type ConnectionDraft } from '../../store/app-store';
import { forgetAllKeys, handOverKeys, rememberKeys } from '../../client/keys';
import { startDemo } from '../../client/demo';
import type { RoleCheck, StoredEndpoint } from '../../worker/api-types';
import { presetPrice } from '../../core/pricing';
import { Alert, Card, Field, NumberField } from '../common/Field';
import { PRESETS, presetById } from './presets';

const ROLE_LABEL = { target: 'Target', optimizer: 'Optimizer' } as const;
/** Options whose label is their value. */
const choices = (values: readonly string[]) => values.map((value) => ({ value, label: value }));

const ROLE_NAMES: Record<string, string> = { target: 'Target', optimizer: 'Optimizer', judge: 'Judge' };

function patchConnection(p: Partial<ConnectionDraft>) {
  setApp((s) => ({ connection: { ...s.connection, ...p } }));
}
function patchEndpoint(role: 'target' | 'optimizer', p: Partial<StoredEndpoint>) {
  setApp((s) => ({ connection: { ...s.connection, [role]: { ...s.connection[role], ...p } } }));
}

/**
 * A key field. When the field is left, the key goes to the worker and the field empties: the
 * page keeps no copy, and says the key is held instead.
 */
function KeyInput({
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

function ModelInput({
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

function PriceInputs({ role }: { role: 'target' | 'optimizer' }) {
  const c = useApp((s) => s.connection);
  const model = role === 'target' ? c.target.model : c.optimizer.model;
  // Untyped, the list price at the role's service tier: what the run will be charged.
  const price = c.prices[role] ?? tieredPrice(presetPrice(model), c[role].serviceTier);
  const set = (p: Partial<{ input: number; output: number }>) =>
    patchConnection({
      prices: { ...c.prices, [role]: { input: price?.input ?? 0, output: price?.output ?? 0, ...p } },
    });
  return (
    <div className="grid-2">
      <NumberField
        label={`${role === 'target' ? 'Target' : 'Optimizer'} input price (USD / 1M tokens)`}
        value={price?.input}
        step={0.01}
        min={0}
        onChange={(v) => set({ input: v ?? 0 })}
      />
      <NumberField
        label={`${role === 'target' ? 'Target' : 'Optimizer'} output price (USD / 1M tokens)`}
        value={price?.output}
        step={0.01}
        min={0}
        onChange={(v) => set({ output: v ?? 0 })}
      />
    </div>
  );
}

/** How the optimizer's endpoint answers in JSON, as the connection test found (issue #23). */
function structuredLabel(s: RoleCheck['structuredOutput']): string {
  if (!s) return '';
  if (s.schemaIgnored) return ' (accepts a JSON schema but does not keep to it: replies are read from text)';
  return s.mode === 'none'
    ? ' (no structured output: replies are read from text)'
    : ` (structured output: ${s.mode.replace('_', ' ')})`;
}

export function ConnectScreen() {
  const c = useApp((s) => s.connection);
  const keys = useApp((s) => s.keys);
  const held = useApp((s) => s.heldKeys);
  const [checks, setChecks] = useState<RoleCheck[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [models, setModels] = useState<string[]>([]);
  const [modelError, setModelError] = useState<string | null>(null);
  const [forgotten, setForgotten] = useState<string | null>(null);
  const [demoBusy, setDemoBusy] = useState(false);
  const [demoProblem, setDemoProblem] = useState<string | null>(null);
  const tryDemo = async () => {
    setDemoBusy(true);
    setDemoProblem(null);
    try {
      const problem = await startDemo();
      if (problem) setDemoProblem(problem);
      else window.location.hash = '#/train';
    } finally {
      setDemoBusy(false);
    }
  };
  const preset = presetById(c.presetId);

  const choosePreset = (id: string) => {
    const p = presetById(id);
    patchConnection({
      presetId: id,
      target: {
        ...c.target,
        baseURL: p.baseURL || c.target.baseURL,
        model: p.targetModel || c.target.model,
        headers: p.headers,
      },
      optimizer: {
        ...c.optimizer,
        baseURL: p.baseURL || c.optimizer.baseURL,
        model: p.optimizerModel || c.optimizer.model,
        headers: p.headers,
      },
    });
    setModels([]);
  };

  const test = async () => {
    setBusy(true);
    setChecks(null);
    try {
      await handOverKeys();
      const result = await trainer().testConnection({
        target: c.target,
        optimizer: effectiveOptimizer(c),
        ...(c.judge ? { judge: c.judge } : {}),
      });
      setChecks(result);
    } finally {
      setBusy(false);
    }
  };

  // Ticking "Remember" stores the keys held at once; unticking deletes them from the device (this tab keeps its own).
  const setRemember = async (remember: boolean) => {
    patchConnection({ remember });
    setForgotten(null);
    await rememberKeys(remember);
  };

  const forget = async () => {
    await forgetAllKeys();
    setForgotten('Keys forgotten: nothing is stored on this device, and this tab holds none.');
  };

  const list = async () => {
    setModelError(null);
    await handOverKeys();
    const r = await trainer().listModels({
      baseURL: c.target.baseURL,
      headers: c.target.headers,
      minimalHeaders: c.target.minimalHeaders,
    });
    if (r.ok) setModels(r.models);
    else setModelError(r.error.message);
  };

  const failed = checks?.filter((x) => !x.ok) ?? [];
  return (
    <div className="screen">
      <h1>Connect your endpoint</h1>
      <p className="lead">
        The <strong>target</strong> model runs the skill on your tasks; the <strong>optimizer</strong> model reads the
        results and edits the skill. Any OpenAI-compatible endpoint works.
      </p>
      <div className="row demo-row">
        <button type="button" onClick={() => void tryDemo()} disabled={demoBusy}>
          {demoBusy ? 'Preparing the demo…' : 'Try without a key'}
        </button>
        <span className="muted">
          Watch a full training on a bundled example, against a simulated model inside this page: no key, no network, no
          cost — and not a real LLM.
        </span>
      </div>
      {demoProblem && <Alert>{demoProblem}</Alert>}
      <Card title="Endpoint">
        <div className="grid-2">
          <SelectField
            label="Provider"
            hint={preset.cors}
            value={c.presetId}
            options={PRESETS.map((p) => ({ value: p.id, label: p.name }))}
            onChange={choosePreset}
          />
          <Field label="Target base URL">
            {(id) => (
              <input
                id={id}
                value={c.target.baseURL}
                spellCheck={false}
                onChange={(e) => patchEndpoint('target', { baseURL: e.target.value.trim() })}
              />
            )}
          </Field>
          <KeyInput
            label="Target API key"
            value={keys.target}
            held={held.target}
            onChange={(v) => setApp((s) => ({ keys: { ...s.keys, target: v } }))}
          />
          <ModelInput
            label="Target model"
            value={c.target.model}
            models={models}
            onChange={(v) => patchEndpoint('target', { model: v })}
          />
        </div>
        <div className="row">
          <label className="check">
            <input
              type="checkbox"
              checked={c.sameEndpoint}
              onChange={(e) => patchConnection({ sameEndpoint: e.target.checked })}
            />
            Same endpoint for optimizer
          </label>
          <button type="button" className="ghost" onClick={list}>
            List models
          </button>
        </div>
        {modelError && <p className="muted">Could not list models: {modelError}</p>}
        <div className="grid-2">
          {!c.sameEndpoint && (
            <>
              <Field label="Optimizer base URL">
                {(id) => (
                  <input
                    id={id}
                    value={c.optimizer.baseURL}
                    spellCheck={false}
                    onChange={(e) => patchEndpoint('optimizer', { baseURL: e.target.value.trim() })}
                  />
                )}
              </Field>
              <KeyInput
                label="Optimizer API key"
                value={keys.optimizer}
                held={held.optimizer}
                onChange={(v) => setApp((s) => ({ keys: { ...s.keys, optimizer: v } }))}
              />
            </>
          )}
          <ModelInput
            label="Optimizer model"
            value={c.optimizer.model}
            models={models}
            onChange={(v) => patchEndpoint('optimizer', { model: v })}
          />
        </div>
        <div className="row">
          <label className="check">
            <input
              type="checkbox"
              checked={Boolean(c.judge)}
              onChange={(e) =>
                patchConnection({
                  judge: e.target.checked
                    ? { baseURL: c.target.baseURL, model: '', temperature: 0, maxOutputTokens: 512 }
                    : undefined,
                })
              }
            />
            Separate judge endpoint
          </label>
          <span className="muted">
            Used only by the judge scorer (Data → Scorer); without it the optimizer model judges.
          </span>
        </div>
        {c.judge && (
          <div className="grid-2">
            <Field label="Judge base URL">
              {(id) => (
                <input
                  id={id}
                  value={c.judge?.baseURL ?? ''}
                  spellCheck={false}
                  onChange={(e) => patchConnection({ judge: { ...c.judge!, baseURL: e.target.value.trim() } })}
                />
              )}
            </Field>
            <KeyInput
              label="Judge API key"
              value={keys.judge ?? ''}
              held={Boolean(held.judge)}
              onChange={(v) => setApp((s) => ({ keys: { ...s.keys, judge: v } }))}
            />
            <ModelInput
              label="Judge model"
              value={c.judge.model}
              models={models}
              onChange={(v) => patchConnection({ judge: { ...c.judge!, model: v } })}
            />
          </div>
        )}
        {isLocalEndpoint(c.target.baseURL) && isLocalEndpoint(effectiveOptimizer(c).baseURL) && (
          <p className="muted" role="note">
            Both roles run on your own machine. A small local model is a fine target, but the optimizer reads the
            failures and writes the rules: give it a strong model (untick “Same endpoint for optimizer”).
          </p>
        )}
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
            {(['target', 'optimizer'] as const).map((role) => (
              <SelectField
                key={`reasoning-${role}`}
                label={`${ROLE_LABEL[role]} is a reasoning model`}
                hint="Reasoning models get max_completion_tokens and no temperature. Auto decides from the name, and switches by itself if the provider refuses the parameters."
                value={c[role].reasoningModel === undefined ? 'auto' : c[role].reasoningModel ? 'yes' : 'no'}
                options={choices(['auto', 'yes', 'no'])}
                onChange={(v) => patchEndpoint(role, { reasoningModel: v === 'auto' ? undefined : v === 'yes' })}
              />
            ))}
            {(['target', 'optimizer'] as const).map((role) => (
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
                onChange={(v) =>
                  patchEndpoint(role, { serviceTier: (v || undefined) as StoredEndpoint['serviceTier'] })
                }
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
            {(['target', 'optimizer'] as const).map((role) => (
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
            Leave out the OpenAI SDK’s x-stainless-* headers. Tick it when Test connection says the endpoint (or a proxy
            in front of it) refuses them.
          </p>
          <PriceInputs role="target" />
          <PriceInputs role="optimizer" />
          <p className="muted">
            Prices start from list prices for common models; check your provider’s. They turn token counts into dollars
            for the estimate, the cost so far, and the budget cap.
          </p>
        </details>
        <div className="row">
          <label className="check">
            <input type="checkbox" checked={c.remember} onChange={(e) => void setRemember(e.target.checked)} />
            Remember on this device
          </label>
          <span className="muted">
            Off: keys are forgotten when you close the tab. On: they are stored in this browser only, never exported.
          </span>
        </div>
        <div className="row">
          <button type="button" className="ghost danger" onClick={() => void forget()}>
            Forget keys on this device
          </button>
          {forgotten && <span className="ok-line">{forgotten}</span>}
        </div>
        <div className="row">
          <button type="button" className="primary" onClick={test} disabled={busy || !c.target.baseURL}>
            {busy ? 'Testing…' : 'Test connection'}
          </button>
        </div>
        {checks && failed.length === 0 && (
          <p className="ok-line">
            {checks
              .map((x) => `${ROLE_NAMES[x.role]} ${x.model}: ${x.latencyMs} ms${structuredLabel(x.structuredOutput)}`)
              .join(' · ')}{' '}
            — connected.
          </p>
        )}
        {checks?.some((x) => x.context) && (
          <Alert>
            <strong>A long prompt does not reach the model whole.</strong>
            <ul>
              {checks
                .filter((x) => x.context)
                .map((x) => (
                  <li key={x.role}>
                    {ROLE_NAMES[x.role]}: {x.context!.fix}
                  </li>
                ))}
            </ul>
          </Alert>
        )}
        {failed.length > 0 && (
          <Alert>
            <strong>Connection test failed.</strong>
            <ul>
              {failed.map((x) => (
                <li key={x.role}>
                  {ROLE_NAMES[x.role]}: {x.error?.message}
                  {x.error?.kind === 'unreachable' && (
                    <> {preset.id !== 'custom' ? `For ${preset.name}: ${preset.cors}` : ''}</>
                  )}
                </li>
              ))}
            </ul>
          </Alert>
        )}
      </Card>
    </div>
  );
}
