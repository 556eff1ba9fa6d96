/**
 * The simulated optimizer of the rule world (core/simulators/demo-world.ts), behind the test LLM server
 * and the in-page demo: it reads the failures in its prompt and proposes rules, merges, ranks
 * and writes the epoch guidance like a careful model would. A simulation, never a real model.
 */
import { HARMFUL_KEY, HARMFUL_RULE, questionsIn, ruleKey, ruleText } from './demo-world';
import { stripProtectedRegions } from '../skill/protected-regions';
import { splitBundle } from '../skill/skill-package';

/** The stages our prompts announce, matched when no json_schema name is sent. */
const STAGE_MARKERS: [string, string][] = [
  ['failure analyst', 'reflect_failure'],
  ['success analyst', 'reflect_success'],
  ['combining failure-driven patches', 'merge_failure'],
  ['combining success-driven patches', 'merge_success'],
  ['final merger', 'merge_final'],
  ['edit ranker', 'rank_edits'],
  ['bundle repairer', 'repair_edits'],
  ['step-size controller', 'lr_decision'],
  ['epoch reviewer', 'slow_update'],
  ['coach of a skill optimizer', 'meta_skill'],
  ['strict grader', 'judge'],
  ['feedback editor', 'feedback_edits'],
  ['notes editor', 'appendix_consolidate'],
  ['analyst of a skill optimizer in rewrite mode', 'reflect_suggestions'],
  ['suggestion merger', 'merge_suggestions'],
  ['suggestion ranker', 'rank_suggestions'],
  ['skill editor', 'rewrite_skill'],
  ['analyst of a skill optimizer in full-rewrite mode', 'reflect_full_rewrite'],
  ['skill merger', 'merge_full_rewrite'],
  ['optimise when an AI agent loads a skill', 'describe_skill'],
  ['You play a person talking to an assistant', 'user_simulator'],
];

export interface ChatBody {
  model?: string;
  max_tokens?: number;
  temperature?: number;
  messages?: { role: string; content: string }[];
  stream?: boolean;
  response_format?: { type: string; json_schema?: { name?: string } };
}

/** The stage a request is for: its json_schema name, else a marker in its system prompt, else the target. */
export function stageOf(body: ChatBody): string {
  const named = body.response_format?.json_schema?.name;
  if (named) return named;
  const system = body.messages?.find((m) => m.role === 'system')?.content ?? '';
  for (const [marker, stage] of STAGE_MARKERS) if (system.includes(marker)) return stage;
  return 'target';
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

export type SimEdit = {
  op: string;
  target?: string;
  content: string;
  support_count?: number;
  source_type?: string;
  merge_level?: number;
  file?: string;
};

/** Merge equal edits (same op, target and content), summing their support, first one's place kept. */
export function dedupeEdits(edits: readonly SimEdit[]): SimEdit[] {
  const byKey = new Map<string, SimEdit>();
  for (const e of edits) {
    const key = `${e.file ?? ''}\u0000${e.op}\u0000${e.target ?? ''}\u0000${e.content}`;
    const prev = byKey.get(key);
    if (prev) prev.support_count = (prev.support_count ?? 1) + (e.support_count ?? 1);
    else byKey.set(key, { ...e, support_count: e.support_count ?? 1 });
  }
  return [...byKey.values()];
}

/**
 * One change the failure analyst wants: add a rule, or remove one. In a skill package whose
 * reference file states the topic's rule with a wrong code, the change fixes that line there.
 */
type Change = { remove: boolean; rule: string; fix?: { file: string; target: string } };

/** A reference file's line that gives a topic's rule with the wrong code, if any. */
function wrongRuleInFiles(skill: string, topic: string): { file: string; target: string } | undefined {
  const line = new RegExp(`^.*For ${topic} specimens, use the prefix [A-Z]{3}\\d.*$`, 'm');
  for (const f of splitBundle(skill).files) {
    const m = line.exec(f.text);
    if (m && !m[0].includes(ruleKey(topic))) return { file: f.path, target: m[0] };
  }
  return undefined;
}

/** What the failure analyst would do, at most `budget` changes in priority order. */
function failureAnalysis(
  user: string,
  skill: string,
  budget: number,
  opts: SimulationOptions,
): { changes: Change[]; missing: string[]; failed: string } {
  const failed = after(user, '## Failed Trajectories');
  const missing: string[] = [];
  for (const q of questionsIn(failed))
    for (const t of q.topics) if (!skill.includes(ruleKey(t)) && !missing.includes(t)) missing.push(t);
  const changes: Change[] = missing
    .slice(0, budget)
    .map((t) => ({ remove: false, rule: ruleText(t), fix: wrongRuleInFiles(skill, t) }));
  // Answers of "none" trace back to the harmful rule: an analyst would remove it.
  if (skill.includes(HARMFUL_RULE) && /<answer>none<\/answer>/.test(failed))
    changes.unshift({ remove: true, rule: HARMFUL_RULE });
  // Like a careful analyst, it does not propose again what the buffer says was rejected.
  const rejectedBefore = section(user, '## Previous Steps in This Epoch').includes(HARMFUL_KEY);
  if (opts.fraction(user) < opts.harmfulRate && !skill.includes(HARMFUL_KEY) && !rejectedBefore) {
    changes.splice(Math.max(0, budget - 1), changes.length, { remove: false, rule: HARMFUL_RULE });
  }
  return { changes: changes.slice(0, budget), missing, failed };
}

const rulesTo = (changes: readonly Change[], remove: boolean) =>
  changes.filter((c) => c.remove === remove).map((c) => c.rule);
const summaryOf = (changes: readonly Change[]) => changes.map((c) => `${c.remove ? 'removed' : 'added'} ${c.rule}`);

const SUCCESS_NOTE = '- Give only the code, with no extra words.';

/** The skill body with rules removed and added, as a simulated editor writes it (protected blocks left out). */
function rewriteBody(skill: string, add: readonly string[], remove: readonly string[]): string {
  let body = stripProtectedRegions(skill).trim();
  for (const r of remove)
    body = body
      .split(r)
      .join('')
      .replace(/\n{3,}/g, '\n\n');
  const fresh = add.filter((r) => !body.includes(r));
  return `${[body.trim(), ...fresh].join('\n')}\n`;
}

const ADD = 'Add the rule: ';
const REMOVE = 'Remove the rule: ';
/** The rule texts of suggestions by their instruction's prefix. */
function rulesOf(suggestions: readonly { instruction?: string }[], prefix: string): string[] {
  return suggestions
    .map((x) => x.instruction ?? '')
    .filter((i) => i.startsWith(prefix))
    .map((i) => i.slice(prefix.length));
}

export interface SimulationOptions {
  /** Share of failure analyses that slip the harmful rule in. */
  harmfulRate: number;
  /** A stable number in [0, 1) from a text: the simulation's "randomness". */
  fraction: (text: string) => number;
}

/** An analyst's answer in rewrite and full-rewrite mode: no summary or patterns, only its patch. */
const analysis = (batch_size: number, patch: Record<string, unknown>) => ({
  batch_size,
  failure_summary: [],
  success_patterns: [],
  patch,
});

/** A failure analyst's answer in those modes: its patch names the topics it found no rule for. */
const failureAnswer = (a: ReturnType<typeof failureAnalysis>, patch: Record<string, unknown>) =>
  analysis(questionsIn(a.failed).length, { reasoning: `no rule for ${a.missing.join(', ') || 'nothing'}`, ...patch });

/** The simulated optimizer's answer (a JSON value) for one stage of the loop. */
export function simulatedOptimizerAnswer(stage: string, user: string, opts: SimulationOptions, system = ''): unknown {
  // Skill-aware reflection (§3.8): the analyst also writes one reminder per topic it saw fail.
  const skillAware = system.includes('Skill-aware reflection');
  const skill = section(user, '## Current Skill');
  const budgetMatch = /L=(\d+)/.exec(user);
  const budget = budgetMatch ? Number(budgetMatch[1]) : 4;
  switch (stage) {
    case 'reflect_failure': {
      const a = failureAnalysis(user, skill, budget, opts);
      const edits: SimEdit[] = a.changes.map((c) =>
        c.remove
          ? { op: 'delete', target: c.rule, content: '', support_count: 1, source_type: 'failure' }
          : c.fix
            ? { op: 'replace', ...c.fix, content: c.rule, support_count: 1, source_type: 'failure' }
            : { op: 'append', content: c.rule, support_count: 1, source_type: 'failure' },
      );
      const topics = [...new Set(questionsIn(a.failed).flatMap((q) => q.topics))];
      return {
        batch_size: questionsIn(a.failed).length,
        failure_summary: a.missing.length
          ? [
              {
                failure_type: 'rule_missing',
                count: a.missing.length,
                description: `no rule for ${a.missing.join(', ')}`,
              },
            ]
          : [],
        patch: { reasoning: `The skill has no rule for ${a.missing.join(', ') || 'nothing'}.`, edits },
        ...(skillAware
          ? { appendix_notes: topics.map((t) => `Check the ${t} rule before answering a ${t} question.`) }
          : {}),
      };
    }
    case 'reflect_success': {
      const ok = after(user, '## Successful Trajectories');
      const n = questionsIn(ok).length;
      const note = '- Give only the code, with no extra words.';
      const edits =
        n >= 2 && !skill.includes(note)
          ? [{ op: 'append', content: note, support_count: n, source_type: 'success' }]
          : [];
      return {
        batch_size: n,
        success_patterns: edits.length ? ['answers were bare codes'] : [],
        patch: { reasoning: 'reinforce the answer form', edits },
        ...(skillAware ? { appendix_notes: ['Keep answers to the bare code.'] } : {}),
      };
    }
    case 'reflect_suggestions': {
      if (user.includes('## Successful Trajectories')) {
        const n = questionsIn(after(user, '## Successful Trajectories')).length;
        const suggestions =
          n >= 2 && !skill.includes(SUCCESS_NOTE)
            ? [
                {
                  type: 'add_rule',
                  title: 'Bare codes',
                  motivation: 'answers were bare codes',
                  instruction: `${ADD}${SUCCESS_NOTE}`,
                  priority_hint: 'low',
                  support_count: n,
                  source_type: 'success',
                },
              ]
            : [];
        return analysis(n, { reasoning: 'reinforce the answer form', revise_suggestions: suggestions });
      }
      const a = failureAnalysis(user, skill, budget, opts);
      const suggestions = a.changes.map((c) =>
        c.remove
          ? {
              type: 'remove_rule',
              title: 'Blanket answer',
              motivation: 'answers of none',
              instruction: `${REMOVE}${c.rule}`,
              priority_hint: 'high',
              support_count: 1,
              source_type: 'failure',
            }
          : {
              type: 'add_rule',
              title: c.rule.slice(2, 40),
              motivation: 'no rule for this topic',
              instruction: `${ADD}${c.rule}`,
              priority_hint: 'high',
              support_count: 1,
              source_type: 'failure',
            },
      );
      return failureAnswer(a, { revise_suggestions: suggestions });
    }
    case 'merge_suggestions': {
      const lists = jsonArrayAfter(user, '## Suggestion lists to merge') as {
        revise_suggestions?: { instruction?: string; support_count?: number }[];
      }[];
      const byInstruction = new Map<string, { instruction?: string; support_count?: number }>();
      for (const x of lists.flatMap((l) => l.revise_suggestions ?? [])) {
        const prev = byInstruction.get(x.instruction ?? '');
        if (prev) prev.support_count = (prev.support_count ?? 1) + (x.support_count ?? 1);
        else byInstruction.set(x.instruction ?? '', { ...x });
      }
      return {
        reasoning: `merged ${lists.length} lists`,
        revise_suggestions: [...byInstruction.values()].sort((a, b) => (b.support_count ?? 0) - (a.support_count ?? 0)),
      };
    }
    case 'rewrite_skill': {
      const suggestions = jsonArrayAfter(section(user, '## Selected Revise Suggestions'), '(') as {
        instruction?: string;
      }[];
      const add = rulesOf(suggestions, ADD);
      const remove = rulesOf(suggestions, REMOVE);
      return {
        reasoning: 'integrated the suggestions',
        change_summary: [...remove.map((r) => `removed ${r}`), ...add.map((r) => `added ${r}`)],
        new_skill: rewriteBody(skill, add, remove),
      };
    }
    case 'reflect_full_rewrite': {
      if (user.includes('## Successful Trajectories')) {
        const n = questionsIn(after(user, '## Successful Trajectories')).length;
        const write = n >= 2 && !skill.includes(SUCCESS_NOTE);
        const candidates = write
          ? [
              {
                title: 'bare codes',
                change_summary: [`added ${SUCCESS_NOTE}`],
                new_skill: rewriteBody(skill, [SUCCESS_NOTE], []),
                support_count: n,
                source_type: 'success',
              },
            ]
          : [];
        return analysis(n, { reasoning: 'reinforce the answer form', skill_candidates: candidates });
      }
      const a = failureAnalysis(user, skill, budget, opts);
      const candidates = a.changes.length
        ? [
            {
              title: 'rules for the failed topics',
              change_summary: summaryOf(a.changes),
              new_skill: rewriteBody(skill, rulesTo(a.changes, false), rulesTo(a.changes, true)),
              support_count: 1,
              source_type: 'failure',
            },
          ]
        : [];
      return failureAnswer(a, { skill_candidates: candidates });
    }
    case 'merge_full_rewrite': {
      // The union of the versions' lines, in order: every version's additions survive.
      const versions = jsonArrayAfter(user, '## Skill versions to merge') as {
        skill_candidates?: { new_skill?: string; change_summary?: string[] }[];
      }[];
      const all = versions.flatMap((v) => v.skill_candidates ?? []);
      const removed = new Set(
        all
          .flatMap((c) => c.change_summary ?? [])
          .filter((l) => l.startsWith('removed '))
          .map((l) => l.slice(8)),
      );
      const lines: string[] = [];
      for (const c of all)
        for (const l of (c.new_skill ?? '').split('\n'))
          if (l.trim() && !lines.includes(l) && !removed.has(l)) lines.push(l);
      return {
        reasoning: `merged ${all.length} versions`,
        skill_candidates: [
          {
            title: 'merged',
            change_summary: [...new Set(all.flatMap((c) => c.change_summary ?? []))],
            new_skill: `${lines.join('\n')}\n`,
            support_count: all.length,
            source_type: 'failure',
          },
        ],
      };
    }
    case 'appendix_consolidate': {
      // Keeps the first half: shorter, never empty.
      const notes = section(user, '## Appendix notes')
        .split('\n')
        .filter((l) => l.startsWith('- '))
        .map((l) => l.slice(2));
      return { appendix_notes: notes.slice(0, Math.max(1, Math.floor(notes.length / 2))) };
    }
    case 'merge_failure':
    case 'merge_success': {
      const patches = jsonArrayAfter(user, '## Patches to merge') as { edits?: SimEdit[] }[];
      const edits = dedupeEdits(patches.flatMap((p) => p.edits ?? [])).sort(
        (a, b) => (b.support_count ?? 0) - (a.support_count ?? 0),
      );
      return { reasoning: `merged ${patches.length} patches`, edits };
    }
    case 'merge_final': {
      const groups = jsonArrayAfter(user, '## Two pre-merged groups') as { edits?: SimEdit[] }[];
      return { reasoning: 'failure edits first', edits: dedupeEdits(groups.flatMap((g) => g.edits ?? [])) };
    }
    case 'rank_edits':
    case 'rank_suggestions': {
      const m = /budget=(\d+)/.exec(user);
      const k = m ? Number(m[1]) : 1;
      const count = Number(/\((\d+) (?:edits|suggestions), budget/.exec(user)?.[1] ?? k);
      return {
        reasoning: 'most supported first',
        selected_indices: Array.from({ length: Math.min(k, count) }, (_, i) => i),
      };
    }
    case 'lr_decision': {
      const count = Number(/proposed_update_items: (\d+)/.exec(user)?.[1] ?? 1);
      return {
        learning_rate: Math.max(1, Math.ceil(count / 2)),
        reasoning: 'half of the proposals',
        confidence: 'medium',
        risk_notes: [],
      };
    }
    case 'slow_update': {
      const comparison = after(user, '## Same tasks, before and after');
      const persistent = after(comparison, '### Persistent failures').split('### Improved')[0] || comparison;
      const curr = section(user, '## Skill at the end of this epoch');
      const topics: string[] = [];
      for (const q of questionsIn(persistent))
        for (const t of q.topics) if (!curr.includes(ruleKey(t)) && !topics.includes(t)) topics.push(t);
      const content = topics.length
        ? topics.slice(0, 3).map(ruleText).join('\n')
        : '- Check every specimen question against the rules above before answering.';
      return { reasoning: `persistent failures on ${topics.join(', ') || 'nothing'}`, slow_update_content: content };
    }
    case 'meta_skill':
      return {
        reasoning: 'rules per topic helped; blanket rules hurt',
        meta_skill_content:
          'Prefer one precise rule per topic. Avoid blanket answer rules such as answering with a fixed word.',
      };
    case 'judge': {
      const expected = section(user, '## Expected answer').trim();
      const response = after(user, '## Response to grade');
      const got = /<answer>([\s\S]*?)<\/answer>/i.exec(response)?.[1]?.trim() ?? response.trim();
      const pass = got.toLowerCase() === expected.toLowerCase();
      return { pass, score: pass ? 1 : 0, reason: pass ? 'matches' : `expected ${expected} but got ${got}` };
    }
    case 'feedback_edits': {
      // Each "- " line of the feedback that the skill does not state yet becomes a rule.
      const feedback = section(user, '## Feedback');
      const lines = feedback
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l.startsWith('- ') && !skill.includes(l));
      return {
        reasoning: lines.length ? 'adds the rules the feedback asks for' : 'the skill already says this',
        edits: lines
          .slice(0, budget)
          .map((content) => ({ op: 'append', target: '', content, support_count: 1, source_type: 'failure' })),
      };
    }
    default:
      return { reasoning: `unknown stage ${stage}` };
  }
}
