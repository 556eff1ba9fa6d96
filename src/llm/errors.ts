/**
 * Turning SDK and network failures into LlmErrors with messages a user can act on.
 * Keys never appear in messages: any text that contains the key is redacted.
 */
import { APIError, APIConnectionError, APIConnectionTimeoutError, APIUserAbortError } from 'openai';
import { LlmError, type LlmErrorKind, type Role } from '../engine/ports';
import { printable } from '../core/basics/printable';

/** An endpoint's text as shown to a person: keys redacted, control characters (terminal escapes) dropped. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = printable(text);
  for (const s of secrets) if (s && s.length >= 4) out = out.split(s).join('[redacted]');
  return out;
}

/** Whether an error is worth another attempt. */
export function isRetryable(e: unknown): boolean {
  if (e instanceof APIUserAbortError) return false;
  if (e instanceof APIConnectionError) return true; // includes timeouts
  if (e instanceof APIError)
    return e.status === 408 || e.status === 409 || e.status === 429 || e.status === 498 || (e.status ?? 0) >= 500;
  return false;
}

/** Seconds to wait from retry-after / retry-after-ms headers, if present. */
export function retryAfterMs(e: unknown): number | null {
  if (!(e instanceof APIError) || !e.headers) return null;
  const ms = e.headers.get('retry-after-ms');
  if (ms && Number.isFinite(Number(ms))) return Number(ms);
  const ra = e.headers.get('retry-after');
  if (!ra) return null;
  if (Number.isFinite(Number(ra))) return Number(ra) * 1000;
  const date = Date.parse(ra);
  return Number.isFinite(date) ? Math.max(0, date - Date.now()) : null;
}

export interface ClassifyContext {
  role: Role;
  baseURL: string;
  model: string;
  secrets: readonly string[];
}

function serverMessage(e: APIError): string {
  const err = e.error as { message?: unknown } | undefined;
  const m = typeof err?.message === 'string' ? err.message : e.message;
  return m.length > 300 ? `${m.slice(0, 300)}…` : m;
}

// A 400 about this request's content (a filter, a refusal, a prompt too long) concerns one
// item: the run goes on without it. Any other 400 (a bad parameter) would fail every call.
const ITEM_CODES = new Set([
  'content_filter',
  'context_length_exceeded',
  'content_policy_violation',
  'string_above_max_length',
]);
const ITEM_WORDS =
  /content (management )?polic|content[ _]filter|safety|flagged|maximum context length|context length|context window|too many tokens|prompt is too long|input is too long/i;

function refusesThisItem(e: APIError, detail: string): boolean {
  const code = (e as { code?: unknown }).code;
  return (typeof code === 'string' && ITEM_CODES.has(code)) || ITEM_WORDS.test(detail);
}

/** Map any failure to an LlmError with a plain-language message. */
export function classifyError(e: unknown, ctx: ClassifyContext): LlmError {
  const who = `${ctx.role} endpoint ${ctx.baseURL}`;
  const make = (kind: LlmErrorKind, message: string, status?: number) =>
    new LlmError(kind, redact(message, ctx.secrets), { status, role: ctx.role });
  if (e instanceof LlmError) return e;
  if (e instanceof APIUserAbortError || (e instanceof Error && e.name === 'AbortError'))
    return make('aborted', 'The call was cancelled.');
  if (e instanceof APIConnectionTimeoutError) return make('timeout', `The ${who} did not answer in time.`);
  if (e instanceof APIConnectionError) {
    const pageIsHttps = typeof location !== 'undefined' && location.protocol === 'https:';
    if (
      pageIsHttps &&
      ctx.baseURL.startsWith('http://') &&
      !/^http:\/\/(localhost|127\.0\.0\.1|\[::1\])/.test(ctx.baseURL)
    ) {
      return make(
        'unreachable',
        `The ${who} uses http:// but this page is https://, so the browser blocks it (mixed content). Use an https:// URL for the endpoint.`,
      );
    }
    const inBrowser = typeof window !== 'undefined' || typeof importScripts === 'function';
    return make(
      'unreachable',
      inBrowser
        ? `Could not reach the ${who}. Either it is down or not reachable from here, or it does not allow requests from this page (CORS): the endpoint must answer preflight requests with Access-Control-Allow-Origin and allow the Authorization and Content-Type headers.`
        : `Could not reach the ${who}: ${e.message}`,
    );
  }
  if (e instanceof APIError) {
    const s = e.status ?? 0;
    const detail = serverMessage(e);
    if (s === 401)
      return make(
        'auth',
        `The ${ctx.role} API key was rejected (401) by ${ctx.baseURL}. Check the key. Server said: ${detail}`,
        s,
      );
    if (s === 403)
      return make(
        'auth',
        `The ${ctx.role} API key is not allowed to do this (403) at ${ctx.baseURL}. Server said: ${detail}`,
        s,
      );
    if (s === 404)
      return make(
        'not_found',
        `The ${who} does not know the model "${ctx.model}" or the path (404). Check the model name and base URL. Server said: ${detail}`,
        s,
      );
    if ((s === 400 || s === 422) && refusesThisItem(e, detail)) {
      return make('item_refused', `The ${who} refused this item (${s}): ${detail}`, s);
    }
    if (s === 400 || s === 422)
      return make('bad_request', `The ${who} refused the request (${s}). Server said: ${detail}`, s);
    if (s === 429)
      return make(
        'rate_limited',
        `The ${who} kept rate-limiting requests (429) after several retries. Lower the concurrency or wait. Server said: ${detail}`,
        s,
      );
    if (s === 408) return make('timeout', `The ${who} timed out (408).`, s);
    if (s >= 500)
      return make(
        'server',
        `The ${who} failed with a server error (${s}) after several retries. Server said: ${detail}`,
        s,
      );
    return make('server', `The ${who} answered ${s}. Server said: ${detail}`, s);
  }
  return make('server', `Unexpected failure calling the ${who}: ${e instanceof Error ? e.message : String(e)}`);
}

declare function importScripts(...urls: string[]): void;
