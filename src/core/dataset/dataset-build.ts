/**
 * From raw records to a validated, split dataset (DESIGN §3.1). Every problem is reported with
 * its row and field (the first MAX_PROBLEMS of them); a dataset with any problem is refused
 * whole, never half-imported.
 */
import { contentId } from '../basics/hash';
import { normaliseLabel, type Choice } from '../scoring/scoring';
import { MAX_PROBLEMS, SPLIT_ALIASES, describe } from './dataset-parse';
import { splitByRatio } from './dataset-split';
import { AGENT_FIELDS, hasToolChecks, readAgentFields, type AgentItemSpec } from '../agent/agent-item';
import { readToolSpecs, type ToolSpec } from '../agent/tool-spec';
import { needsRunner } from '../agent/workspace-task';
import type {
  Dataset,
  DatasetFormat,
  DatasetItem,
  DatasetProblem,
  FieldMapping,
  RawRow,
  SplitName,
} from './dataset-types';

export const SMALL_VAL_WARNING_BELOW = 20;
export const DEFAULT_SPLIT_RATIO: [number, number, number] = [2, 1, 7];
export const DEFAULT_SPLIT_SEED = 42;

export interface BuildOptions {
  mapping: FieldMapping;
  format: DatasetFormat;
  ratio?: [number, number, number];
  splitSeed?: number;
  /** The file's dataset-level `tools` (issue #30), unread. */
  tools?: unknown;
  /** Items may lack an expected answer (an environment scores them). */
  answersOptional?: boolean;
  /** The host's look at a workspace path (the runner's: is it there, inside the dataset's folder?). */
  workspaceProblem?: (path: string) => string | null;
}

export type BuildOutcome =
  { ok: true; dataset: Dataset } | { ok: false; problems: DatasetProblem[]; truncated: boolean };

class ProblemList {
  readonly items: DatasetProblem[] = [];
  truncated = false;
  add(where: string, field: string | undefined, message: string): void {
    if (this.items.length < MAX_PROBLEMS) this.items.push({ where, ...(field ? { field } : {}), message });
    else this.truncated = true;
  }
  get full(): boolean {
    return this.items.length >= MAX_PROBLEMS;
  }
}

const LABELS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** Text from a scalar; null for anything else. */
function asText(v: unknown): string | null {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  if (typeof v === 'boolean') return String(v);
  return null;
}

/** A list written as JSON inside a text cell (CSV), e.g. '["a", "b"]'. */
function maybeJsonList(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  const t = v.trim();
  if (!t.startsWith('[') && !t.startsWith('{')) return v;
  try {
    return JSON.parse(t);
  } catch {
    return v;
  }
}

function readAnswers(raw: unknown): { answers?: string[]; error?: string } {
  const v = maybeJsonList(raw);
  if (v === undefined || v === null) return { error: 'is missing' };
  if (Array.isArray(v)) {
    const texts = v.map(asText);
    const bad = texts.findIndex((t) => t === null);
    if (bad >= 0) return { error: `item ${bad + 1} of the list must be text, got ${describe(v[bad])}` };
    const answers = (texts as string[]).filter((t) => t.trim() !== '');
    return answers.length ? { answers } : { error: 'is an empty list' };
  }
  if (typeof v === 'object') {
    // DocVQA-style dict forms: {text: […]} or {answers: […]}.
    const o = v as Record<string, unknown>;
    const inner = o.text ?? o.answers ?? o.answer ?? o.label;
    return inner === undefined ? { error: 'must be text or a list of texts, got an object' } : readAnswers(inner);
  }
  const t = asText(v);
  if (t === null || t.trim() === '') return { error: 'is empty' };
  return { answers: [t] };
}

function readChoices(raw: unknown): { choices?: Choice[]; error?: string } {
  const v = maybeJsonList(raw);
  if (Array.isArray(v)) {
    if (v.length < 2) return { error: 'needs at least two choices' };
    if (v.length > LABELS.length) return { error: `has more than ${LABELS.length} choices` };
    const choices: Choice[] = [];
    for (let i = 0; i < v.length; i++) {
      const c = v[i];
      const text = asText(c);
      if (text !== null) choices.push({ label: LABELS[i], text });
      else if (c && typeof c === 'object' && asText((c as Record<string, unknown>).text) !== null) {
        const o = c as Record<string, unknown>;
        choices.push({ label: normaliseLabel(asText(o.label) ?? LABELS[i]), text: asText(o.text)! });
      } else return { error: `choice ${i + 1} must be text or {label, text}, got ${describe(c)}` };
    }
    const labels = choices.map((c) => c.label);
    if (new Set(labels).size !== labels.length) return { error: 'has duplicate labels' };
    return { choices };
  }
  if (v && typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>);
    if (entries.length < 2 || entries.some(([, t]) => asText(t) === null)) {
      return { error: 'must be a list of choices or an object of label → text' };
    }
    return { choices: entries.map(([label, text]) => ({ label: normaliseLabel(label), text: asText(text)! })) };
  }
  return { error: `must be a list of choices, got ${describe(v)}` };
}

function readCorrectChoice(raw: unknown, choices: Choice[] | undefined): { label?: string; error?: string } {
  const v = maybeJsonList(raw);
  const given =
    v && typeof v === 'object' && !Array.isArray(v)
      ? (asText((v as Record<string, unknown>).label) ?? asText((v as Record<string, unknown>).text))
      : asText(v);
  if (given === null || given.trim() === '') return { error: 'is missing or empty' };
  if (!choices) return { label: normaliseLabel(given) };
  const asLabel = normaliseLabel(given);
  if (choices.some((c) => c.label === asLabel)) return { label: asLabel };
  const byText = choices.find((c) => c.text.trim().toLowerCase() === given.trim().toLowerCase());
  if (byText) return { label: byText.label };
  return {
    error: `"${given}" is neither a choice label (${choices.map((c) => c.label).join(', ')}) nor a choice text`,
  };
}

const present = (v: unknown) => v !== undefined && v !== null && v !== '';

/** Normalise one record with the mapping; problems go to the list. */
function buildItem(
  row: RawRow,
  m: FieldMapping,
  problems: ProblemList,
  o: Pick<BuildOptions, 'answersOptional' | 'workspaceProblem'> = {},
): DatasetItem | null {
  const r = row.record;
  const before = problems.items.length + (problems.truncated ? 1 : 0);
  const add = (field: string | undefined, message: string) => problems.add(row.where, field, message);
  const agent: AgentItemSpec = readAgentFields(r, add, { workspaceProblem: o.workspaceProblem });
  // An agent's item that checks its calls (or is scored by its environment) needs no expected answer.
  // A row with a check (even one with a problem, named already) is scored by it, not by an answer.
  const noAnswerNeeded = o.answersOptional || hasToolChecks(agent) || present(r[AGENT_FIELDS.check]);

  const qRaw = m.question ? r[m.question] : undefined;
  const question = asText(qRaw);
  if (qRaw === undefined || qRaw === null || (typeof qRaw === 'string' && !qRaw.trim()))
    add(m.question, 'the question is missing or empty');
  else if (question === null) add(m.question, `the question must be text, got ${describe(qRaw)}`);

  let choices: Choice[] | undefined;
  if (m.choices && r[m.choices] !== undefined && r[m.choices] !== null && r[m.choices] !== '') {
    const c = readChoices(r[m.choices]);
    if (c.error) add(m.choices, `choices ${c.error}`);
    choices = c.choices;
  }

  let correctChoice: string | undefined;
  if (m.correctChoice && r[m.correctChoice] !== undefined && r[m.correctChoice] !== '') {
    const c = readCorrectChoice(r[m.correctChoice], choices);
    if (c.error) add(m.correctChoice, `the correct choice ${c.error}`);
    correctChoice = c.label;
  }

  let answers: string[] | undefined;
  if (m.expected && r[m.expected] !== undefined) {
    const a = readAnswers(r[m.expected]);
    if (a.error) add(m.expected, `the expected answer ${a.error}`);
    answers = a.answers;
    // With choices, an expected label or choice text doubles as the correct choice.
    if (answers && choices && !correctChoice) {
      const c = readCorrectChoice(answers[0], choices);
      if (c.label) correctChoice = c.label;
    }
  } else if (correctChoice) {
    answers = [correctChoice];
  } else if (noAnswerNeeded) {
    answers = [];
  } else {
    add(m.expected ?? m.correctChoice, 'the expected answer is missing');
  }
  if (correctChoice && answers && choices) answers = [correctChoice];

  let context: string | undefined;
  if (m.context && r[m.context] !== undefined && r[m.context] !== null) {
    const c = r[m.context];
    if (Array.isArray(c) && c.every((x) => typeof x === 'string')) context = c.join('\n[DOC] ');
    else if (asText(c) !== null) context = asText(c)!;
    else add(m.context, `the context must be text or a list of texts, got ${describe(c)}`);
  }

  let split = row.split;
  if (m.split && r[m.split] !== undefined && r[m.split] !== null && r[m.split] !== '') {
    const s = SPLIT_ALIASES[String(r[m.split]).trim().toLowerCase()];
    if (!s) add(m.split, `unknown split "${String(r[m.split])}" (use train, val or test)`);
    else if (row.split && s !== row.split) add(m.split, `says "${s}" but the item is listed under ${row.split}`);
    else split = s;
  }

  const optionalText = (field: string | undefined, label: string): string | undefined => {
    if (!field || r[field] === undefined || r[field] === null || r[field] === '') return undefined;
    const t = asText(r[field]);
    if (t === null) add(field, `${label} must be text, got ${describe(r[field])}`);
    return t ?? undefined;
  };
  const taskType = optionalText(m.taskType, 'the task type');
  const rubric = optionalText(m.rubric, 'the rubric');

  let id: string | undefined;
  if (m.id && r[m.id] !== undefined && r[m.id] !== null && r[m.id] !== '') {
    const t = asText(r[m.id]);
    if (t === null || !t.trim()) add(m.id, `the id must be text or a number, got ${describe(r[m.id])}`);
    else id = t.trim();
  }

  if (problems.items.length + (problems.truncated ? 1 : 0) > before || question === null || !answers) return null;
  return {
    id: id ?? `h${contentId(`${question}\u0000${answers.join('\u0001')}\u0000${context ?? ''}${agentIdPart(agent)}`)}`,
    question,
    answers,
    ...(context !== undefined ? { context } : {}),
    ...(choices ? { choices } : {}),
    ...(correctChoice ? { correctChoice } : {}),
    ...(split ? { split } : {}),
    ...(taskType ? { taskType } : {}),
    ...(rubric ? { rubric } : {}),
    ...(Object.keys(agent).length ? { agent } : {}),
    fields: r,
  };
}

/** An agent's item differs by its tools and checks too (a single-call item's id stays as it was). */
function agentIdPart(agent: AgentItemSpec): string {
  return Object.keys(agent).length ? `\u0000${JSON.stringify(agent)}` : '';
}

/** A dataset's own tools: read, or its problems named under the field `tools`. */
function readDatasetTools(raw: unknown, problems: ProblemList): ToolSpec[] | undefined {
  if (raw === undefined) return undefined;
  const r = readToolSpecs(raw);
  for (const p of r.problems) problems.add('', 'tools', p);
  return r.tools;
}

/** Validate every row, check ids, and split. */
export function buildDataset(rows: readonly RawRow[], opts: BuildOptions): BuildOutcome {
  const m = opts.mapping;
  const problems = new ProblemList();
  if (!m.question)
    problems.add(
      '',
      undefined,
      'no field is mapped to the question (expected one of question, input, prompt, query, instruction, task)',
    );
  const agentic =
    opts.tools !== undefined || rows.some((r) => Object.values(AGENT_FIELDS).some((f) => r.record[f] !== undefined));
  if (!m.expected && !m.correctChoice && !opts.answersOptional && !agentic) {
    problems.add(
      '',
      undefined,
      'no field is mapped to the expected answer (expected one of answers, answer, expected, output, target, ground_truth, label, correct_choice)',
    );
  }
  const tools = readDatasetTools(opts.tools, problems);
  if (problems.items.length) return { ok: false, problems: problems.items, truncated: false };

  const items: (DatasetItem | null)[] = [];
  for (const row of rows) {
    items.push(buildItem(row, m, problems, opts));
    if (problems.full && problems.truncated) break;
  }

  const firstRow = new Map<string, string>();
  items.forEach((item, i) => {
    if (!item) return;
    const prev = firstRow.get(item.id);
    if (prev !== undefined) {
      problems.add(
        rows[i].where,
        m.id,
        `duplicate id "${item.id}" (also used by ${prev})${m.id ? '' : ' — these rows have the same content'}`,
      );
    } else firstRow.set(item.id, rows[i].where);
  });

  const valid = items.filter((x): x is DatasetItem => x !== null);
  const withSplit = valid.filter((x) => x.split).length;
  if (withSplit > 0 && withSplit < valid.length) {
    // `items` runs beside `rows` (a bad row leaves a null), so its index names the row.
    items.forEach((item, i) => {
      if (item && !item.split) problems.add(rows[i].where, m.split, 'the split is missing (other rows have one)');
    });
  }
  if (problems.items.length || problems.truncated)
    return { ok: false, problems: problems.items, truncated: problems.truncated };

  const ratio = opts.ratio ?? DEFAULT_SPLIT_RATIO;
  const splitSeed = opts.splitSeed ?? DEFAULT_SPLIT_SEED;
  const splitSource = withSplit > 0 ? 'file' : 'ratio';
  let ordered: DatasetItem[];
  if (splitSource === 'ratio') {
    const [train, val, test] = splitByRatio(valid, ratio, splitSeed);
    ordered = [
      ...train.map((x) => ({ ...x, split: 'train' as const })),
      ...val.map((x) => ({ ...x, split: 'val' as const })),
      ...test.map((x) => ({ ...x, split: 'test' as const })),
    ];
  } else ordered = valid;

  const splits: Record<SplitName, string[]> = { train: [], val: [], test: [] };
  for (const item of ordered) splits[item.split!].push(item.id);
  const warnings: string[] = [];
  const workspaceItems = valid.filter((x) => needsRunner(x.agent)).length;
  if (workspaceItems)
    warnings.push(
      `${workspaceItems} item(s) carry a workspace or a check command: only the headless runner (skillwright) with an agent CLI target can run them — this page cannot start programs.`,
    );
  if (splits.train.length === 0) warnings.push('The train split is empty: training needs at least one train item.');
  if (splits.val.length === 0) warnings.push('The validation split is empty: the gate needs validation items.');
  else if (splits.val.length < SMALL_VAL_WARNING_BELOW) {
    warnings.push(
      `The validation split has only ${splits.val.length} items: a strict gate on a small validation set rarely moves. Use more items, or the soft or mixed gate metric.`,
    );
  }
  return {
    ok: true,
    dataset: {
      items: ordered,
      splits,
      mapping: m,
      format: opts.format,
      splitSource,
      ratio,
      splitSeed,
      warnings,
      ...(tools?.length ? { tools } : {}),
    },
  };
}
