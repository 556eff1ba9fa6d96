/**
 * A trajectory as text (issue #30): the conversation block the analysts read and the judge
 * grades — each model turn, each call with its arguments, each result cut to a length — and the
 * references an agent read. One renderer, so what the judge saw is what the analysts see.
 */
import { READ_FILE } from './references-on-demand';
import { parseArguments } from './tool-match';
import { callsOf, showCall, type TrajectoryEntry, type UserEnd } from './trajectory';

/** How a simulated user's ending reads in a transcript. */
export const USER_ENDS: Record<UserEnd, string> = {
  goal_met: 'goal met',
  gave_up: 'the user gave up',
  limit: 'the limit of user messages was reached',
};

/** A tool result cut to `limit` characters, saying how much was left out. */
export function capResult(text: string, limit: number): string {
  if (text.length <= limit) return text;
  return `${text.slice(0, Math.max(0, limit))}…[cut, ${text.length} chars]`;
}

/** One line per turn, call, result and simulated user's message, in order. */
export function conversationLines(entries: readonly TrajectoryEntry[], resultChars: number): string[] {
  const lines: string[] = [];
  for (const e of entries) {
    if (e.kind === 'assistant') {
      if (e.content.trim()) lines.push(`[assistant turn ${e.turn}] ${e.content.trim()}`);
      for (const c of e.toolCalls ?? []) lines.push(`[tool call turn ${e.turn}] ${showCall(c.name, c.arguments)}`);
    } else if (e.kind === 'user') {
      const ended = e.end ? `, ${USER_ENDS[e.end]}` : '';
      lines.push(`[user message ${e.message}${ended}] ${e.content.trim()}`);
    } else {
      const tag = e.error ? 'tool error' : 'tool result';
      lines.push(`[${tag} turn ${e.turn}] ${capResult(e.result, resultChars)}`);
    }
  }
  return lines;
}

/** The files an agent read with read_file and got, in order, each once. */
export function referencesRead(entries: readonly TrajectoryEntry[]): string[] {
  const paths: string[] = [];
  for (const c of callsOf(entries)) {
    if (c.name !== READ_FILE || c.error) continue;
    const p = parseArguments(c.arguments);
    const path = p.ok && typeof p.args.path === 'string' ? p.args.path : null;
    if (path && !paths.includes(path)) paths.push(path);
  }
  return paths;
}
