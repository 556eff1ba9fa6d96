import type { GateArtifact } from '../../worker/api-types';
import { plural } from './run-format';

type Evidence = NonNullable<GateArtifact['evidence']>;

/**
 * What an undecided posterior verdict bought before deciding (issue #40), in words: everything up to
 * the chance of "better" after, and that chance. The body's gate and the activation track's say it alike.
 */
export function evidenceBought(e: Evidence): { lead: string; after: string } {
  return {
    lead:
      `Undecided on the run’s samples (better with probability ${e.before.pBetter.toFixed(3)}, worse ` +
      `${e.before.pWorse.toFixed(3)}): instead of saying no, the gate asked again where a change was plausible, ` +
      `up to ${e.samples} answers per item (${plural(e.calls, 'call')}) → better with probability `,
    after: e.after.pBetter.toFixed(3),
  };
}

/** The "Evidence bought" line of a gate's verdict. */
export function EvidenceBought({ evidence }: { evidence: Evidence }) {
  const { lead, after } = evidenceBought(evidence);
  return (
    <p className="small" aria-label="Evidence bought">
      {lead}
      <strong>{after}</strong>.
    </p>
  );
}
