import type { RunDetail } from '../../worker/api-types';
import { GATE_RULE_LABELS } from '../../core/verdict/gate-rules';
import { pct } from './run-format';

type Epoch = NonNullable<RunDetail['activation']>['epochs'][number];

/**
 * What the activation track's gate said of a rewrite, as the run's comparator decides it (issue #40):
 * under posterior verdicts (`gateConfidence` > 0) a rewrite is kept when it is better with that
 * chance, the target's noise taken out — a higher share of validation queries is not enough — and
 * with 0 when its share is higher. A gate rule's refusal is named. The shares follow in brackets.
 * `subject` names the rewrite ("rewrite", "first rewrite", …).
 */
export function rewriteVerdict(
  e: Pick<Epoch, 'action' | 'valCurrent' | 'valCandidate' | 'rule'>,
  gateConfidence: number,
  subject = 'rewrite',
): string {
  const shares = e.valCandidate !== undefined ? ` (validation ${pct(e.valCurrent)} → ${pct(e.valCandidate)})` : '';
  if (e.action === 'no_misfires') return 'no misfires to fix';
  if (e.action === 'no_candidate') return 'no usable rewrite';
  if (e.action === 'accept')
    return `${subject} kept: ${gateConfidence > 0 ? `better with probability ${gateConfidence} or more` : 'a higher share'}${shares}`;
  if (e.rule && !e.rule.allowed)
    return `${subject} rejected by the gate rule “${GATE_RULE_LABELS[e.rule.rule]}”${shares}`;
  return `${subject} rejected: ${gateConfidence > 0 ? `the chance it is better stayed below ${gateConfidence}` : 'no higher share'}${shares}`;
}
