/** Dataset import in one call: parse the file, detect (or take) the mapping, validate, split. */
import { csvHeader, guessFormat, parseDatasetText } from './dataset-parse';
import { detectMapping, sampleFieldNames } from './dataset-mapping';
import { buildDataset } from './dataset-build';
import type { Dataset, DatasetFormat, DatasetProblem, FieldMapping } from './dataset-types';

export interface ImportOptions {
  fileName?: string;
  format?: 'json' | 'jsonl' | 'csv';
  /** Overrides of the detected mapping; an empty string unmaps a role. */
  mapping?: Partial<Record<keyof FieldMapping, string>>;
  ratio?: [number, number, number];
  splitSeed?: number;
}

export type ImportResult =
  | { ok: true; dataset: Dataset; fieldNames: string[] }
  | { ok: false; problems: DatasetProblem[]; truncated: boolean; format?: DatasetFormat; fieldNames: string[]; mapping?: FieldMapping };

export function importDatasetText(text: string, opts: ImportOptions = {}): ImportResult {
  // A CSV header that maps to no question or answer fails before the whole file is parsed.
  const early = checkCsvHeader(text, opts);
  if (early) return early;
  const parsed = parseDatasetText(text, { fileName: opts.fileName, format: opts.format });
  if (!parsed.ok) return { ok: false, problems: parsed.problems, truncated: parsed.truncated, format: parsed.format, fieldNames: [] };
  const fieldNames = sampleFieldNames(parsed.rows);
  const mapping: FieldMapping = { ...detectMapping(fieldNames) };
  const unknown: DatasetProblem[] = [];
  for (const [role, field] of Object.entries(opts.mapping ?? {}) as [keyof FieldMapping, string][]) {
    if (field && !fieldNames.includes(field)) {
      unknown.push({ where: '', field, message: `is mapped to ${role} but no item has this field (fields: ${fieldNames.slice(0, 20).join(', ')})` });
    }
    if (field) mapping[role] = field;
    else delete mapping[role];
  }
  if (unknown.length) return { ok: false, problems: unknown, truncated: false, format: parsed.format, fieldNames, mapping };
  const built = buildDataset(parsed.rows, { mapping, format: parsed.format, ratio: opts.ratio, splitSeed: opts.splitSeed });
  if (!built.ok) return { ok: false, problems: built.problems, truncated: built.truncated, format: parsed.format, fieldNames, mapping };
  return { ok: true, dataset: built.dataset, fieldNames };
}

function checkCsvHeader(text: string, opts: ImportOptions): ImportResult | null {
  if ((opts.format ?? guessFormat(text, opts.fileName)) !== 'csv') return null;
  const header = csvHeader(text);
  if (header.length < 2) return null; // parseDatasetText explains this case
  const mapping = { ...detectMapping(header), ...opts.mapping };
  if ((mapping.question || opts.mapping?.question) && (mapping.expected || mapping.correctChoice)) return null;
  return {
    ok: false,
    truncated: false,
    format: 'csv',
    fieldNames: header,
    problems: [
      {
        where: 'row 1',
        message: `the header has no question and answer columns (columns found: ${header.slice(0, 12).map((h) => JSON.stringify(h.slice(0, 30))).join(', ')})`,
      },
    ],
  };
}
