/** Shapes of an imported dataset (DESIGN §3.1, algorithm doc §1.1). */
import type { Choice } from '../scoring/scoring';
import type { AgentItemSpec } from '../agent/agent-item';
import type { ToolSpec } from '../agent/tool-spec';

export const SPLITS = ['train', 'val', 'test'] as const;
export type SplitName = (typeof SPLITS)[number];

/** One task, normalised. `fields` keeps the original record for templates. */
export interface DatasetItem {
  id: string;
  question: string;
  /** Accepted answers; any one may match. For MCQ, the correct label. */
  answers: string[];
  context?: string;
  choices?: Choice[];
  correctChoice?: string;
  split?: SplitName;
  taskType?: string;
  rubric?: string;
  /** Agentic fields: the item's own tools, declared tool results, expected and forbidden calls. */
  agent?: AgentItemSpec;
  fields: Record<string, unknown>;
}

/** Which source field fills each role. Unset roles are absent from the data. */
export interface FieldMapping {
  id?: string;
  question?: string;
  expected?: string;
  context?: string;
  choices?: string;
  correctChoice?: string;
  split?: string;
  taskType?: string;
  rubric?: string;
}

export type MappingRole = keyof FieldMapping;

/** A problem found in a file, located so the user can fix it. */
export interface DatasetProblem {
  /** Where, e.g. "row 3", "train row 2", "line 14". Empty for file-level problems. */
  where: string;
  field?: string;
  message: string;
}

export type DatasetFormat = 'json' | 'json-splits' | 'jsonl' | 'csv';

/** A record as read from the file, with where it came from. */
export interface RawRow {
  record: Record<string, unknown>;
  where: string;
  /** Split given by the file's structure ({train, val, test} objects). */
  split?: SplitName;
}

export interface Dataset {
  items: DatasetItem[];
  splits: Record<SplitName, string[]>;
  mapping: FieldMapping;
  format: DatasetFormat;
  splitSource: 'file' | 'ratio';
  ratio: [number, number, number];
  splitSeed: number;
  warnings: string[];
  /** Tools every item is offered (a JSON file's dataset-level `tools`): its rollouts are agentic. */
  tools?: ToolSpec[];
}

export function formatProblem(p: DatasetProblem): string {
  const loc = [p.where, p.field ? `field "${p.field}"` : ''].filter(Boolean).join(', ');
  return loc ? `${loc[0].toUpperCase()}${loc.slice(1)}: ${p.message}` : p.message;
}
