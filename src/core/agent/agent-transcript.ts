/**
 * An agent CLI's transcript (issue #31): the tool calls and messages a real agent harness wrote
 * while it worked, read into a trajectory the analysts, the inspector and the report read like any
 * other. One JSON object a line; these shapes are understood (others are skipped):
 *
 *   {"role": "assistant", "content": "…"}                        a message of the agent
 *   {"type": "tool_call", "name": "…", "arguments": {…}|"…", "id"?: "…"}
 *   {"type": "tool_result", "name"?: "…", "content"|"output": "…", "id"?: "…", "is_error"?: true}
 *
 * Turns are counted from the agent's messages and call groups: a call after a result opens a turn.
 */
import type { TrajectoryEntry } from './trajectory';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown) => (typeof v === 'string' ? v : v === undefined ? '' : JSON.stringify(v));

type Call = { id: string; name: string; arguments: string };

export function readAgentTranscript(jsonl: string): TrajectoryEntry[] {
  const out: TrajectoryEntry[] = [];
  let turn = 0;
  let open: Extract<TrajectoryEntry, { kind: 'assistant' }> | null = null;
  let calls = 0;
  // The open turn's calls, kept so that each result finds its call at once (issue #39 L5: one pass).
  let pending: Call[] = [];
  let byId = new Map<string, Call>();
  let answered = new Set<string>();
  let first = 0;
  const firstByName = new Map<string, number>();
  const newTurn = (content: string) => {
    turn++;
    open = { kind: 'assistant', turn, content };
    out.push(open);
    pending = [];
    byId = new Map();
    answered = new Set();
    first = 0;
    firstByName.clear();
    return open;
  };
  /** The first call of the turn not yet answered (of this name, when given), from where the last search stopped. */
  const nextOpen = (name: unknown): Call | undefined => {
    const key = typeof name === 'string' ? name : '';
    let i = key ? (firstByName.get(key) ?? 0) : first;
    while (i < pending.length && (answered.has(pending[i].id) || (key && pending[i].name !== key))) i++;
    if (key) firstByName.set(key, i);
    else first = i;
    return pending[i];
  };
  for (const line of jsonl.split('\n')) {
    if (!line.trim()) continue;
    let e: unknown;
    try {
      e = JSON.parse(line);
    } catch {
      continue; // a line of the agent's own logging
    }
    if (!isRecord(e)) continue;
    if (e.role === 'assistant' && typeof e.content === 'string') {
      newTurn(e.content);
    } else if (e.type === 'tool_call' && typeof e.name === 'string') {
      const last = out[out.length - 1];
      const a: Extract<TrajectoryEntry, { kind: 'assistant' }> =
        open && last?.kind === 'assistant' ? open : newTurn('');
      const id = typeof e.id === 'string' && e.id ? e.id : `c${++calls}`;
      const call = { id, name: e.name, arguments: text(e.arguments ?? {}) };
      (a.toolCalls ??= []).push(call);
      pending.push(call);
      if (!byId.has(id)) byId.set(id, call);
    } else if (e.type === 'tool_result') {
      const a = open as Extract<TrajectoryEntry, { kind: 'assistant' }> | null;
      const call =
        (typeof e.id === 'string' ? byId.get(e.id) : undefined) ??
        (e.name === undefined || typeof e.name === 'string' ? nextOpen(e.name) : undefined);
      if (!a || !call) continue;
      answered.add(call.id);
      out.push({
        kind: 'tool',
        turn: a.turn,
        callId: call.id,
        name: call.name,
        arguments: call.arguments,
        result: text(e.content ?? e.output ?? ''),
        ...(e.is_error === true ? { error: true as const } : {}),
      });
    }
  }
  return out;
}
