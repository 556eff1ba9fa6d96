/** Reading our own prompts back, for the simulated optimizers of the test server. */
import { createHash } from 'node:crypto';
import { SKILL_STAND_IN } from '../../src/engine/trajectory';

/** A stable number in [0, 1] from a text: the simulated models' "randomness". */
export function hashFraction(text: string): number {
  return parseInt(createHash('sha256').update(text).digest('hex').slice(0, 8), 16) / 0xffffffff;
}

export { section, after, jsonArrayAfter, dedupeEdits, type SimEdit } from '../../src/core/simulators/demo-optimizer';
import type { SimEdit } from '../../src/core/simulators/demo-optimizer';

/** Literal example edit objects written into a prompt — what a model may echo back. */
export function exampleEditsIn(system: string): SimEdit[] {
  const out: SimEdit[] = [];
  for (const m of system.matchAll(/\{"op":\s*"[^"]*"[^{}]*\}/g)) {
    try {
      out.push(JSON.parse(m[0]) as SimEdit);
    } catch {
      // not valid JSON: a model would not copy it verbatim either
    }
  }
  return out;
}

/**
 * An analyst prompt with the skill written back where its trajectories show the stand-in, as
 * the target saw it. The simulated optimizers draw their slips from a hash of this text, so
 * how the engine abbreviates a prompt does not reshuffle which runs slip.
 */
export function withSkillInTrajectories(user: string): string {
  if (!user.includes(SKILL_STAND_IN)) return user;
  const head = '## Current Skill\n';
  const start = user.indexOf(head);
  const end = user.indexOf('\n\n## Edits Budget', start);
  if (start < 0 || end < 0) return user;
  return user.replaceAll(SKILL_STAND_IN, user.slice(start + head.length, end).trim());
}
