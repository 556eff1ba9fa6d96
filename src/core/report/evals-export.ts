/**
 * A run's dataset as an Agent Skills `evals/evals.json` (issue #23 item 2): the file
 * skill-creator writes and skill catalogs read — `{skill_name, evals: [{id, prompt,
 * expected_output, files, assertions}]}` — so the cases a skill was trained on travel with it.
 * It reads back through the dataset importer (core/dataset/dataset-parse.ts) to the same questions,
 * answers and rubrics. The run's split and its lift on test go in `metadata`, which readers
 * of the format ignore; with several tries per test item, so do each skill's pass^k and flip rate.
 */
import type { LiftInterval } from '../verdict/lift';
import type { PassK } from '../verdict/pass-k';
import type { DatasetItem, SplitName } from '../dataset/dataset-types';
import { skillName } from '../skill/skill-file';
import type { ToolSpec } from '../agent/tool-spec';
import { AGENT_FIELDS } from '../agent/agent-item';

export interface EvalCase {
  id: string;
  prompt: string;
  /** Absent for an agent's case checked by its calls alone. */
  expected_output?: string;
  files: string[];
  assertions: string[];
  /** An agent's case (issue #30): its own tools, declared results, expected and forbidden calls, as written. */
  tools?: unknown;
  tool_results?: unknown;
  expected_tool_calls?: unknown;
  forbidden_tool_calls?: unknown;
}

export interface EvalsFile {
  skill_name: string;
  /** The tools every case is offered (OpenAI function definitions), when the run's agents had some. */
  tools?: { type: 'function'; function: ToolSpec }[];
  evals: EvalCase[];
  metadata: {
    exported_by: 'Skillwright';
    run?: string;
    splits: Partial<Record<SplitName, string[]>>;
    /** Pass rate on test of each skill the run measured (best, initial, none…). */
    test?: Record<string, number>;
    /** With several tries per test item (issue #43): each skill's pass^1, pass^k and item flip rate. */
    passK?: Record<string, PassK>;
    /** The best skill's lift over the starting skill on test, with the target's noise taken out. */
    lift?: { estimate: number; interval: [number, number]; level: number; n: number; uncertain: boolean };
  };
}

/** The question as the agent would be asked it: its context and choices included. */
function promptOf(item: DatasetItem): string {
  const parts = [item.context ? `${item.context}\n\n${item.question}` : item.question];
  if (item.choices?.length) parts.push(item.choices.map((c) => `${c.label}. ${c.text}`).join('\n'));
  return parts.join('\n\n');
}

function filesOf(item: DatasetItem): string[] {
  const f = item.fields.files;
  return Array.isArray(f) ? f.map(String) : typeof f === 'string' && f ? [f] : [];
}

/** The rubric's lines (one assertion each, list markers dropped). */
function assertionsOf(item: DatasetItem): string[] {
  return (item.rubric ?? '')
    .split('\n')
    .map((l) => l.replace(/^\s*(?:[-*•]|\d+[.)])\s+/, '').trim())
    .filter(Boolean);
}

export function toEvalsFile(a: {
  skillName: string;
  items: readonly DatasetItem[];
  splits?: Partial<Record<SplitName, readonly string[]>>;
  runName?: string;
  tests?: { skill: string; hard: number; passK?: PassK }[];
  lift?: LiftInterval;
  /** The dataset's own tools (an agent's run). */
  tools?: readonly ToolSpec[];
}): EvalsFile {
  const evals = a.items.map((item) => {
    // MCQ: the correct choice's label, as the importer reads it back.
    const expected = item.correctChoice ?? item.answers[0];
    const agentFields = Object.fromEntries(
      Object.values(AGENT_FIELDS)
        .filter((f) => item.agent && item.fields[f] !== undefined)
        .map((f) => [f, item.fields[f]]),
    );
    return {
      id: item.id,
      prompt: promptOf(item),
      ...(expected !== undefined || !item.agent ? { expected_output: expected ?? '' } : {}),
      files: filesOf(item),
      assertions: assertionsOf(item),
      ...agentFields,
    };
  });
  const splits = Object.fromEntries(Object.entries(a.splits ?? {}).map(([k, ids]) => [k, [...(ids ?? [])]]));
  const l = a.lift;
  return {
    skill_name: skillName(a.skillName),
    ...(a.tools?.length ? { tools: a.tools.map((t) => ({ type: 'function' as const, function: t })) } : {}),
    evals,
    metadata: {
      exported_by: 'Skillwright',
      ...(a.runName ? { run: a.runName } : {}),
      splits,
      ...(a.tests?.length ? { test: Object.fromEntries(a.tests.map((t) => [t.skill, t.hard])) } : {}),
      ...(a.tests?.some((t) => t.passK)
        ? { passK: Object.fromEntries(a.tests.flatMap((t) => (t.passK ? [[t.skill, { ...t.passK }]] : []))) }
        : {}),
      ...(l
        ? { lift: { estimate: l.estimate, interval: l.interval, level: l.level, n: l.n, uncertain: l.uncertain } }
        : {}),
    },
  };
}
