/** Reading our own prompts back, for the simulated optimizers of the test server. */
import { createHash } from 'node:crypto';
import { SKILL_STAND_IN } from '../../src/engine/trajectory';

/** A stable number in [0, 1] from a text: the simulated models' "randomness". */
export function hashFraction(text: string): number {
  return parseInt(createHash('sha256').update(text).digest('hex').slice(0, 8), 16) / 0xffffffff;
}

/** The text under a `## ` heading, up to the next `## ` heading. */
export function section(text: string, heading: string): string {
  const i = text.indexOf(heading);
  if (i < 0) return '';
  const rest = text.slice(i + heading.length);
  const next = rest.search(/\n## /);
  return next < 0 ? rest : rest.slice(0, next);
}

/** Everything after a heading (trajectories contain "## " headings of their own). */
export function after(text: string, heading: string): string {
  const i = text.indexOf(heading);
  return i < 0 ? '' : text.slice(i + heading.length);
}

/** The JSON array that follows a heading and runs to the end of the message. */
export function jsonArrayAfter(text: string, heading: string): unknown[] {
  const i = text.indexOf(heading);
  if (i < 0) return [];
  const start = text.indexOf('[', i);
  if (start < 0) return [];
  const end = text.lastIndexOf(']');
  try {
    const v = JSON.parse(text.slice(start, end + 1));
    return Array.isArray(v) ? v : [];
  } catch {
    return [];
  }
}

export type SimEdit = { op: string; target?: string; content: string; support_count?: number; source_type?: string; merge_level?: number };

/** Merge equal edits (same op, target and content), summing their support, first one's place kept. */
export function dedupeEdits(edits: readonly SimEdit[]): SimEdit[] {
  const byKey = new Map<string, SimEdit>();
  for (const e of edits) {
    const key = `${e.op}\u0000${e.target ?? ''}\u0000${e.content}`;
    const prev = byKey.get(key);
    if (prev) prev.support_count = (prev.support_count ?? 1) + (e.support_count ?? 1);
    else byKey.set(key, { ...e, support_count: e.support_count ?? 1 });
  }
  return [...byKey.values()];
}

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
