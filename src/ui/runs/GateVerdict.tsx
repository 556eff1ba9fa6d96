import type { GateArtifact } from '../../worker/api-types';
import { GATE_RULE_LABELS } from '../../core/verdict/gate-rules';
import { EvidenceBought } from './EvidenceBought';
import { plural } from './run-format';

const fmt = (x: number) => x.toFixed(3);
const pValue = (p: number) => (p < 0.001 ? 'p < 0.001' : `p = ${p.toFixed(p < 0.1 ? 3 : 2)}`);

/**
 * The gate's verdict with its statistics (issue #19): the candidate against the current skill item
 * by item — a posterior verdict's items likely gained and lost and its probability of better (issue
 * #32); a vote verdict's items won and lost after settling, the exact sign test of winning that often
 * by chance and the margin — how many items were asked again, then the tie-break, the rule and the
 * fresh re-check of a would-be best, and what an undecided verdict asked for before deciding (issue #40).
 * Older runs show the plain scores.
 */
export function GateVerdict({ gate }: { gate: GateArtifact }) {
  const v = gate.verdict;
  const c = gate.compared;
  return (
    <>
      {gate.score && gate.gateScore !== null && (
        <p>
          Gate: candidate {fmt(c?.candidate ?? gate.gateScore)}
          {gate.score.complete ? '' : ' (upper bound: stopped early)'} on {v?.n ?? gate.score.n} validation items vs
          current {fmt(c?.current ?? gate.mustBeat ?? 0)}
          {gate.cacheHit ? ' (cached answers)' : ''} → <strong>{gate.action.replace(/_/g, ' ')}</strong>.
        </p>
      )}
      {v?.posterior && (
        <p className="small" aria-label="Gate verdict">
          Item by item, the target’s noise taken out:{' '}
          <span className="badge pass">{v.improved.length} likely gained</span>{' '}
          <span className="badge fail">{v.regressed.length} likely lost</span>; the candidate is better with probability{' '}
          {v.posterior.pBetter.toFixed(3)}.{' '}
          {v.resampled > 0
            ? `${plural(v.resampled, 'item')} weighed on more than one answer (answers held from earlier verdicts count); ${plural(c?.resampleCalls ?? 0, 'call')} asked again where a change was plausible, until the verdict was sure or their samples ran out.`
            : 'One answer per item.'}
        </p>
      )}
      {v && !v.posterior && (
        <p className="small" aria-label="Gate verdict">
          Item by item: <span className="badge pass">{v.improved.length} won</span>{' '}
          <span className="badge fail">{v.regressed.length} lost</span> (sign test, {pValue(v.pValue)} of winning this
          often by chance).{' '}
          {v.resampled > 0
            ? `${plural(v.resampled, 'item')} asked again (where the two disagreed, until one answer led by ${v.margin} vote${v.margin === 1 ? '' : 's'}; where both failed, once)${v.unsettled ? `; ${v.unsettled} still split when their samples ran out (counted as their mean)` : ''}.`
            : v.margin > 1
              ? 'No item needed asking again.'
              : 'One answer per item: the target has looked deterministic.'}
          {gate.flipUpper !== undefined && ` Flip rate bound ${(gate.flipUpper * 100).toFixed(1)}%.`}
          {c && c.resampleCalls > 0 && ` ${plural(c.resampleCalls, 'call')} for the repeats.`}
        </p>
      )}
      {gate.evidence && <EvidenceBought evidence={gate.evidence} />}
      {gate.stability && (
        <p className={gate.stability.held ? 'small' : 'small warn'} aria-label="Stability">
          Stability (pass<sup>{gate.stability.k}</sup> must not fall): on {gate.stability.items} validation items, tried
          up to {gate.stability.k} times where passed ({plural(gate.stability.calls, 'call')}), pass
          <sup>{gate.stability.k}</sup> {gate.stability.reference.toFixed(3)} → {gate.stability.candidate.toFixed(3)} →{' '}
          <strong>{gate.stability.held ? 'held' : 'refused the candidate'}</strong>.
        </p>
      )}
      {gate.recheck && (
        <p className={gate.recheck.confirmed ? 'small' : 'small warn'} aria-label="Best re-check">
          Re-check on fresh samples: {fmt(gate.recheck.fresh)} on {gate.recheck.n} items; with every sample counted{' '}
          {fmt(gate.recheck.candidate)} vs best {fmt(gate.recheck.best)} →{' '}
          <strong>
            {gate.recheck.confirmed ? 'confirmed as the new best' : 'not confirmed: current, but not best'}
          </strong>
          .
        </p>
      )}
      {gate.rule && (
        <p className={gate.rule.allowed ? undefined : 'warn'}>
          Gate rule “{GATE_RULE_LABELS[gate.rule.rule]}”: {gate.rule.allowed ? 'held' : 'refused the candidate'} —{' '}
          {gate.rule.reason}
        </p>
      )}
      {gate.skippedByCheck && (
        <p>
          Gate: not run — the candidate was no better on the train batch →{' '}
          <strong>{gate.action.replace(/_/g, ' ')}</strong>.
        </p>
      )}
    </>
  );
}
