/**
 * Dataset import: parse the file once (`stageDatasetText`), then build it under any mapping,
 * split ratio and seed as often as the user changes them (`buildStagedDataset`), without
 * parsing again. `importDatasetText` does both in one call.
 */
import { csvHeader, guessFormat, parseDatasetText } from './dataset-parse';
import { detectMapping, sampleFieldNames } from './dataset-mapping';
import { buildDataset } from './dataset-build';
import { AGENT_FIELDS } from '../agent/agent-item';
import type { Dataset, DatasetFormat, DatasetProblem, FieldMapping, RawRow } from './dataset-types';

export interface ParseOptions {
  fileName?: string;
  format?: 'json' | 'jsonl' | 'csv';
}

export interface BuildChoices {
  /** Overrides of the detected mapping; an empty string unmaps a role. */
  mapping?: Partial<Record<keyof FieldMapping, string>>;
  ratio?: [number, number, number];
  splitSeed?: number;
  /** Items may lack an expected answer: an environment module scores them (issue #30). */
  answersOptional?: boolean;
  /** The host's look at a workspace path (the runner's: is it there, inside the dataset's folder?). */
  workspaceProblem?: (path: string) => string | null;
}

export type ImportOptions = ParseOptions & BuildChoices;

/** A parsed file, ready to be built under any choices. */
export interface StagedDataset {
  format: DatasetFormat;
  rows: readonly RawRow[];
  fieldNames: string[];
  detected: FieldMapping;
  /** A JSON file's dataset-level `tools`, unread (issue #30). */
  tools?: unknown;
}

export type ImportResult =
  | { ok: true; dataset: Dataset; fieldNames: string[] }
  | {
      ok: false;
      problems: DatasetProblem[];
      truncated: boolean;
      format?: DatasetFormat;
      fieldNames: string[];
      mapping?: FieldMapping;
    };

export type StageResult = { ok: true; staged: StagedDataset } | (Extract<ImportResult, { ok: false }> & { ok: false });

export function stageDatasetText(text: string, opts: ParseOptions = {}): StageResult {
  const parsed = parseDatasetText(text, opts);
  if (!parsed.ok)
    return { ok: false, problems: parsed.problems, truncated: parsed.truncated, format: parsed.format, fieldNames: [] };
  const fieldNames = sampleFieldNames(parsed.rows);
  return {
    ok: true,
    staged: {
      format: parsed.format,
      rows: parsed.rows,
      fieldNames,
      detected: detectMapping(fieldNames),
      ...(parsed.tools !== undefined ? { tools: parsed.tools } : {}),
    },
  };
}

export function buildStagedDataset(staged: StagedDataset, choices: BuildChoices = {}): ImportResult {
  const { format, fieldNames } = staged;
  const mapping: FieldMapping = { ...staged.detected };
  const unknown: DatasetProblem[] = [];
  for (const [role, field] of Object.entries(choices.mapping ?? {}) as [keyof FieldMapping, string][]) {
    if (field && !fieldNames.includes(field)) {
      unknown.push({
        where: '',
        field,
        message: `is mapped to ${role} but no item has this field (fields: ${fieldNames.slice(0, 20).join(', ')})`,
      });
    }
    if (field) mapping[role] = field;
    else delete mapping[role];
  }
  if (unknown.length) return { ok: false, problems: unknown, truncated: false, format, fieldNames, mapping };
  if (format === 'csv' && !csvHeaderWorks(mapping, fieldNames, choices)) return csvHeaderProblem(fieldNames);
  const built = buildDataset(staged.rows, {
    mapping,
    format,
    ratio: choices.ratio,
    splitSeed: choices.splitSeed,
    tools: staged.tools,
    answersOptional: choices.answersOptional,
    ...(choices.workspaceProblem ? { workspaceProblem: choices.workspaceProblem } : {}),
  });
  if (!built.ok)
    return { ok: false, problems: built.problems, truncated: built.truncated, format, fieldNames, mapping };
  return { ok: true, dataset: built.dataset, fieldNames };
}

export function importDatasetText(text: string, opts: ImportOptions = {}): ImportResult {
  // A CSV header that maps to no question or answer fails before the whole file is parsed.
  const early = checkCsvHeader(text, opts);
  if (early) return early;
  const staged = stageDatasetText(text, opts);
  return staged.ok ? buildStagedDataset(staged.staged, opts) : staged;
}

function checkCsvHeader(text: string, opts: ImportOptions): ImportResult | null {
  if ((opts.format ?? guessFormat(text, opts.fileName)) !== 'csv') return null;
  const header = csvHeader(text);
  if (header.length < 2) return null; // parseDatasetText explains this case
  return csvHeaderWorks({ ...detectMapping(header), ...opts.mapping }, header, opts) ? null : csvHeaderProblem(header);
}

/** A CSV needs a question column and an answer column — or an agent's columns that score an item without one. */
function csvHeaderWorks(mapping: FieldMapping, header: readonly string[], o: { answersOptional?: boolean }): boolean {
  const agentic = o.answersOptional || header.some((h) => (Object.values(AGENT_FIELDS) as string[]).includes(h));
  return Boolean(mapping.question && (mapping.expected || mapping.correctChoice || agentic));
}

function csvHeaderProblem(header: string[]): ImportResult {
  return {
    ok: false,
    truncated: false,
    format: 'csv',
    fieldNames: header,
    problems: [
      {
        where: 'row 1',
        message: `the header has no question and answer columns (columns found: ${header
          .slice(0, 12)
          .map((h) => JSON.stringify(h.slice(0, 30)))
          .join(', ')})`,
      },
    ],
  };
}
