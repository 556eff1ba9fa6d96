/**
 * The agentic world's analyst knowledge (issue #30): the edits that fix its failures, and how an
 * analyst picks them. It knows the world's vocabulary — the rules of agentic-world.ts, the right
 * unit codes, that the broad and harmful rules exist — as a capable model knows its domain; what
 * it must find out from the evidence is which of them a failure needs:
 * - `diagnose`: from a trajectory (the calls, their arguments and results, the failure reason
 *   naming the call that was expected), exactly the rules it lacked;
 * - `guess`: from the question and the final answer alone (no trajectories), one or two of the
 *   plausible causes, weighted by how plausible each is, and sometimes a generic format rule;
 * - `needsOf`: everything a task of this kind needs that a skill lacks (the repairer restoring
 *   what an edit took away, as the hard world's repairer does).
 */
import { codesIn } from './agentic-agent';
import { callsInReason, expectedArgs, reasonNamesCalls, type Evidence, type SeenCall } from './agentic-evidence';
import { BROAD, BROAD_STOP, HARM, RULES, UNIT_CODES, UNITS_PATH, unitLine, type RuleId, type Task } from './agentic-world';
import { hasFileSections, splitBundle } from '../../src/core/skill-package';
import type { SimEdit } from './sim-text';

/** A generic rule an analyst without evidence writes: harmless, and no help. */
export const FORMAT_RULE = '- Give only the answer itself inside the answer tags, with no other words.';

const has = (skill: string, key: string) => skill.toLowerCase().includes(key.toLowerCase());
const failure = (e: SimEdit): SimEdit => ({ support_count: 1, source_type: 'failure', ...e });
const inFile = (skill: string, file: string) => (hasFileSections(skill) ? { file } : {});

export const addRule = (skill: string, r: RuleId): SimEdit => failure({ op: 'append', target: '', content: RULES[r].text, ...inFile(skill, 'SKILL.md') });
const drop = (skill: string, text: string): SimEdit => failure({ op: 'delete', target: text, content: '', ...inFile(skill, 'SKILL.md') });

/** The bare-number rule: it replaces the broad rule that blocks it, or deletes it when already stated. */
function stripFix(skill: string): SimEdit | null {
  const stated = has(skill, RULES.strip.key);
  if (skill.includes(BROAD.text))
    return stated ? drop(skill, BROAD.text) : failure({ op: 'replace', target: BROAD.text, content: RULES.strip.text, ...inFile(skill, 'SKILL.md') });
  return stated ? null : addRule(skill, 'strip');
}

/** units.md's code for each unit word, as the skill package has it. */
export function unitsFile(skill: string): Record<string, string> {
  const file = splitBundle(skill).files.find((f) => f.path === UNITS_PATH);
  return file ? codesIn(file.text) : {};
}

/** The fix of units.md's line for one unit word, when the file does not give its right code. */
function lineFix(skill: string, word: string): SimEdit | null {
  const right = UNIT_CODES[word];
  const now = unitsFile(skill)[word];
  if (now === right || !hasFileSections(skill)) return null;
  return now === undefined
    ? failure({ op: 'append', target: '', content: unitLine(word, right), file: UNITS_PATH })
    : failure({ op: 'replace', target: unitLine(word, now), content: unitLine(word, right), file: UNITS_PATH });
}

const rule = (skill: string, r: RuleId) => (has(skill, RULES[r].key) ? null : addRule(skill, r));
const present = (list: (SimEdit | null | false)[]) => list.filter((e): e is SimEdit => Boolean(e));

/** The calls of a failure: its conversation's, else those its failure reason names. */
const callsOf = (ev: Evidence): SeenCall[] => ev.calls ?? callsInReason(ev.reason);
/** Does the analyst see what the agent did (the conversation, or a reason that names calls)? */
export const informed = (ev: Evidence) => ev.calls !== null || reasonNamesCalls(ev.reason);

/** What a failure's trajectory shows the skill lacked. */
export function diagnose(ev: Evidence, skill: string): SimEdit[] {
  const calls = callsOf(ev);
  const t = ev.task;
  const fixes: (SimEdit | null | false)[] = [];
  // The over-broad stop rule: the agent answered with its first tool result.
  if (skill.includes(BROAD_STOP.text) && calls.length === 1 && ev.reason.includes('EM=0')) fixes.push(drop(skill, BROAD_STOP.text));
  switch (t.kind) {
    case 'name':
    case 'stock':
    case 'archive': {
      const want = expectedArgs(ev.reason, 'lookup');
      if (!want) break; // its lookup was right: a slip of the agent, not the skill
      const lookups = calls.filter((c) => c.name === 'lookup');
      fixes.push(!lookups.length && rule(skill, 'lookup'));
      const prefixed = !lookups.length || lookups.some((c) => String(c.args.code).includes('-'));
      fixes.push(!String(want.code).includes('-') && prefixed && stripFix(skill));
      fixes.push(want.catalog === 'archive' && !lookups.some((c) => c.args.catalog === 'archive') && rule(skill, 'archive'));
      break;
    }
    case 'weight':
    case 'length': {
      const want = expectedArgs(ev.reason, 'convert');
      if (!want) break;
      const read = calls.some((c) => c.name === 'read_file' && String(c.args.path).endsWith(UNITS_PATH) && !/^Error/.test(c.result ?? ''));
      fixes.push(!read && rule(skill, 'units'));
      for (const which of ['from', 'to'] as const) if (unitsFile(skill)[t[which]] !== want[which]) fixes.push(lineFix(skill, t[which]));
      break;
    }
    case 'status':
      fixes.push(ev.reason.includes('ran out of turns') && rule(skill, 'stop'));
      break;
    case 'refund': {
      const searched = calls.some((c) => c.name === 'search_orders');
      const refundFirst = calls[0]?.name === 'refund';
      fixes.push(t.upset && refundFirst && skill.includes(HARM.text) && drop(skill, HARM.text));
      fixes.push(!searched && ev.reason.includes('never called search_orders') && rule(skill, 'search'));
      fixes.push(ev.reason.includes('ran out of turns') && rule(skill, 'stop'));
      fixes.push(ev.reason.includes('forbidden tool refund') && rule(skill, 'limit'));
      break;
    }
  }
  return present(fixes);
}

/** Everything a task of this kind needs that the skill lacks (what restores a regressed item). */
export function needsOf(t: Task, expected: readonly string[], skill: string): SimEdit[] {
  const slip = skill.includes(BROAD_STOP.text) && drop(skill, BROAD_STOP.text);
  switch (t.kind) {
    case 'name':
    case 'stock':
    case 'archive':
      return present([slip, rule(skill, 'lookup'), stripFix(skill), t.kind === 'archive' && rule(skill, 'archive')]);
    case 'weight':
    case 'length':
      return present([slip, rule(skill, 'units'), lineFix(skill, t.from), lineFix(skill, t.to)]);
    case 'status':
      return present([slip, rule(skill, 'stop')]);
    case 'refund':
      return present([
        slip,
        t.upset && skill.includes(HARM.text) && drop(skill, HARM.text),
        rule(skill, 'search'),
        rule(skill, 'stop'),
        expected.includes('escalated') && rule(skill, 'limit'),
      ]);
  }
}

/** Plausible causes of a failure seen only by its final answer, each with a weight. */
function suspects(ev: Evidence, skill: string): [SimEdit | null | false, number][] {
  const t = ev.task;
  const herring: [SimEdit | null, number] = [has(skill, FORMAT_RULE) ? null : failure({ op: 'append', target: '', content: FORMAT_RULE }), 1];
  const noAnswer = ev.predicted === '';
  switch (t.kind) {
    case 'name':
    case 'stock':
    case 'archive':
      return [[rule(skill, 'lookup'), 3], [stripFix(skill), 1], [t.kind === 'archive' && rule(skill, 'archive'), 2], herring];
    case 'weight':
    case 'length':
      return [[rule(skill, 'units'), 3], [lineFix(skill, t.from), 1], [lineFix(skill, t.to), 1], herring];
    case 'status':
      return [[noAnswer && rule(skill, 'stop'), 3], herring];
    case 'refund': {
      const harm: [SimEdit | false, number] = [t.upset && skill.includes(HARM.text) && drop(skill, HARM.text), 2];
      if (noAnswer) return [[rule(skill, 'stop'), 3], [ev.expected.includes('escalated') && rule(skill, 'limit'), 1]];
      if (ev.expected.includes('escalated')) return [[rule(skill, 'limit'), 3], [rule(skill, 'search'), 1], harm, herring];
      return [[rule(skill, 'search'), 2], harm, [rule(skill, 'stop'), 1], herring];
    }
  }
}

/**
 * An analyst's guess without the trajectory: one suspect drawn by weight, and a second one half
 * the time. `draw(k)` ∈ [0, 1) is its k-th random number.
 */
export function guess(ev: Evidence, skill: string, draw: (k: number) => number): SimEdit[] {
  const pool = suspects(ev, skill).filter((s): s is [SimEdit, number] => Boolean(s[0]));
  const out: SimEdit[] = [];
  const count = draw(0) < 0.5 ? 2 : 1;
  for (let k = 1; k <= count && pool.length; k++) {
    const total = pool.reduce((a, [, w]) => a + w, 0);
    let x = draw(k) * total;
    const i = pool.findIndex(([, w]) => (x -= w) < 0);
    out.push(pool.splice(i < 0 ? pool.length - 1 : i, 1)[0][0]);
  }
  return out;
}
