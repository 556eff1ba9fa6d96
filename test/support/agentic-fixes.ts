/**
 * The agentic world's analyst knowledge (issue #30): the edits that fix its failures, and how an
 * analyst picks them. It knows the world's vocabulary — the rules of agentic-world.ts, common
 * unit codes, that parts can be in an archive, that refunds can be escalated — as a capable model
 * knows its domain; what it must find out from the evidence is which of them a failure needs:
 * - `diagnose`: from a trajectory (the calls, their arguments and results, the failure reason
 *   naming the call that was expected), exactly what the skill lacked or got wrong;
 * - `guess`: from the question and the final answer alone (no trajectories), one or two causes
 *   drawn from those that explain the answer as well — the right ones, a generic format rule,
 *   and plausible wrong ones (the world's decoys: a family that is not discontinued, every part
 *   in the archive, unit names, every refund escalated) that break other items.
 */
import { codesIn } from './agentic-agent';
import { callsInReason, expectedArgs, reasonNamesCalls, type Evidence, type SeenCall } from './agentic-evidence';
import { BROAD, BROAD_STOP, DECOYS, HARM, RULES, UNIT_CODES, UNITS_PATH, archiveRule, unitLine, type DecoyId, type RuleId, type Task, type WorldRule } from './agentic-world';
import { hasFileSections, splitBundle } from '../../src/core/skill/skill-package';
import type { SimEdit } from './sim-text';

/** A generic rule an analyst without evidence writes: harmless, and no help. */
export const FORMAT_RULE = '- Give only the answer itself inside the answer tags, with no other words.';

const has = (skill: string, key: string) => skill.toLowerCase().includes(key.toLowerCase());
const failure = (e: SimEdit): SimEdit => ({ support_count: 1, source_type: 'failure', ...e });
const inFile = (skill: string, file: string) => (hasFileSections(skill) ? { file } : {});

/** Append a rule unless the skill states it already. */
const add = (skill: string, r: WorldRule): SimEdit | null =>
  has(skill, r.key) ? null : failure({ op: 'append', target: '', content: r.text, ...inFile(skill, 'SKILL.md') });
const rule = (skill: string, id: RuleId) => add(skill, RULES[id]);
/** Delete a line the skill holds (none when it does not). */
const drop = (skill: string, r: WorldRule): SimEdit | null =>
  skill.includes(r.text) ? failure({ op: 'delete', target: r.text, content: '', ...inFile(skill, 'SKILL.md') }) : null;
const dropDecoy = (skill: string, d: DecoyId) => drop(skill, DECOYS[d]);

/** The bare-number rule: it replaces the broad rule that blocks it, or deletes it when already stated. */
function stripFix(skill: string): SimEdit | null {
  const stated = has(skill, RULES.strip.key);
  if (skill.includes(BROAD.text))
    return stated ? drop(skill, BROAD) : failure({ op: 'replace', target: BROAD.text, content: RULES.strip.text, ...inFile(skill, 'SKILL.md') });
  return stated ? null : rule(skill, 'strip');
}

/** units.md's code for each unit word, as the skill package has it. */
export function unitsFile(skill: string): Record<string, string> {
  const file = splitBundle(skill).files.find((f) => f.path === UNITS_PATH);
  return file ? codesIn(file.text) : {};
}

/** The fix of units.md's line for one unit word, when the file does not give `right`. */
function lineFix(skill: string, word: string, right = UNIT_CODES[word]): SimEdit | null {
  const now = unitsFile(skill)[word];
  if (now === right || !hasFileSections(skill)) return null;
  return now === undefined
    ? failure({ op: 'append', target: '', content: unitLine(word, right), file: UNITS_PATH })
    : failure({ op: 'replace', target: unitLine(word, now), content: unitLine(word, right), file: UNITS_PATH });
}

const present = (list: (SimEdit | null | false | undefined)[]) => list.filter((e): e is SimEdit => Boolean(e));

/** The calls of a failure: its conversation's, else those its failure reason names. */
const callsOf = (ev: Evidence): SeenCall[] => ev.calls ?? callsInReason(ev.reason);
/** Does the analyst see what the agent did (the conversation, or a reason that names calls)? */
export const informed = (ev: Evidence) => ev.calls !== null || reasonNamesCalls(ev.reason);
const failed = (c: SeenCall) => /^no (result|part)|^Error/.test(c.result ?? '');

/** What a failure's trajectory shows the skill lacked or got wrong. */
export function diagnose(ev: Evidence, skill: string): SimEdit[] {
  const calls = callsOf(ev);
  const t = ev.task;
  // The over-broad stop rule: the agent answered with its first tool result.
  const fixes: (SimEdit | null | false)[] = [calls.length === 1 && ev.reason.includes('EM=0') && drop(skill, BROAD_STOP)];
  switch (t.kind) {
    case 'name':
    case 'stock': {
      const want = expectedArgs(ev.reason, 'lookup');
      if (!want) break; // its lookup was right: a slip of the agent, not of the skill
      const lookups = calls.filter((c) => c.name === 'lookup');
      fixes.push(!lookups.length && rule(skill, 'lookup'));
      const prefixed = !lookups.length || lookups.some((c) => String(c.args.code).includes('-'));
      fixes.push(!String(want.code).includes('-') && prefixed && stripFix(skill));
      if (want.catalog === 'archive' && !lookups.some((c) => c.args.catalog === 'archive')) fixes.push(add(skill, archiveRule(t.family)));
      // Asked in the archive, a main part is not there.
      if (!want.catalog && lookups.some((c) => c.args.catalog === 'archive' && failed(c)))
        fixes.push(dropDecoy(skill, 'archiveAll'), drop(skill, archiveRule(t.family)));
      break;
    }
    case 'weight':
    case 'length': {
      const want = expectedArgs(ev.reason, 'convert');
      if (!want) break;
      const read = calls.some((c) => c.name === 'read_file' && String(c.args.path).endsWith(UNITS_PATH) && !failed(c));
      fixes.push(!read && rule(skill, 'units'));
      for (const which of ['from', 'to'] as const) fixes.push(lineFix(skill, t[which], String(want[which])));
      if (calls.some((c) => c.name === 'convert' && c.args.from === t.from)) fixes.push(dropDecoy(skill, 'unitWords'));
      break;
    }
    case 'status':
      fixes.push(ev.reason.includes('ran out of turns') && rule(skill, 'stop'));
      break;
    case 'refund': {
      const searched = calls.some((c) => c.name === 'search_orders');
      fixes.push(t.upset && calls[0]?.name === 'refund' && drop(skill, HARM));
      fixes.push(!searched && ev.reason.includes('never called search_orders') && rule(skill, 'search'));
      fixes.push(ev.reason.includes('ran out of turns') && rule(skill, 'stop'));
      fixes.push(ev.reason.includes('forbidden tool refund') && rule(skill, 'limit'));
      // Searched and stopped, yet no refund: the skill escalated a refund within the limit.
      fixes.push(searched && ev.reason.includes('never called refund') && dropDecoy(skill, 'escalateAll'));
      break;
    }
  }
  return present(fixes);
}

/** Causes that explain a failure seen only by its final answer, each with how plausible it is. */
function suspects(ev: Evidence, skill: string): [SimEdit | null | false, number][] {
  const t = ev.task;
  const herring: [SimEdit | null, number] = [add(skill, { text: FORMAT_RULE, key: FORMAT_RULE }), 1];
  const noAnswer = ev.predicted === '';
  const wrongAnswer = (a: string) => ev.predicted === a && !ev.expected.includes(a);
  switch (t.kind) {
    case 'name':
    case 'stock': {
      // Once lookups work, a part that still fails suggests its family is kept elsewhere.
      const looksUp = has(skill, RULES.lookup.key) && !skill.includes(BROAD.text) && has(skill, RULES.strip.key);
      return [
        [rule(skill, 'lookup'), 3],
        [stripFix(skill), 1],
        [add(skill, archiveRule(t.family)), looksUp ? 3 : 1],
        [add(skill, DECOYS.archiveAll), 1],
        herring,
      ];
    }
    case 'weight':
    case 'length':
      return [[rule(skill, 'units'), 3], [lineFix(skill, t.from), 1], [lineFix(skill, t.to), 1], [add(skill, DECOYS.unitWords), 1], herring];
    case 'status':
      return [[noAnswer && rule(skill, 'stop'), 3], herring];
    case 'refund': {
      const harm: [SimEdit | false | null, number] = [t.upset && drop(skill, HARM), 2];
      if (noAnswer) return [[rule(skill, 'stop'), 3], [ev.expected.includes('escalated') && rule(skill, 'limit'), 1]];
      if (ev.expected.includes('escalated')) return [[rule(skill, 'limit'), 3], [add(skill, DECOYS.escalateAll), 1], [rule(skill, 'search'), 1], harm, herring];
      if (wrongAnswer('escalated')) return [[dropDecoy(skill, 'escalateAll'), 3], [drop(skill, RULES.limit), 1], herring];
      return [[rule(skill, 'search'), 2], harm, [rule(skill, 'stop'), 1], herring];
    }
  }
}

/**
 * An analyst's guess without the trajectory: one suspect drawn by plausibility, and a second one
 * half the time. `draw(k)` ∈ [0, 1) is its k-th random number.
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

/** Which decoy an edit writes in, if any: a repairer drops it when items of its kind regressed. */
export function decoyWritten(content: string): { decoy: DecoyId; kinds: readonly Task['kind'][] } | null {
  if (has(content, DECOYS.archiveAll.key) || /parts are discontinued/i.test(content)) return { decoy: 'archiveAll', kinds: ['name', 'stock'] };
  if (has(content, DECOYS.unitWords.key)) return { decoy: 'unitWords', kinds: ['weight', 'length'] };
  if (has(content, DECOYS.escalateAll.key)) return { decoy: 'escalateAll', kinds: ['refund'] };
  return null;
}
