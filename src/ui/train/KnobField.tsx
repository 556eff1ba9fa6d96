/**
 * One Train setting, generated from its row of the knob table (core/config/knobs.ts): its control,
 * range, label and help come from the row, so the form offers exactly what validation accepts.
 * The label is the control's accessible name (DESIGN §9).
 */
import { knobValue, type Knob } from '../../core/config/knobs';
import { DEFAULT_RUN_CONFIG, type RunConfig } from '../../core/config/run-config';
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

/** A knob in the page, with `data-knob` naming its setting: a problem's link finds it (ui/train/show-knob.ts). */
export function KnobField(props: {
  knob: Knob;
  config: RunConfig;
  patch: (p: Partial<RunConfig>) => void;
  extraHint?: string;
}) {
  return (
    <div className="knob" data-knob={props.knob.key}>
      <KnobControl {...props} />
    </div>
  );
}

function KnobControl({
  knob: k,
  config,
  patch,
  extraHint = '',
}: {
  knob: Knob;
  config: RunConfig;
  patch: (p: Partial<RunConfig>) => void;
  /** Text added to the knob's help from the screen's context (e.g. the schedule's budgets). */
  extraHint?: string;
}) {
  const set = (v: unknown) => patch({ [k.key]: v } as Partial<RunConfig>);
  const hint = `${k.help}${extraHint}`;
  // Settings added later may be absent from an older stored config: show their default.
  const value = knobValue(config, k.key) ?? knobValue(DEFAULT_RUN_CONFIG, k.key);
  const c = k.control;
  switch (c.kind) {
    case 'int':
    case 'number':
      return (
        <NumberField
          label={k.label}
          hint={hint}
          value={value as number}
          min={c.min}
          max={c.max}
          step={c.kind === 'number' ? c.step : undefined}
          onChange={(v) => set(v ?? knobValue(DEFAULT_RUN_CONFIG, k.key))}
        />
      );
    case 'toggle':
      return <Toggle label={k.label} hint={hint} checked={Boolean(value)} onChange={set} />;
    case 'choice':
      return <SelectField label={k.label} hint={hint} value={String(value)} options={c.options} onChange={set} />;
    case 'usd':
      return (
        <NumberField
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
}
