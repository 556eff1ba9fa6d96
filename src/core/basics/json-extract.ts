/**
 * JSON out of optimizer text (algorithm doc §3.0, pitfall §10.2). In order: the first fenced
 * block; the greedy span from the first '{' to the last '}'; then a repair, but only when the
 * text holds exactly one top-level object that looks like intended JSON. Zero or several
 * candidates give null — never a guess. Every pass is linear in the input and nothing throws.
 */
import { jsonrepair } from 'jsonrepair';
import { stripThinking } from './thinking';

export type JsonObject = Record<string, unknown>;

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function tryParseObject(text: string): JsonObject | null {
  try {
    const v: unknown = JSON.parse(text);
    return isObject(v) ? v : null;
  } catch {
    return null;
  }
}

/** The body of the first ``` fenced block (```json or a bare fence), found with indexOf. */
export function firstFencedBlock(text: string): string | null {
  let from = 0;
  for (;;) {
    const open = text.indexOf('```', from);
    if (open < 0) return null;
    const lineEnd = text.indexOf('\n', open + 3);
    if (lineEnd < 0) return null;
    const lang = text
      .slice(open + 3, lineEnd)
      .trim()
      .toLowerCase();
    if (lang === '' || lang === 'json' || lang === 'jsonc' || lang === 'json5') {
      const close = text.indexOf('```', lineEnd + 1);
      return close < 0 ? text.slice(lineEnd + 1) : text.slice(lineEnd + 1, close);
    }
    from = lineEnd + 1;
  }
}

/** A top-level bracketed span; `closed` is false for one still open at the end of the text. */
export interface TopLevelSpan {
  start: number;
  end: number;
  closed: boolean;
}

/**
 * Top-level spans, found by a string- and escape-aware bracket scan. With `nest` '{' only braces
 * count (objects); with '{[' both do, and the spans are the outermost ones of either kind. Quotes
 * in prose outside brackets end at a newline, so one stray quote cannot hide the rest of the text.
 * A span still open at the end of the text (truncated output) runs to the end, marked not closed.
 */
export function topLevelSpans(text: string, nest: '{' | '{[' = '{'): TopLevelSpan[] {
  const spans: TopLevelSpan[] = [];
  const brackets = nest === '{' ? [123] : [123, 91];
  let depth = 0;
  let inString = false;
  let escaped = false;
  let start = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (escaped) escaped = false;
      else if (c === 92 /* \ */) escaped = true;
      else if (c === 34 /* " */) inString = false;
      else if (c === 10 /* \n */ && depth === 0) inString = false;
      continue;
    }
    if (c === 34) inString = true;
    else if (brackets.includes(c)) {
      if (depth === 0) start = i;
      depth++;
    } else if ((c === 125 /* } */ || (c === 93 /* ] */ && brackets.length > 1)) && depth > 0) {
      depth--;
      if (depth === 0) spans.push({ start, end: i + 1, closed: true });
    }
  }
  if (depth > 0 && start >= 0) spans.push({ start, end: text.length, closed: false });
  return spans;
}

function looksLikeJsonObject(span: string): boolean {
  const m = /^\{\s*(\S)/.exec(span);
  return m !== null && (m[1] === '"' || m[1] === '}');
}

/** Repair only mends the syntax of one complete object: a truncated one would be guessed at. */
function repairSingleObject(text: string): JsonObject | null {
  const spans = topLevelSpans(text);
  if (spans.length !== 1 || !spans[0].closed) return null;
  const span = text.slice(spans[0].start, spans[0].end);
  if (!looksLikeJsonObject(span)) return null;
  try {
    const v = tryParseObject(jsonrepair(span));
    return v && Object.keys(v).length > 0 ? v : null;
  } catch {
    return null;
  }
}

/** The JSON object an optimizer response holds, or null. */
export function extractJsonObject(reply: string): JsonObject | null {
  if (typeof reply !== 'string' || !reply) return null;
  const text = stripThinking(reply); // braces in a model's thinking are not its answer
  const fenced = firstFencedBlock(text);
  // The first fenced block if it parses, else the greedy span from the first '{' to the last '}'.
  const inFence = fenced !== null ? tryParseObject(fenced.trim()) : null;
  if (inFence) return inFence;
  const first = text.indexOf('{');
  const last = text.lastIndexOf('}');
  const span = first >= 0 && last > first ? tryParseObject(text.slice(first, last + 1)) : null;
  if (span) return span;
  // Repair: a fenced block is used when it holds exactly one object, else the whole text.
  if (fenced !== null && topLevelSpans(fenced).length === 1) return repairSingleObject(fenced);
  return repairSingleObject(text);
}

function tryParseArray(text: string): unknown[] | null {
  try {
    const v: unknown = JSON.parse(text);
    return Array.isArray(v) ? v : null;
  } catch {
    return null;
  }
}

/**
 * The JSON array a response holds (beside extractJsonObject), or null: the first fenced block,
 * else the one top-level array of the text that parses — an array inside an object is not one,
 * and a bracketed aside in prose does not hide the list after it. No repair: a guessed list is
 * worse than none.
 */
export function extractJsonArray(reply: string): unknown[] | null {
  if (typeof reply !== 'string' || !reply) return null;
  const text = stripThinking(reply);
  const fenced = firstFencedBlock(text);
  const inFence = fenced !== null ? tryParseArray(fenced.trim()) : null;
  if (inFence) return inFence;
  const arrays = topLevelSpans(text, '{[')
    .filter((sp) => sp.closed && text[sp.start] === '[')
    .map((sp) => tryParseArray(text.slice(sp.start, sp.end)))
    .filter((v): v is unknown[] => v !== null);
  return arrays.length === 1 ? arrays[0] : null;
}

export type PayloadCheck = { ok: true; items: JsonObject[] } | { ok: false; reason: string };

/** A payload (e.g. `edits`) is valid iff it is an array whose every element is an object. */
export function validatePayload(obj: unknown, key: string): PayloadCheck {
  if (!isObject(obj)) return { ok: false, reason: 'response is not a JSON object' };
  const items = obj[key];
  if (!Array.isArray(items)) return { ok: false, reason: `"${key}" is missing or not a list` };
  const bad = items.findIndex((x) => !isObject(x));
  if (bad >= 0) return { ok: false, reason: `"${key}"[${bad}] is not an object` };
  return { ok: true, items: items as JsonObject[] };
}
