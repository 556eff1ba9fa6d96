/**
 * A trajectory (issue #30): what an agent did on one item — each model turn with the calls it
 * asked for, and each tool result — in order. Rows keep it; the analysts, the inspector, the
 * report and the checks read it.
 */

/** A call the model asked for; `arguments` is the JSON text it wrote. */
export interface ToolCallRecord {
  id: string;
  name: string;
  arguments: string;
}

/**
 * How a simulated user ended the conversation (issue #31): its goal was met, it gave up, or the
 * item's limit of user messages was reached. The ending message is not sent to the agent.
 */
export type UserEnd = 'goal_met' | 'gave_up' | 'limit';

export type TrajectoryEntry =
  | {
      kind: 'assistant';
      turn: number;
      content: string;
      toolCalls?: ToolCallRecord[];
      /**
       * A reasoning model's reasoning items for the turn (the Responses API, issue #44): kept while
       * the trajectory runs, to pass back with its calls; a finished row drops them.
       */
      reasoning?: Record<string, unknown>[];
    }
  /** A simulated user's message: `message` counts the user's messages, the opening question being 1. */
  | { kind: 'user'; message: number; content: string; end?: UserEnd }
  | {
      kind: 'tool';
      turn: number;
      callId: string;
      name: string;
      arguments: string;
      result: string;
      /** The tool failed (it threw, the call was malformed, the tool is unknown): `result` says why. */
      error?: true;
    };

export type ToolEntry = Extract<TrajectoryEntry, { kind: 'tool' }>;

/** Every call made, in order, with its turn (from the tool entries: a call that was answered). */
export function callsOf(entries: readonly TrajectoryEntry[]): ToolEntry[] {
  return entries.filter((e): e is ToolEntry => e.kind === 'tool');
}

/** How many model turns the trajectory holds. */
export function turnsOf(entries: readonly TrajectoryEntry[]): number {
  return entries.filter((e) => e.kind === 'assistant').length;
}

/** The final answer: the last model turn, when it asked for no call (a user's closing message aside). */
export function finalAnswerOf(entries: readonly TrajectoryEntry[]): string | null {
  const tail = entries[entries.length - 1];
  const last = tail?.kind === 'user' && tail.end ? entries[entries.length - 2] : tail;
  return last?.kind === 'assistant' && !last.toolCalls?.length ? last.content : null;
}

/** How a simulated user ended the conversation, when it did. */
export function userEndOf(entries: readonly TrajectoryEntry[]): UserEnd | null {
  const tail = entries[entries.length - 1];
  return tail?.kind === 'user' && tail.end ? tail.end : null;
}

/** "lookup ×2, read_file ×1": which tools were called, how often, in order of first use. */
export function toolTally(entries: readonly TrajectoryEntry[]): string {
  const n = new Map<string, number>();
  for (const c of callsOf(entries)) n.set(c.name, (n.get(c.name) ?? 0) + 1);
  return [...n].map(([name, k]) => `${name} ×${k}`).join(', ');
}

/** A call as the analysts read it: `lookup({"code":"104"})`. */
export function showCall(name: string, args: string): string {
  return `${name}(${args.trim() || '{}'})`;
}

/** The most entries a row keeps of a trajectory (what a run bundle takes in). */
export const MAX_TRAJECTORY_ENTRIES = 2_000;

/**
 * A trajectory as a row keeps it (issue #39 L5): whole when it fits, else its first and last
 * entries with one entry between saying how many were cut — so every run's bundle imports.
 * Scored before it is cut: the checks see every call.
 */
export function keptTrajectory(entries: readonly TrajectoryEntry[]): TrajectoryEntry[] {
  if (entries.length <= MAX_TRAJECTORY_ENTRIES) return [...entries];
  const head = entries.slice(0, MAX_TRAJECTORY_ENTRIES / 2);
  const tail = entries.slice(entries.length - (MAX_TRAJECTORY_ENTRIES / 2 - 1));
  const cut = entries.length - head.length - tail.length;
  // The note takes the turn of the first entry it stands for (a user's message has none: the turn before).
  const at = [...head, entries[head.length]].reverse().find((e) => e.kind !== 'user');
  const turn = at?.turn ?? 1;
  return [...head, { kind: 'assistant', turn, content: `[… ${cut} entries of this trajectory cut]` }, ...tail];
}
