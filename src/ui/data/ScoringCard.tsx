import { SCORER_KINDS, type ScorerSpec } from '../../core/scoring/scoring';
import { ROLLOUT_PRESETS } from '../../core/config/templates';
import { setApp, useApp } from '../../store/app-store';
import { Card, Field } from '../common/Field';

const SCORER_HELP: Record<string, string> = {
  exact: 'Exact match after normalising case, punctuation and articles; partial credit by token F1.',
  mcq: 'The chosen option’s letter must equal the correct one.',
  contains: 'Passes when an expected answer appears anywhere in the response.',
  numeric: 'The first number in the answer must match within a tolerance.',
  regex: 'Expected answers are regular expressions the answer must match.',
  anls: 'Edit-distance similarity (DocVQA ANLS); passes at 1.',
  judge: 'The optimizer model grades each answer against the expected one.',
};

/** How an answer is scored, and how a task is put to the target. */
export function ScoringCard() {
  const config = useApp((s) => s.config);
  const setScorer = (kind: ScorerSpec['kind']) =>
    setApp((s) => ({ config: { ...s.config, scorer: { kind } as ScorerSpec } }));
  return (
    <Card title="Scoring">
      <div className="grid-2">
        <Field label="Scorer" hint={SCORER_HELP[config.scorer.kind]}>
          {(id, hintId) => (
            <select
              id={id}
              aria-describedby={hintId}
              value={config.scorer.kind}
              onChange={(e) => setScorer(e.target.value as ScorerSpec['kind'])}
            >
              {SCORER_KINDS.map((k) => (
                <option key={k} value={k}>
                  {k}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Rollout template" hint={ROLLOUT_PRESETS.find((p) => p.id === config.rollout.preset)?.description}>
          {(id, hintId) => (
            <select
              id={id}
              aria-describedby={hintId}
              value={config.rollout.preset}
              onChange={(e) =>
                setApp((s) => ({
                  config: { ...s.config, rollout: { ...s.config.rollout, preset: e.target.value as 'qa' } },
                }))
              }
            >
              {ROLLOUT_PRESETS.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
    </Card>
  );
}
