/**
 * Reading a dataset file into records: a JSON array, a {train, val, test} object (with the
 * aliases valid/validation/dev/selection for val), JSONL, or CSV with a header row.
 * Problems are collected, never thrown; at most MAX_PROBLEMS are listed.
 */
import Papa from 'papaparse';
import { jsonErrorOffset } from '../basics/json-error-offset';
import type { DatasetFormat, DatasetProblem, RawRow, SplitName } from './dataset-types';

export const MAX_PROBLEMS = 100;
export const MAX_DATASET_BYTES = 100 * 1024 * 1024;

export const SPLIT_ALIASES: Record<string, SplitName> = {
  train: 'train',
  training: 'train',
  val: 'val',
  valid: 'val',
  validation: 'val',
  dev: 'val',
  selection: 'val',
  valid_seen: 'val',
  test: 'test',
  valid_unseen: 'test',
};

export type ParseOutcome =
  | {
      ok: true;
      format: DatasetFormat;
      rows: RawRow[];
      /** A JSON object's dataset-level `tools`, unread. */ tools?: unknown;
    }
  | { ok: false; format?: DatasetFormat; problems: DatasetProblem[]; truncated: boolean };

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function lineCol(text: string, pos: number): string {
  let line = 1;
  let last = -1;
  for (let i = text.indexOf('\n'); i >= 0 && i < pos; i = text.indexOf('\n', i + 1)) {
    line++;
    last = i;
  }
  return `line ${line}, column ${pos - last}`;
}

function jsonError(text: string, e: unknown): DatasetProblem {
  const msg = (e instanceof Error ? e.message : String(e)).replace(/\s*\(line \d+ column \d+\)/, '');
  const pos = jsonErrorOffset(text);
  return {
    where: pos >= 0 ? lineCol(text, pos) : '',
    message: `not valid JSON (${msg.length > 120 ? `${msg.slice(0, 120)}…` : msg})`,
  };
}

export function guessFormat(text: string, fileName?: string): 'json' | 'jsonl' | 'csv' {
  const ext = fileName?.toLowerCase().match(/\.([a-z]+)$/)?.[1];
  if (ext === 'jsonl' || ext === 'ndjson') return 'jsonl';
  if (ext === 'csv' || ext === 'tsv') return 'csv';
  if (ext === 'json') return 'json';
  const first = text.trimStart()[0];
  if (first === '[') return 'json';
  if (first === '{') {
    // One object per line is JSONL; one object over many lines is JSON.
    const firstLine = text.trimStart().split('\n', 1)[0].trim();
    return firstLine.endsWith('}') && text.trim().includes('\n') ? 'jsonl' : 'json';
  }
  return 'csv';
}

export function parseDatasetText(
  text: string,
  opts: { fileName?: string; format?: 'json' | 'jsonl' | 'csv' } = {},
): ParseOutcome {
  if (text.length > MAX_DATASET_BYTES) {
    return {
      ok: false,
      problems: [{ where: '', message: `the file is larger than ${MAX_DATASET_BYTES / 1024 / 1024} MB` }],
      truncated: false,
    };
  }
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text; // drop a byte-order mark
  if (!body.trim()) return { ok: false, problems: [{ where: '', message: 'the file is empty' }], truncated: false };
  const format = opts.format ?? guessFormat(body, opts.fileName);
  if (format === 'jsonl') return parseJsonl(body);
  if (format === 'csv') return parseCsv(body);
  return parseJson(body);
}

function parseJson(text: string): ParseOutcome {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    return { ok: false, format: 'json', problems: [jsonError(text, e)], truncated: false };
  }
  // Tools for every item (issue #30): {"tools": [...], "items": [...]}, or beside train / val / test or evals.
  if (isRecord(data) && 'tools' in data) {
    const { tools, ...rest } = data;
    const list = ['items', 'examples', 'data'].find((k) => Array.isArray(rest[k]));
    const inner = parseJsonValue(list ? rest[list] : rest);
    return inner.ok ? { ...inner, tools } : inner;
  }
  return parseJsonValue(data);
}

function parseJsonValue(data: unknown): ParseOutcome {
  if (Array.isArray(data))
    return collect(
      'json',
      data.map((record, i) => ({ record, where: `row ${i + 1}` })),
    );
  // An Agent Skills evals/evals.json (issue #23): {skill_name, evals: [{id, prompt, expected_output, assertions}]}.
  if (isRecord(data) && Array.isArray(data.evals)) {
    return collect(
      'json',
      data.evals.map((record, i) => ({ record: isRecord(record) ? fromEval(record) : record, where: `eval ${i + 1}` })),
    );
  }
  if (isRecord(data)) {
    const rows: { record: unknown; where: string; split: SplitName }[] = [];
    const unknownKeys: string[] = [];
    for (const [key, value] of Object.entries(data)) {
      const split = SPLIT_ALIASES[key.toLowerCase()];
      if (!split) {
        unknownKeys.push(key);
        continue;
      }
      if (!Array.isArray(value)) {
        return {
          ok: false,
          format: 'json-splits',
          problems: [{ where: '', field: key, message: 'must be a list of items' }],
          truncated: false,
        };
      }
      value.forEach((record, i) => rows.push({ record, where: `${split} row ${i + 1}`, split }));
    }
    if (rows.length === 0 && unknownKeys.length) {
      return {
        ok: false,
        format: 'json',
        problems: [
          {
            where: '',
            message: `expected a list of items or an object with train / val / test lists, found keys ${unknownKeys.slice(0, 10).join(', ')}`,
          },
        ],
        truncated: false,
      };
    }
    return collect('json-splits', rows);
  }
  return {
    ok: false,
    format: 'json',
    problems: [{ where: '', message: 'expected a list of items or an object with train / val / test lists' }],
    truncated: false,
  };
}

/**
 * One eval as a dataset row: its prompt is the question, its expected output the answer, and its
 * assertions (strings, or objects with a text or description) the judge's rubric, one per line.
 * Its files stay as a field of the row.
 */
function fromEval(e: Record<string, unknown>): Record<string, unknown> {
  const assertions = Array.isArray(e.assertions) ? e.assertions : [];
  const text = (a: unknown) =>
    typeof a === 'string'
      ? a
      : isRecord(a)
        ? String(a.text ?? a.description ?? a.assertion ?? JSON.stringify(a))
        : String(a);
  const rubric = assertions.map((a) => `- ${text(a)}`).join('\n');
  const { assertions: _a, ...rest } = e;
  return { ...rest, ...(e.id !== undefined ? { id: String(e.id) } : {}), ...(rubric ? { rubric } : {}) };
}

function collect(format: DatasetFormat, rows: { record: unknown; where: string; split?: SplitName }[]): ParseOutcome {
  const problems: DatasetProblem[] = [];
  const good: RawRow[] = [];
  for (const r of rows) {
    if (isRecord(r.record)) good.push(r as RawRow);
    else if (problems.length < MAX_PROBLEMS)
      problems.push({ where: r.where, message: `expected an object, got ${describe(r.record)}` });
    else return { ok: false, format, problems, truncated: true };
  }
  if (problems.length) return { ok: false, format, problems, truncated: false };
  if (good.length === 0)
    return { ok: false, format, problems: [{ where: '', message: 'the file holds no items' }], truncated: false };
  return { ok: true, format, rows: good };
}

export function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'string') return v.length > 40 ? `text "${v.slice(0, 40)}…"` : `text "${v}"`;
  return typeof v === 'object' ? 'an object' : `${typeof v} ${String(v)}`;
}

function parseJsonl(text: string): ParseOutcome {
  const rows: RawRow[] = [];
  const problems: DatasetProblem[] = [];
  let lineNo = 0;
  let start = 0;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    lineNo++;
    const line = text.slice(start, end).trim();
    start = end + 1;
    if (!line) continue;
    try {
      const v: unknown = JSON.parse(line);
      if (isRecord(v)) rows.push({ record: v, where: `line ${lineNo}` });
      else problems.push({ where: `line ${lineNo}`, message: `expected an object, got ${describe(v)}` });
    } catch (e) {
      problems.push({ where: `line ${lineNo}`, message: jsonError(line, e).message });
    }
    if (problems.length >= MAX_PROBLEMS)
      return { ok: false, format: 'jsonl', problems, truncated: start < text.length };
  }
  if (problems.length) return { ok: false, format: 'jsonl', problems, truncated: false };
  if (!rows.length)
    return {
      ok: false,
      format: 'jsonl',
      problems: [{ where: '', message: 'the file holds no items' }],
      truncated: false,
    };
  return { ok: true, format: 'jsonl', rows };
}

/** The header row of a CSV file, read without parsing the rest. */
export function csvHeader(text: string): string[] {
  const firstLine = text.slice(0, Math.min(text.length, 64 * 1024)).split(/\r?\n/, 1)[0];
  const r = Papa.parse<string[]>(firstLine, { header: false });
  return (r.data[0] ?? []).map((h) => String(h).trim()).filter(Boolean);
}

function parseCsv(text: string): ParseOutcome {
  const problems: DatasetProblem[] = [];
  const data: Record<string, unknown>[] = [];
  let truncated = false;
  const fields = csvHeader(text);
  if (fields.length >= 2) {
    // Step through rows so that a file of garbage stops at the hundredth problem.
    Papa.parse<Record<string, string>>(text, {
      header: true,
      skipEmptyLines: 'greedy',
      transformHeader: (h) => h.trim(),
      // Chunked so that abort() stops the work; with one big string Papa scans it all first.
      chunkSize: 1 << 20,
      step: (row, parser) => {
        for (const err of row.errors) {
          // Rows are numbered as in a spreadsheet: the header is row 1, data row i (from 0) is row i + 2.
          problems.push({ where: `row ${data.length + 2}`, message: err.message });
        }
        data.push(row.data);
        if (problems.length >= MAX_PROBLEMS) {
          truncated = true;
          parser.abort();
        }
      },
    });
  }
  if (fields.length < 2) {
    return {
      ok: false,
      format: 'csv',
      problems: [
        { where: 'line 1', message: 'a CSV file needs a header row with at least a question and an answer column' },
      ],
      truncated: false,
    };
  }
  if (problems.length) return { ok: false, format: 'csv', problems: problems.slice(0, MAX_PROBLEMS), truncated };
  const rows = data.map((record, i) => ({ record: record as Record<string, unknown>, where: `row ${i + 2}` }));
  if (!rows.length)
    return {
      ok: false,
      format: 'csv',
      problems: [{ where: '', message: 'the file holds no items' }],
      truncated: false,
    };
  return { ok: true, format: 'csv', rows };
}
