/**
 * A run's lift on the test split, reckoned in one place for every reader — the run's summary, the
 * lift card, the HTML report and the runner's closing words: with an interval (a measured lift),
 * the lift a person is shown (core/verdict/lift.ts: corrected for a noisy target); without one,
 * the plain difference of the two skills' test accuracies.
 */
import { shownLift } from '../verdict/lift';

interface Tested {
  skill: string;
  hard: number;
}

/** How much more of the test split `skill` got right than `over`; null when either was not tested. */
export function testGain(tests: readonly Tested[], skill: string, over: string): number | null {
  const a = tests.find((t) => t.skill === skill);
  const b = tests.find((t) => t.skill === over);
  return a && b ? a.hard - b.hard : null;
}

/** The best skill's lift over the starting one as a person is shown it; null when the run was not tested. */
export function runLift(s: { tests: readonly Tested[]; lift?: Parameters<typeof shownLift>[0] }): number | null {
  return s.lift ? shownLift(s.lift) : testGain(s.tests, 'best', 'initial');
}
