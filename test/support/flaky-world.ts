/**
 * The flaky world (issue #43, stability as a gate criterion): four families, a steady target, a start
 * that knows two — every item it passes it passes every time (pass^k = 0.5 on a balanced split). The
 * analysts propose one line, a "code book" that makes the target answer every item right four times
 * in five, at random: better on average (0.8 against 0.5), far less reliable (pass^4 about 0.41).
 */
import { hardOptimizerAnswer } from './hard-optimizer';
import { startingSkill } from './generated-world';
import { hardWorldExpected, type HardWorldSpec } from './rule-world';

export const FLAKY_SPEC: HardWorldSpec = {
  name: 'flaky',
  topics: ['amber', 'basalt', 'cobalt', 'dune'],
  grades: {},
  blind: [],
  initialSkill: startingSkill({ grades: {} }, { known: ['amber', 'basalt'], harmful: false, broad: null, carried: [] }),
};
export const FLAKY_SIZES = { train: 20, val: 40, test: 48 };
export const CODE_BOOK = '- Answer every specimen from the code book.';

/** The test server's options for the flaky world: its target's code book and its analysts. */
export const flakyServer = {
  world: 'hard' as const,
  spec: FLAKY_SPEC,
  noise: 0,
  // The code book: right four times in five, whatever the family.
  targetHook: (system: string, user: string, draw: number) =>
    system.includes(CODE_BOOK) ? (draw < 0.8 ? (hardWorldExpected(user, FLAKY_SPEC) ?? undefined) : 'unknown') : undefined,
  optimizerHook: (stage: string, system: string, user: string): unknown => {
    if (stage !== 'reflect_failure') return hardOptimizerAnswer(stage, system, user, { noise: 0, spec: FLAKY_SPEC });
    const edits = user.includes(CODE_BOOK) ? [] : [{ op: 'append', content: CODE_BOOK, support_count: 5, source_type: 'failure' }];
    return { batch_size: 5, failure_summary: [], patch: { reasoning: 'a code book', edits } };
  },
};
