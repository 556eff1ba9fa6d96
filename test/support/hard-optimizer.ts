/**
 * The simulated optimizer of the hard world (rule-world.ts): a plausible but fallible analyst.
 * It traces failures to their causes (a missing rule, a missing grade mark, the harmful rule,
 * the broad rule — which it proposes to *replace* with one precise rule, the trap of cause 3),
 * avoids edits the step buffer says were rejected, and, decided by a hash of its prompt, also
 * proposes harmful and broad rules, targets lines that are not in the skill, restates rules
 * the skill already has, and echoes any literal example edit it finds in its instructions.
 */
import {
  BROAD_RULES,
  gradeKey as gradeKeyIn,
  gradeText as gradeTextIn,
  HARD_WORLD,
  HARMFUL_KEY,
  HARMFUL_RULE,
  questionsIn,
  ruleKey,
  ruleText,
  topicCode,
  type HardWorldSpec,
} from './rule-world';
import { after, dedupeEdits, exampleEditsIn, hashFraction, jsonArrayAfter, section, type SimEdit } from './sim-text';
import { applyPatch, type Edit } from '../../src/core/skill/edits';
import { stripProtectedRegions } from '../../src/core/skill/protected-regions';

/**
 * The rewrite modes in the hard world: a suggestion carries the edit the patch-mode analyst
 * would have made (slips included) as its instruction, and the simulated editor carries out
 * exactly the suggestions it is given — so the modes differ only in how the loop ranks, merges
 * and gates whole documents, not in how clever the editor is.
 */
const EDIT_PREFIX = 'Apply edit ';
const asSuggestion = (e: SimEdit) => ({
  type: e.op === 'delete' ? 'remove_rule' : e.op === 'replace' ? 'clarify' : 'add_rule',
  title: (e.content || e.target || '').slice(0, 40),
  motivation: 'failures in this minibatch',
  instruction: `${EDIT_PREFIX}${JSON.stringify({ op: e.op, target: e.target ?? '', content: e.content })}`,
  priority_hint: 'high',
  support_count: e.support_count ?? 1,
  source_type: 'failure',
});
function editsOfSuggestions(list: readonly { instruction?: string }[]): Edit[] {
  return list.flatMap((x) => {
    const i = x.instruction ?? '';
    if (!i.startsWith(EDIT_PREFIX)) return [];
    try {
      return [JSON.parse(i.slice(EDIT_PREFIX.length)) as Edit];
    } catch {
      return [];
    }
  });
}
/**
 * Carry out edits as a whole-document editor would: in order, and a replacement whose target an
 * earlier one already replaced still gets its rule in (an editor integrates both; a literal patch
 * would drop the second).
 */
function rewriteWith(skill: string, edits: readonly Edit[]): string {
  let text = stripProtectedRegions(skill).trimEnd() + '\n';
  for (const e of edits) {
    const content = String(e.content ?? '');
    const gone = e.op === 'replace' && !text.includes(String(e.target ?? ''));
    const edit: Edit = gone ? { op: 'append', content } : e;
    if (gone && (!content || text.includes(content))) continue;
    text = applyPatch(text, [edit]).skill;
  }
  return text;
}

/** How often each slip happens at noise 1. */
const RATES = { echo: 0.3, empty: 0.1, harmful: 0.15, broad: 0.15, hallucinate: 0.2, restate: 0.2, mergeEcho: 0.8, rankSwap: 0.2 };

interface Failure {
  topic: string;
  predicted: string;
}

function failuresIn(text: string): Failure[] {
  return text
    .split('### Trajectory ')
    .slice(1)
    .flatMap((block) => {
      const q = questionsIn(block)[0];
      const predicted = /Predicted answer: (.*)/.exec(block)?.[1]?.trim() ?? '';
      return q ? [{ topic: q.topics[0], predicted }] : [];
    });
}

/** Edits that would fix these failures, most supported first. */
function fixesFor(failures: readonly Failure[], skill: string, spec: HardWorldSpec): SimEdit[] {
  const gradeKey = (t: string) => gradeKeyIn(t, spec.grades);
  const gradeText = (t: string) => gradeTextIn(t, spec.grades);
  const edits: SimEdit[] = [];
  const broad = BROAD_RULES.find((b) => skill.includes(b.text));
  for (const f of failures) {
    if (f.predicted === 'none' && skill.includes(HARMFUL_RULE)) edits.push({ op: 'delete', target: HARMFUL_RULE, content: '' });
    else if (broad && f.predicted.startsWith(`${f.topic.slice(0, 3).toUpperCase()}${broad.digit}-`)) {
      // The wrong prefix comes from the broad rule: swap it for the precise rule of this family.
      edits.push(
        skill.includes(ruleKey(f.topic))
          ? { op: 'delete', target: broad.text, content: '' }
          : { op: 'replace', target: broad.text, content: ruleText(f.topic) },
      );
    } else if (!skill.includes(ruleKey(f.topic))) edits.push({ op: 'append', content: ruleText(f.topic) });
    // One cause at a time (spec.oneCause): the grade mark is seen missing only once the prefix is right.
    const prefixRight = f.predicted.startsWith(`${topicCode(f.topic)}-`);
    if (spec.grades[f.topic] && !skill.includes(gradeKey(f.topic)) && (!spec.oneCause || prefixRight)) edits.push({ op: 'append', content: gradeText(f.topic) });
  }
  return dedupeEdits(edits.map((e) => ({ ...e, support_count: 1, source_type: 'failure' }))).sort(
    (a, b) => (b.support_count ?? 0) - (a.support_count ?? 0),
  );
}

function slips(user: string, system: string, skill: string, rejected: string, noise: number, spec: HardWorldSpec): SimEdit[] {
  const happens = (kind: keyof typeof RATES) => hashFraction(`${kind}\n${user}`) < RATES[kind] * noise;
  const out: SimEdit[] = [];
  const example = exampleEditsIn(system)[0];
  if (example && happens('echo')) out.push({ ...example });
  if (happens('empty')) out.push({ op: 'append', content: '' });
  if (happens('harmful') && !skill.includes(HARMFUL_KEY) && !rejected.includes(HARMFUL_KEY)) out.push({ op: 'append', content: HARMFUL_RULE });
  // A broad rule other than the one the world starts from (the hard world: digits 3 and 8).
  const others = BROAD_RULES.filter((b) => !spec.initialSkill.includes(b.text));
  const broad = others[Math.floor(hashFraction(`which broad\n${user}`) * others.length)];
  if (happens('broad') && !BROAD_RULES.some((b) => skill.includes(b.key)) && !rejected.includes(broad.key)) {
    out.push({ op: 'append', content: broad.text });
  }
  const lines = skill.split('\n').filter((l) => l.startsWith('- '));
  const pick = lines[Math.floor(hashFraction(`line\n${user}`) * lines.length)];
  if (pick && happens('hallucinate')) out.push({ op: 'replace', target: pick.replace('specimen', 'sample'), content: `${pick} Double-check it.` });
  if (pick && happens('restate')) out.push({ op: 'append', content: pick });
  return out.map((e) => ({ support_count: 1, source_type: 'failure', ...e }));
}

function wasRejected(e: SimEdit, rejected: string): boolean {
  const text = e.op === 'delete' ? (e.target ?? '') : e.content;
  return text.length > 0 && rejected.includes(text.slice(0, 120));
}

interface PoolLine {
  index: number;
  support: number;
  carried: boolean;
}

function poolLines(text: string): PoolLine[] {
  return [...text.matchAll(/^\[(\d+)\] op=.*support=(\d+)(.*)$/gm)].map((m) => ({
    index: Number(m[1]),
    support: Number(m[2]),
    carried: /carried/.test(m[3]),
  }));
}

/** How the simulated optimizer behaves: its world, how often it slips, and how often a repair slips in a bad rule. */
export interface HardOptimizerOptions {
  noise: number;
  spec?: HardWorldSpec;
  /** Share of repairs that also add a harmful (or, when it is there already, a broad) rule. */
  repairSlip?: number;
}

export function hardOptimizerAnswer(stage: string, system: string, user: string, o: HardOptimizerOptions): unknown | undefined {
  const { noise, spec = HARD_WORLD, repairSlip = 0 } = o;
  const gradeKey = (t: string) => gradeKeyIn(t, spec.grades);
  const gradeText = (t: string) => gradeTextIn(t, spec.grades);
  const skill = section(user, '## Current Skill');
  const budget = Number(/L=(\d+)/.exec(user)?.[1] ?? 4);
  const rejected = section(user, '## Previous Steps in This Epoch');
  switch (stage) {
    case 'reflect_failure': {
      const failures = failuresIn(after(user, '## Failed Trajectories'));
      const fixes = fixesFor(failures, skill, spec).filter((e) => !wasRejected(e, rejected));
      const edits = [...slips(user, system, skill, rejected, noise, spec), ...fixes].slice(0, budget);
      const missing = [...new Set(failures.map((f) => f.topic))];
      return {
        batch_size: failures.length,
        failure_summary: missing.length ? [{ failure_type: 'rule_missing', count: failures.length, description: `failures on ${missing.join(', ')}` }] : [],
        patch: { reasoning: `Fixes for ${missing.join(', ') || 'nothing'}.`, edits },
      };
    }
    case 'reflect_suggestions':
    case 'reflect_full_rewrite': {
      if (!user.includes('## Failed Trajectories')) return undefined;
      const failures = failuresIn(after(user, '## Failed Trajectories'));
      const fixes = fixesFor(failures, skill, spec).filter((e) => !wasRejected(e, rejected));
      const edits = [...slips(user, system, skill, rejected, noise, spec), ...fixes].slice(0, budget);
      const base = { batch_size: failures.length, failure_summary: [], success_patterns: [] };
      if (stage === 'reflect_suggestions') return { ...base, patch: { reasoning: 'fixes as suggestions', revise_suggestions: edits.map(asSuggestion) } };
      const candidates = edits.length
        ? [{ title: 'fixes', change_summary: edits.map((e) => `${e.op} ${e.content || e.target}`), new_skill: rewriteWith(skill, edits as Edit[]), support_count: failures.length, source_type: 'failure' }]
        : [];
      return { ...base, patch: { reasoning: 'a rewritten skill', skill_candidates: candidates } };
    }
    case 'merge_suggestions': {
      const lists = jsonArrayAfter(user, '## Suggestion lists to merge') as { revise_suggestions?: { instruction?: string; support_count?: number }[] }[];
      const edits = dedupeEdits(editsOfSuggestions(lists.flatMap((l) => l.revise_suggestions ?? [])).map((e) => ({ ...e, content: String(e.content ?? ''), target: String(e.target ?? ''), support_count: 1 })));
      return { reasoning: `merged ${lists.length} lists`, revise_suggestions: edits.sort((a, b) => (b.support_count ?? 0) - (a.support_count ?? 0)).map(asSuggestion) };
    }
    case 'rank_suggestions': {
      const k = Number(/budget=(\d+)/.exec(user)?.[1] ?? 1);
      const order = [...user.matchAll(/^\[(\d+)\] type=.*support=(\d+)$/gm)].map((m) => ({ index: Number(m[1]), support: Number(m[2]) }));
      order.sort((a, b) => b.support - a.support || a.index - b.index);
      return { reasoning: 'the most supported', selected_indices: order.slice(0, k).map((o) => o.index) };
    }
    case 'rewrite_skill': {
      const edits = editsOfSuggestions(jsonArrayAfter(section(user, '## Selected Revise Suggestions'), '(') as { instruction?: string }[]);
      return { reasoning: 'carried out the suggestions', change_summary: edits.map((e) => `${e.op} ${e.content || e.target}`), new_skill: rewriteWith(skill, edits) };
    }
    case 'merge_full_rewrite': {
      // The best-supported version wins (merging whole documents line by line would keep replaced rules).
      const versions = jsonArrayAfter(user, '## Skill versions to merge') as { skill_candidates?: { support_count?: number }[] }[];
      const all = versions.flatMap((v) => v.skill_candidates ?? []).sort((a, b) => (b.support_count ?? 0) - (a.support_count ?? 0));
      return { reasoning: `kept the best-supported of ${all.length} versions`, skill_candidates: all.slice(0, 1) };
    }
    case 'merge_failure':
    case 'merge_success':
    case 'merge_final': {
      const groups = jsonArrayAfter(user, stage === 'merge_final' ? '## Two pre-merged groups' : '## Patches to merge') as { edits?: SimEdit[] }[];
      let edits = dedupeEdits(groups.flatMap((p) => p.edits ?? []));
      if (stage !== 'merge_final') edits = edits.sort((a, b) => (b.support_count ?? 0) - (a.support_count ?? 0));
      const example = exampleEditsIn(system)[0];
      if (example && hashFraction(`mergeEcho\n${user}`) < RATES.mergeEcho * noise) edits.push({ ...example });
      return { reasoning: `merged ${groups.length} patches`, edits };
    }
    case 'rank_edits': {
      const k = Number(/budget=(\d+)/.exec(user)?.[1] ?? 1);
      // Carried edits first (the prompt says they need their partners), then by support.
      const order = poolLines(user).sort((a, b) => Number(b.carried) - Number(a.carried) || b.support - a.support || a.index - b.index);
      const chosen = order.slice(0, k).map((l) => l.index);
      if (chosen.length && order.length > k && hashFraction(`rankSwap\n${user}`) < RATES.rankSwap * noise) chosen[k - 1] = order[k].index;
      return { reasoning: 'carried edits, then the most supported', selected_indices: chosen };
    }
    case 'repair_edits': {
      const lines = [...section(user, '## Candidate Edits').matchAll(/^\[(\d+)\] (.*)$/gm)];
      // An edit is to blame when what it writes in is a bad rule (a replace *of* the broad rule is the fix).
      const written = (line: string) => /content=("(?:[^"\\]|\\.)*")/.exec(line)?.[1] ?? '';
      const drop = lines.filter((m) => written(m[2]).includes(HARMFUL_KEY) || BROAD_RULES.some((b) => written(m[2]).includes(b.key))).map((m) => Number(m[1]));
      const candidate = section(user, '## Candidate Skill');
      const add: SimEdit[] = [];
      for (const q of questionsIn(after(user, '## Regressed Items'))) {
        const t = q.topics[0];
        if (!candidate.includes(ruleKey(t))) add.push({ op: 'append', content: ruleText(t) });
        if (spec.grades[t] && !candidate.includes(gradeKey(t))) add.push({ op: 'append', content: gradeText(t) });
      }
      // A fallible repairer: decided by a hash of its prompt, it also slips in a bad rule.
      if (repairSlip > 0 && hashFraction(`repairSlip\n${user}`) < repairSlip) {
        const other = BROAD_RULES.find((b) => !candidate.includes(b.key) && !spec.initialSkill.includes(b.text));
        if (!candidate.includes(HARMFUL_KEY)) add.push({ op: 'append', content: HARMFUL_RULE });
        else if (other) add.push({ op: 'append', content: other.text });
      }
      return { reasoning: 'drop what broke passing items; restore what a removed rule carried', drop_indices: drop, add_edits: dedupeEdits(add) };
    }
    case 'slow_update': {
      const comparison = after(user, '## Same tasks, before and after');
      const persistent = after(comparison, '### Persistent failures').split('### Improved')[0] || comparison;
      const curr = section(user, '## Skill at the end of this epoch');
      const lines: string[] = [];
      for (const q of questionsIn(persistent)) {
        const t = q.topics[0];
        if (!curr.includes(ruleKey(t)) && !lines.includes(ruleText(t))) lines.push(ruleText(t));
        const prefixRight = curr.includes(ruleKey(t)) && !BROAD_RULES.some((b) => curr.includes(b.key));
        if (spec.grades[t] && !curr.includes(gradeKey(t)) && !lines.includes(gradeText(t)) && (!spec.oneCause || prefixRight)) lines.push(gradeText(t));
      }
      const content = lines.length ? lines.slice(0, 3).join('\n') : '- Check every specimen question against the rules above before answering.';
      return { reasoning: `persistent failures: ${lines.length}`, slow_update_content: content };
    }
    default:
      return undefined; // the easy world's answer fits (success analyst, meta skill, step size, judge)
  }
}
