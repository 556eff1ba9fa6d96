/**
 * The Train screen's settings, generated from the knob table (core/knobs.ts): one group per
 * section, basics first; each knob's control, range and help come from its row, so the form
 * offers exactly what validation accepts. A knob that only applies under another setting
 * (significance k, the appendix options) is shown only then.
 */
import type { ReactNode } from 'react';
import { KNOB_SECTIONS, KNOBS, knobShown, type Knob, type KnobKey, type KnobSection } from '../../core/knobs';
import { DEFAULT_RUN_CONFIG, type RunConfig } from '../../core/run-config';
import { NumberField } from '../common/Field';
import { SelectField } from '../common/SelectField';

function Toggle({
  label,
  hint,
  checked,
  onChange,
}: {
  label: string;
  hint: string;
  checked: boolean;
  onChange: (v: boolean) => void;
}) {
  return (
    <div className="field">
      <label className="check">
        <input type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} />
        {label}
      </label>
      <small className="hint">{hint}</small>
    </div>
  );
}

export function KnobFields({
  config,
  patch,
  extraHints = {},
}: {
  config: RunConfig;
  patch: (p: Partial<RunConfig>) => void;
  /** Text added to a knob's help from the screen's context (e.g. the schedule's budgets). */
  extraHints?: Partial<Record<KnobKey, string>>;
}) {
  const values = config as unknown as Record<string, unknown>;
  const defaults = DEFAULT_RUN_CONFIG as unknown as Record<string, unknown>;
  const set = (key: string, v: unknown) => patch({ [key]: v } as Partial<RunConfig>);
  const field = (k: Knob): ReactNode => {
    const hint = `${k.help}${extraHints[k.key as KnobKey] ?? ''}`;
    // Settings added later may be absent from an older stored config: show their default.
    const value = values[k.key] ?? defaults[k.key];
    const c = k.control;
    switch (c.kind) {
      case 'int':
      case 'number':
        return (
          <NumberField
            key={k.key}
            label={k.label}
            hint={hint}
            value={value as number}
            min={c.min}
            max={c.max}
            step={c.kind === 'number' ? c.step : undefined}
            onChange={(v) => set(k.key, v ?? defaults[k.key])}
          />
        );
      case 'toggle':
        return (
          <Toggle key={k.key} label={k.label} hint={hint} checked={Boolean(value)} onChange={(v) => set(k.key, v)} />
        );
      case 'choice':
        return (
          <SelectField
            key={k.key}
            label={k.label}
            hint={hint}
            value={String(value)}
            options={c.options}
            onChange={(v) => set(k.key, v)}
          />
        );
      case 'usd':
        return (
          <NumberField
            key={k.key}
            label={k.label}
            hint={hint}
            value={config.budget.usd}
            min={0}
            step={0.5}
            placeholder="no cap"
            onChange={(v) => patch({ budget: { ...config.budget, usd: v || undefined } })}
          />
        );
    }
  };
  return (
    <>
      {(Object.keys(KNOB_SECTIONS) as KnobSection[]).map((section) => (
        <fieldset key={section} className="knob-section">
          <legend>{KNOB_SECTIONS[section]}</legend>
          <div className="grid-3">
            {(KNOBS as readonly Knob[]).filter((k) => k.section === section && knobShown(k, values)).map(field)}
          </div>
        </fieldset>
      ))}
    </>
  );
}
