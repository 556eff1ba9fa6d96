import { memo, useState, type ReactNode } from 'react';
import { KNOBS, type Knob } from '../../core/config/knobs';
import { deriveSteps, type RunConfig } from '../../core/config/run-config';
import { scheduleSequence } from '../../core/config/schedules';
import { Card, Field } from '../common/Field';
import { KnobField } from './KnobField';
import { KnobSections } from './KnobSections';

const ESSENTIALS = (KNOBS as readonly Knob[]).filter((k) => k.essential);

/** The budgets the schedule gives the first steps (the schedule's help says them). */
function scheduleHint(config: RunConfig, trainSize: number | undefined): string {
  if (trainSize === undefined) return '';
  const steps = deriveSteps(config, trainSize).totalSteps;
  const budgets = scheduleSequence(
    config.editBudgetSchedule,
    config.editBudget,
    config.minEditBudget,
    Math.min(steps, 40),
  );
  return budgets.length ? ` Budgets: ${budgets.join(', ')}${steps > 40 ? ', …' : ''}.` : '';
}

/**
 * The Train screen's settings (issue #33): the essentials on screen with what validation can tell
 * apart beside them, a search over every setting, and the rest folded by section.
 */
export const SettingsPanel = memo(function SettingsPanel({
  config,
  patch,
  base,
  trainSize,
  advice,
}: {
  config: RunConfig;
  patch: (p: Partial<RunConfig>) => void;
  base: Readonly<Record<string, unknown>>;
  trainSize?: number;
  /** What the validation split can resolve, shown beside the batch size and the cap it depends on. */
  advice: ReactNode;
}) {
  const [query, setQuery] = useState('');
  const extraHints = { editBudgetSchedule: scheduleHint(config, trainSize) };
  return (
    <Card title="Settings">
      {!query.trim() && (
        <>
          <div className="grid-3">
            {ESSENTIALS.map((k) => (
              <KnobField key={k.key} knob={k} config={config} patch={patch} />
            ))}
          </div>
          {advice}
        </>
      )}
      <div className="knob-search">
        <Field label="Find a setting">
          {(id) => (
            <input
              id={id}
              type="search"
              value={query}
              placeholder="by name or what it does, e.g. noise, repair, concurrency"
              onChange={(e) => setQuery(e.target.value)}
            />
          )}
        </Field>
      </div>
      <KnobSections config={config} patch={patch} base={base} query={query} extraHints={extraHints} />
    </Card>
  );
});
