/**
 * Each agent harness's JSON event stream read into a trajectory (issue #42): the model's turns
 * with their tool calls, each tool result, the final answer, the tokens (and cost) where the
 * harness reports them, and the harness's own error words. Formats, as the real binaries write
 * them (recorded in test/fixtures/agent-streams/):
 *
 * - pi `--mode json`: `message_end` of each assistant message (text and `toolCall` parts, usage
 *   with cost, `stopReason: "error"` with `errorMessage`), `tool_execution_end` per result.
 * - Claude Code `-p --output-format stream-json --verbose`, and Qwen Code `--output-format
 *   stream-json` (the same shape): `assistant` messages (`text`, `tool_use`), `user` messages
 *   (`tool_result`), a closing `result` (`is_error`, `usage`, `total_cost_usd`). Qwen Code reports
 *   an API error as a successful result whose text is `[API Error: …]`.
 * - Codex `exec --json`: `item.completed` items (`agent_message`, `command_execution`,
 *   `mcp_tool_call`, `file_change`…), `turn.completed` usage, `turn.failed` and `error` events.
 * - OpenCode `run --format json`: `text` and `tool_use` parts, `step_finish` tokens and cost,
 *   `error` events.
 * - Gemini CLI `--output-format stream-json`: `message` (assistant text in deltas), `tool_use`,
 *   `tool_result`, `error`, and a closing `result` with `stats`.
 */
import type { HarnessName } from './harness-names';
import type { TrajectoryEntry } from './trajectory';

export interface HarnessRun {
  entries: TrajectoryEntry[];
  /** The agent's final answer, or null when it gave none. */
  answer: string | null;
  /** Tokens (and the cost in USD) the harness reported; absent when it reported none. */
  usage?: { inputTokens: number; outputTokens: number; costUsd?: number };
  /** The harness's own words for what failed (the API error it got, a refused login…). */
  errors: string[];
}

type Json = Record<string, unknown>;
const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown) => (typeof v === 'string' ? v : v === undefined || v === null ? '' : JSON.stringify(v));
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

/** JSON lines of a stream; lines of the harness's own logging are skipped. */
function events(stream: string): Json[] {
  const out: Json[] = [];
  for (const line of stream.split('\n')) {
    if (!line.trim().startsWith('{')) continue;
    try {
      const e: unknown = JSON.parse(line);
      if (isRecord(e)) out.push(e);
    } catch {
      // a line cut short by the output limit
    }
  }
  return out;
}

/** Builds a trajectory in order: a turn per model message, results under the turn that called. */
class Trajectory {
  readonly entries: TrajectoryEntry[] = [];
  private turn = 0;
  private calls = new Map<string, { turn: number; name: string; arguments: string }>();

  say(content: string, calls: { id: string; name: string; arguments: unknown }[] = []): void {
    if (!content && !calls.length) return;
    this.turn++;
    const toolCalls = calls.map((c) => ({ id: c.id, name: c.name, arguments: str(c.arguments ?? {}) }));
    for (const c of toolCalls) this.calls.set(c.id, { turn: this.turn, name: c.name, arguments: c.arguments });
    this.entries.push({ kind: 'assistant', turn: this.turn, content, ...(toolCalls.length ? { toolCalls } : {}) });
  }

  result(callId: string, result: unknown, error = false): void {
    const call = this.calls.get(callId);
    if (!call) return;
    this.entries.push({
      kind: 'tool',
      turn: call.turn,
      callId,
      name: call.name,
      arguments: call.arguments,
      result: str(result),
      ...(error ? { error: true as const } : {}),
    });
  }

  /** A call and its result reported as one event (Codex items, OpenCode parts). */
  callAndResult(id: string, name: string, args: unknown, result: unknown, error: boolean): void {
    this.say('', [{ id, name, arguments: args }]);
    this.result(id, result, error);
  }
}

/** Text of a content block list (`[{type: "text", text}]`) or a plain string. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return str(content);
  return content
    .filter((p): p is Json => isRecord(p) && typeof p.text === 'string')
    .map((p) => p.text as string)
    .join('');
}

function readPi(stream: string): HarnessRun {
  const t = new Trajectory();
  const usage = { inputTokens: 0, outputTokens: 0, costUsd: 0 };
  let answer: string | null = null;
  let last: Json | null = null;
  for (const e of events(stream)) {
    const m = e.message;
    if (e.type === 'message_end' && isRecord(m) && m.role === 'assistant') {
      last = m;
      const parts = Array.isArray(m.content) ? (m.content as Json[]) : [];
      const text = parts
        .filter((p) => p.type === 'text')
        .map((p) => str(p.text))
        .join('');
      const calls = parts
        .filter((p) => p.type === 'toolCall')
        .map((p) => ({ id: str(p.id), name: str(p.name), arguments: p.arguments }));
      t.say(text, calls);
      if (isRecord(m.usage)) {
        usage.inputTokens += num(m.usage.input) + num(m.usage.cacheRead) + num(m.usage.cacheWrite);
        usage.outputTokens += num(m.usage.output);
        usage.costUsd += isRecord(m.usage.cost) ? num(m.usage.cost.total) : 0;
      }
      if (m.stopReason === 'stop' && !calls.length) answer = text;
    } else if (e.type === 'tool_execution_end') {
      t.result(str(e.toolCallId), isRecord(e.result) ? textOf(e.result.content) : e.result, e.isError === true);
    }
  }
  // pi retries a failed call itself: only the last message's error is the run's.
  const failed = last && (last.stopReason === 'error' || last.stopReason === 'aborted');
  return {
    entries: t.entries,
    answer: failed ? null : answer,
    ...(usage.inputTokens || usage.outputTokens ? { usage } : {}),
    errors: failed ? [str(last?.errorMessage) || 'the model call failed'] : [],
  };
}

/** Claude Code's stream-json, which Qwen Code writes too. */
function readClaudeLike(stream: string): HarnessRun {
  const t = new Trajectory();
  let answer: string | null = null;
  let usage: HarnessRun['usage'];
  const errors: string[] = [];
  for (const e of events(stream)) {
    const m = isRecord(e.message) ? e.message : null;
    const parts = m && Array.isArray(m.content) ? (m.content as Json[]) : [];
    if (e.type === 'assistant' && m) {
      const text = parts
        .filter((p) => p.type === 'text')
        .map((p) => str(p.text))
        .join('');
      const calls = parts
        .filter((p) => p.type === 'tool_use')
        .map((p) => ({ id: str(p.id), name: str(p.name), arguments: p.input }));
      t.say(text, calls);
      if (e.error !== undefined) errors.push(text || str(e.error));
    } else if (e.type === 'user') {
      for (const p of parts.filter((p) => p.type === 'tool_result'))
        t.result(str(p.tool_use_id), textOf(p.content), p.is_error === true);
    } else if (e.type === 'result') {
      const result = str(e.result);
      const u = isRecord(e.usage) ? e.usage : {};
      const inputTokens = num(u.input_tokens) + num(u.cache_read_input_tokens) + num(u.cache_creation_input_tokens);
      usage = {
        inputTokens,
        outputTokens: num(u.output_tokens),
        ...(typeof e.total_cost_usd === 'number' ? { costUsd: e.total_cost_usd } : {}),
      };
      // Qwen Code calls a run whose only reply is the API error a success.
      if (e.is_error === true || /^\[API Error: /.test(result)) errors.push(result || str(e.subtype));
      else answer = result;
    }
  }
  if (usage && !usage.inputTokens && !usage.outputTokens && usage.costUsd === undefined) usage = undefined;
  return {
    entries: t.entries,
    answer: errors.length ? null : answer,
    ...(usage ? { usage } : {}),
    errors: [...new Set(errors)],
  };
}

function readCodex(stream: string): HarnessRun {
  const t = new Trajectory();
  let answer: string | null = null;
  const usage = { inputTokens: 0, outputTokens: 0 };
  const errors: string[] = [];
  for (const e of events(stream)) {
    const it = isRecord(e.item) ? e.item : null;
    if (e.type === 'item.completed' && it) {
      const id = str(it.id);
      if (it.type === 'agent_message') {
        t.say(str(it.text));
        answer = str(it.text);
      } else if (it.type === 'command_execution') {
        const code = typeof it.exit_code === 'number' ? it.exit_code : 0;
        t.callAndResult(id, 'shell', { command: it.command }, it.aggregated_output, code !== 0);
      } else if (it.type === 'mcp_tool_call') {
        const name = [it.server, it.tool].filter(Boolean).join('.');
        t.callAndResult(id, name, it.arguments, it.result ?? it.error, it.status === 'failed');
      } else if (it.type === 'file_change') {
        t.callAndResult(id, 'apply_patch', { changes: it.changes }, it.status, it.status === 'failed');
      } else if (it.type === 'web_search') {
        t.callAndResult(id, 'web_search', { query: it.query }, '', false);
      }
    } else if (e.type === 'turn.completed' && isRecord(e.usage)) {
      usage.inputTokens += num(e.usage.input_tokens);
      usage.outputTokens += num(e.usage.output_tokens);
    } else if (e.type === 'turn.failed' && isRecord(e.error)) {
      errors.push(str(e.error.message));
    } else if (e.type === 'error' && !/^Reconnecting\.\.\./.test(str(e.message))) {
      errors.push(str(e.message));
    }
  }
  return {
    entries: t.entries,
    answer: errors.length ? null : answer,
    ...(usage.inputTokens || usage.outputTokens ? { usage } : {}),
    errors: [...new Set(errors)],
  };
}

function readOpenCode(stream: string): HarnessRun {
  const t = new Trajectory();
  let answer: string | null = null;
  const usage = { inputTokens: 0, outputTokens: 0, costUsd: 0 };
  const errors: string[] = [];
  for (const e of events(stream)) {
    const part = isRecord(e.part) ? e.part : {};
    if (e.type === 'text') {
      t.say(str(part.text));
      answer = str(part.text);
    } else if (e.type === 'tool_use') {
      const state = isRecord(part.state) ? part.state : {};
      const failed = state.status === 'error';
      t.callAndResult(str(part.callID), str(part.tool), state.input, failed ? state.error : state.output, failed);
    } else if (e.type === 'step_finish' && isRecord(part.tokens)) {
      usage.inputTokens += num(part.tokens.input);
      usage.outputTokens += num(part.tokens.output) + num(part.tokens.reasoning);
      usage.costUsd += num(part.cost);
    } else if (e.type === 'error') {
      const err = isRecord(e.error) ? e.error : {};
      const data = isRecord(err.data) ? err.data : {};
      errors.push(str(data.message) || str(err.name));
    }
  }
  return {
    entries: t.entries,
    answer: errors.length ? null : answer,
    ...(usage.inputTokens || usage.outputTokens ? { usage } : {}),
    errors,
  };
}

function readGemini(stream: string): HarnessRun {
  const t = new Trajectory();
  let text = '';
  let answer: string | null = null;
  let usage: HarnessRun['usage'];
  const errors: string[] = [];
  const flush = (calls: { id: string; name: string; arguments: unknown }[] = []) => {
    if (text || calls.length) t.say(text, calls);
    if (text && !calls.length) answer = text;
    text = '';
  };
  for (const e of events(stream)) {
    if (e.type === 'message' && e.role === 'assistant') text += str(e.content);
    else if (e.type === 'tool_use') flush([{ id: str(e.tool_id), name: str(e.tool_name), arguments: e.parameters }]);
    else if (e.type === 'tool_result')
      t.result(
        str(e.tool_id),
        e.status === 'error' && isRecord(e.error) ? e.error.message : e.output,
        e.status === 'error',
      );
    else if (e.type === 'error') errors.push(str(e.message));
    else if (e.type === 'result') {
      flush();
      if (e.status === 'error') errors.push(isRecord(e.error) ? str(e.error.message) : 'the run failed');
      const s = isRecord(e.stats) ? e.stats : {};
      if (num(s.input_tokens) || num(s.output_tokens))
        usage = { inputTokens: num(s.input_tokens), outputTokens: num(s.output_tokens) };
    }
  }
  flush();
  return { entries: t.entries, answer: errors.length ? null : answer, ...(usage ? { usage } : {}), errors };
}

const READERS: Record<HarnessName, (stream: string) => HarnessRun> = {
  pi: readPi,
  claude: readClaudeLike,
  qwen: readClaudeLike,
  codex: readCodex,
  opencode: readOpenCode,
  gemini: readGemini,
};

/**
 * An event that means the run cannot succeed, seen as the harness prints it: Claude Code retries
 * a refused key (401, 403) with growing delays — ten times, minutes — announcing each retry as an
 * `api_retry` event. Its words ("401 authentication_failed") when so, to stop it at once; else null.
 */
export function hopelessEvent(harness: HarnessName, line: string): string | null {
  if (harness !== 'claude' || !line.includes('"api_retry"')) return null;
  try {
    const e: unknown = JSON.parse(line);
    if (!isRecord(e) || e.type !== 'system' || e.subtype !== 'api_retry') return null;
    const status = e.error_status;
    return status === 401 || status === 403 ? `${status} ${str(e.error) || 'refused'}` : null;
  } catch {
    return null;
  }
}

/** A harness's JSON event stream (its standard output) read into a run. */
export function readHarnessStream(harness: HarnessName, stream: string): HarnessRun {
  return READERS[harness](stream);
}
