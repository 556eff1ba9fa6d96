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

export function readAgentTranscript(jsonl: string): TrajectoryEntry[] {
  const out: TrajectoryEntry[] = [];
  let turn = 0;
  let open: Extract<TrajectoryEntry, { kind: 'assistant' }> | null = null;
  let calls = 0;
  const newTurn = (content: string) => {
    turn++;
    open = { kind: 'assistant', turn, content };
    out.push(open);
    return open;
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
      a.toolCalls = [...(a.toolCalls ?? []), { id, name: e.name, arguments: text(e.arguments ?? {}) }];
    } else if (e.type === 'tool_result') {
      const a = open as Extract<TrajectoryEntry, { kind: 'assistant' }> | null;
      const pending = a?.toolCalls ?? [];
      const answered = new Set(
        out.filter((x) => x.kind === 'tool' && x.turn === a?.turn).map((x) => (x as { callId: string }).callId),
      );
      const call =
        pending.find((c) => c.id === e.id) ??
        pending.find((c) => !answered.has(c.id) && (e.name === undefined || c.name === e.name));
      if (!a || !call) continue;
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
