import { useState } from 'react';
import { trainer } from '../../client/trainer-client';
import { handOverKeys } from '../../client/keys';
import { isLocalEndpoint } from '../../core/config/local-endpoint';
import { effectiveOptimizer, setApp, useApp } from '../../store/app-store';
import { SelectField } from '../common/SelectField';
import { patchConnection, patchEndpoint } from './connection-edit';
import { KeyInput } from './KeyInput';
import { ModelInput } from './ModelInput';
import { PRESETS, presetById } from './presets';
import { SeparateEndpoint } from './SeparateEndpoint';
import { UrlInput } from './UrlInput';

/** The endpoints: the provider, each role's base URL, key and model, a separate judge, and the model list. */
export function EndpointFields() {
  const c = useApp((s) => s.connection);
  const keys = useApp((s) => s.keys);
  const held = useApp((s) => s.heldKeys);
  const [models, setModels] = useState<string[]>([]);
  const [modelError, setModelError] = useState<string | null>(null);
  const preset = presetById(c.presetId);

  const choosePreset = (id: string) => {
    const p = presetById(id);
    const endpoint = (role: 'target' | 'optimizer', model: string) => ({
      ...c[role],
      baseURL: p.baseURL || c[role].baseURL,
      model: model || c[role].model,
      headers: p.headers,
    });
    patchConnection({
      presetId: id,
      target: endpoint('target', p.targetModel),
      optimizer: endpoint('optimizer', p.optimizerModel),
    });
    setModels([]);
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
  const setKey = (role: 'target' | 'optimizer' | 'judge') => (v: string) =>
    setApp((s) => ({ keys: { ...s.keys, [role]: v } }));

  return (
    <>
      <div className="grid-2">
        <SelectField
          label="Provider"
          hint={preset.cors}
          value={c.presetId}
          options={PRESETS.map((p) => ({ value: p.id, label: p.name }))}
          onChange={choosePreset}
        />
        <UrlInput
          label="Target base URL"
          value={c.target.baseURL}
          onChange={(v) => patchEndpoint('target', { baseURL: v })}
        />
        <KeyInput label="Target API key" value={keys.target} held={held.target} onChange={setKey('target')} />
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
            <UrlInput
              label="Optimizer base URL"
              value={c.optimizer.baseURL}
              onChange={(v) => patchEndpoint('optimizer', { baseURL: v })}
            />
            <KeyInput
              label="Optimizer API key"
              value={keys.optimizer}
              held={held.optimizer}
              onChange={setKey('optimizer')}
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
      <SeparateEndpoint role="judge" models={models} />
      <SeparateEndpoint role="userSimulator" models={models} />
      {isLocalEndpoint(c.target.baseURL) && isLocalEndpoint(effectiveOptimizer(c).baseURL) && (
        <p className="muted" role="note">
          Both roles run on your own machine. A small local model is a fine target, but the optimizer reads the failures
          and writes the rules: give it a strong model (untick “Same endpoint for optimizer”).
        </p>
      )}
    </>
  );
}
