/**
 * A simulated user (issue #31): after each answer of the agent, the user-simulator model — its
 * own role, endpoint and prompt (prompts/user_simulator.md), like the judge — reads the
 * conversation as the user saw it (the opening question and the agent's answers, not its tool
 * calls) and writes the user's next message, or says the goal was met or that it gives up. Its
 * reply is memoised by the trajectory's cache key and the message's number, so a resumed run
 * replays it; a reply without {message, status} is asked once more, then the row is an error.
 */
import { DEFAULT_MAX_USER_TURNS, MAX_USER_TURNS, type SimulatedUser } from '../../core/agent/agent-item';
import type { TrajectoryEntry, UserEnd } from '../../core/agent/trajectory';
import type { DatasetItem } from '../../core/dataset/dataset-types';
import type { JsonObject } from '../../core/basics/json-extract';
import { stripThinking } from '../../core/basics/thinking';
import { LlmError } from '../ports';
import type { TargetDeps } from '../target-port';

export type UserEntry = Extract<TrajectoryEntry, { kind: 'user' }>;

/**
 * User messages a conversation may have, the opening question included — held to the datasets'
 * limit here too, whatever a record says (issue #39 M5: a conversation always ends).
 */
export const maxUserMessages = (user: SimulatedUser): number => {
  const n = user.maxTurns;
  return typeof n === 'number' && Number.isInteger(n) && n >= 1 ? Math.min(n, MAX_USER_TURNS) : DEFAULT_MAX_USER_TURNS;
};

/** The conversation as the user saw it: its own messages and the agent's answers. */
export function userView(question: string, entries: readonly TrajectoryEntry[]): string {
  const lines = [`User: ${question.trim()}`];
  entries.forEach((e, i) => {
    const next = entries[i + 1];
    // An answer is a model turn that called nothing; its tool-calling turns are the agent's own business.
    if (e.kind === 'assistant' && !e.toolCalls?.length && next?.kind !== 'tool')
      lines.push(`Assistant: ${stripThinking(e.content).trim()}`);
    else if (e.kind === 'user' && !e.end) lines.push(`User: ${e.content.trim()}`);
  });
  return lines.join('\n\n');
}

const STATUSES: Record<string, UserEnd | null> = { continue: null, goal_met: 'goal_met', gave_up: 'gave_up' };

function readReply(json: JsonObject | null): { message: string; end: UserEnd | null } | null {
  if (!json || typeof json.message !== 'string' || typeof json.status !== 'string') return null;
  if (!(json.status in STATUSES)) return null;
  return { message: json.message, end: STATUSES[json.status] };
}

/**
 * The user's next entry after the agent's answer: `message` is its number (the opening question
 * being 1). Past the item's limit the simulator only says whether the goal was met; a reply that
 * would still go on ends the conversation as 'limit'. At most `maxUserMessages` calls a conversation.
 */
export async function userTurn(
  ctx: Pick<TargetDeps, 'ask'>,
  a: { item: DatasetItem; user: SimulatedUser; entries: readonly TrajectoryEntry[]; cacheKey: string },
): Promise<UserEntry> {
  const sent = 1 + a.entries.filter((e) => e.kind === 'user').length;
  const message = sent + 1;
  const max = maxUserMessages(a.user);
  const values = {
    goal: a.user.goal,
    persona: a.user.persona ?? '',
    conversation: userView(a.item.question, a.entries),
    message: String(message),
    max_messages: String(max),
    // Past the limit the simulator is asked only whether the goal was met.
    last: message > max ? 'yes' : '',
  };
  const usable = (j: JsonObject | null) => readReply(j) !== null;
  const key = `user/${a.cacheKey}/m${message}`;
  let r = await ctx.ask(key, 'user_simulator', values, 'userSimulator', usable);
  if (!usable(r.json) && !r.error) r = await ctx.ask(key, 'user_simulator', values, 'userSimulator', usable);
  if (r.error) throw r.error;
  const reply = readReply(r.json);
  if (!reply)
    throw new LlmError('server', 'The user simulator did not reply with {"message", "status"}; nothing was scored.', {
      role: 'userSimulator',
    });
  const end = reply.end ?? (message > max ? 'limit' : null);
  return { kind: 'user', message, content: reply.message, ...(end ? { end } : {}) };
}
