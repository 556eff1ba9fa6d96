/**
 * Checks on a trajectory (issue #30): the calls an item expects and forbids, and running out of
 * turns. Each check is scored alone (hard, soft, a reason that names the turn); `combineChecks`
 * makes the row's score: hard only when every check passes, soft the mean.
 */
import type { ExpectedToolCall } from './agent-item';
import { matchesSubset, parseArguments } from './tool-match';
import { callsOf, showCall, type TrajectoryEntry } from './trajectory';

export interface CheckResult {
  hard: number;
  soft: number;
  failReason?: string;
}

export const OUT_OF_TURNS = 'ran out of turns';

const args = (text: string): unknown => {
  const p = parseArguments(text);
  return p.ok ? p.args : undefined;
};

/** One check per expected call: it must appear, its stated arguments among the call's. */
export function expectedCallChecks(
  entries: readonly TrajectoryEntry[],
  expected: readonly ExpectedToolCall[] | undefined,
): CheckResult[] {
  const calls = callsOf(entries);
  return (expected ?? []).map((want) => {
    if (calls.some((c) => c.name === want.name && matchesSubset(want.arguments ?? {}, args(c.arguments))))
      return { hard: 1, soft: 1 };
    const stated = want.arguments ? ` with ${JSON.stringify(want.arguments)}` : '';
    const near = calls.filter((c) => c.name === want.name);
    // The first two calls say what went wrong; a loop's repeats would only drown them.
    const shown = near.slice(0, 2).map((c) => `turn ${c.turn} called ${showCall(c.name, c.arguments)}`);
    const more = near.length > 2 ? ` and ${near.length - 2} more` : '';
    const instead = near.length ? ` (${shown.join(', ')}${more})` : '';
    return { hard: 0, soft: 0, failReason: `never called ${want.name}${stated}${instead}` };
  });
}

/** One check for all forbidden tools: none may be called. */
export function forbiddenCallCheck(
  entries: readonly TrajectoryEntry[],
  forbidden: readonly string[] | undefined,
): CheckResult[] {
  if (!forbidden?.length) return [];
  const bad = callsOf(entries).filter((c) => forbidden.includes(c.name));
  if (!bad.length) return [{ hard: 1, soft: 1 }];
  const reason = bad.map((c) => `turn ${c.turn}: called forbidden tool ${showCall(c.name, c.arguments)}`).join('; ');
  return [{ hard: 0, soft: 0, failReason: reason }];
}

/** The check a trajectory fails when it used every turn without a final answer. */
export function outOfTurnsCheck(entries: readonly TrajectoryEntry[], maxTurns: number): CheckResult {
  const last = [...entries].reverse().find((e) => e.kind === 'assistant');
  const calls = last?.kind === 'assistant' ? (last.toolCalls ?? []) : [];
  const what = calls.length
    ? `; last: turn ${last!.turn} called ${calls.map((c) => showCall(c.name, c.arguments)).join(', ')}`
    : '';
  return { hard: 0, soft: 0, failReason: `${OUT_OF_TURNS} (${maxTurns} turns${what})` };
}

/**
 * A simulated user's verdict as a check (issue #31), for an item nothing else scores: the goal
 * was met, or the user gave up, or its messages ran out first.
 */
export function userGoalCheck(entries: readonly TrajectoryEntry[]): CheckResult {
  const last = entries[entries.length - 1];
  if (last?.kind === 'user' && last.end === 'goal_met') return { hard: 1, soft: 1 };
  if (last?.kind === 'user' && last.end === 'gave_up')
    return { hard: 0, soft: 0, failReason: `the user gave up at message ${last.message}: ${cut(last.content)}` };
  const sent = 1 + entries.filter((e) => e.kind === 'user' && !e.end).length;
  return { hard: 0, soft: 0, failReason: `the user's goal was not met within ${sent} messages` };
}

const cut = (text: string) => (text.length > 160 ? `${text.slice(0, 160)}…` : text.trim());

/** The row's score from its checks: hard when all pass, soft their mean, the failed ones' reasons. */
export function combineChecks(checks: readonly CheckResult[]): CheckResult {
  if (!checks.length)
    return { hard: 0, soft: 0, failReason: 'nothing to check: no expected answer and no tool checks' };
  const hard = Math.min(...checks.map((c) => c.hard));
  const soft = checks.reduce((a, c) => a + c.soft, 0) / checks.length;
  const reasons = checks.filter((c) => c.failReason && c.hard < 1).map((c) => c.failReason!);
  return { hard, soft, ...(reasons.length ? { failReason: reasons.join('; ') } : {}) };
}
