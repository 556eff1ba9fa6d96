import { memo, useId } from 'react';
import {
  DEFAULT_PRESET,
  KNOB_PRESETS,
  presetById,
  presetDrift,
  presetSets,
  withPreset,
  type KnobPreset,
  type PresetId,
} from '../../core/config/knobs';
import type { RunConfig } from '../../core/config/run-config';

function PresetOption({ preset, active, choose }: { preset: KnobPreset; active: boolean; choose: () => void }) {
  const id = useId();
  return (
    <label className={active ? 'preset active' : 'preset'}>
      <input
        type="radio"
        name="preset"
        checked={active}
        onChange={choose}
        aria-labelledby={`${id}-name`}
        aria-describedby={`${id}-for`}
      />
      <span id={`${id}-name`} className="preset-name">
        {preset.label}
      </span>
      <small id={`${id}-for`} className="hint">
        {preset.situation}
      </small>
    </label>
  );
}

/**
 * Presets by situation (issue #33), above the settings: a newcomer picks the situation, and the
 * line below says what it set — or, once a setting has changed, which ones left it ("Custom").
 */
export const PresetPicker = memo(function PresetPicker({
  config,
  base,
  setConfig,
}: {
  config: RunConfig;
  /** The defaults a preset starts from (scaled to the dataset). */
  base: Readonly<Record<string, unknown>>;
  setConfig: (c: RunConfig) => void;
}) {
  const basis = presetById(config.preset) ?? presetById(DEFAULT_PRESET)!;
  const drift = presetDrift(config, basis.id as PresetId, base);
  const active = drift.length === 0 ? basis.id : null;
  const sets = presetSets(basis);
  return (
    <section className="card" aria-labelledby="preset-title">
      <header className="card-head">
        <h2 id="preset-title">Start from your situation</h2>
        <span className="badge" aria-label="Preset in use">
          {active ? basis.label : `Custom (based on ${basis.label})`}
        </span>
      </header>
      <fieldset className="presets">
        <legend className="visually-hidden">Preset</legend>
        {(KNOB_PRESETS as readonly KnobPreset[]).map((p) => (
          <PresetOption
            key={p.id}
            preset={p}
            active={p.id === active}
            choose={() => setConfig(withPreset(config, p.id as PresetId, base))}
          />
        ))}
      </fieldset>
      <p className="muted small preset-says">
        {active
          ? sets.length
            ? `${basis.label} sets ${sets.join(' · ')}; everything else is at its default.`
            : `${basis.label}: every setting at its default.`
          : `Changed since ${basis.label}: ${drift.map((k) => k.label).join(', ')}. Pick a preset to start from it again.`}
      </p>
    </section>
  );
});
