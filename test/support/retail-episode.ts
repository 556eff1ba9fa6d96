/**
 * The retail world offline (issue #43 item 2): one conversation of the agent (retail-agent.ts)
 * with its goal-following customer (simulated-user.ts) against the store module's episode
 * (retail-store.ts), scored as the engine scores it — the exact scorer on the final answer, and
 * the store's final state. The quality bench's held-out figure is this without noise: what the
 * kept skill earns when neither the agent nor the customer slips.
 */
import { DEFAULT_MAX_USER_TURNS } from '../../src/core/agent/agent-item';
import { combineChecks, outOfTurnsCheck } from '../../src/core/agent/trajectory-checks';
import type { TrajectoryEntry } from '../../src/core/agent/trajectory';
import type { DatasetItem } from '../../src/core/dataset/dataset-types';
import { scoreResponse } from '../../src/core/scoring/scoring';
import { renderRollout, type RolloutTemplate } from '../../src/core/config/templates';
import { moduleItemOf } from '../../src/engine/module-environment';
import type { ToolStep } from './agentic-agent';
import { retailAction, type TargetNoise } from './retail-agent';
import retailStore from './retail-store';
import { goalReply } from './simulated-user';

export interface RetailEpisode {
  hard: number;
  answer: string | null;
  entries: TrajectoryEntry[];
  failReason?: string;
  /** The store's actions at the end. */
  actions: string[];
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** Run one conversation; `draws` gives a stochastic agent its draws (none: no slips). */
export function retailEpisode(
  skill: string,
  item: DatasetItem,
  template: RolloutTemplate,
  o: { maxTurns?: number; noise?: TargetNoise; draws?: () => number } = {},
): RetailEpisode {
  const maxTurns = o.maxTurns ?? 10;
  const prompts = renderRollout(template, skill, item);
  const user = item.agent!.user!;
  const max = user.maxTurns ?? DEFAULT_MAX_USER_TURNS;
  const data = moduleItemOf(item);
  const state = retailStore.reset(data);
  const userMessages = [prompts.user];
  const history: ToolStep[] = [];
  const entries: TrajectoryEntry[] = [];
  let answer: string | null = null;
  let turn = 0;
  for (let sinceUser = 0; sinceUser < maxTurns; sinceUser++) {
    const reply = retailAction({ system: prompts.system, userMessages, history }, o.draws?.() ?? 1, o.noise);
    turn++;
    if ('toolCalls' in reply) {
      const c = reply.toolCalls[0];
      const args = c.arguments as Record<string, unknown>;
      entries.push({
        kind: 'assistant',
        turn,
        content: '',
        toolCalls: [{ id: `t${turn}`, name: c.name, arguments: JSON.stringify(args) }],
      });
      let result: string;
      let error = false;
      try {
        result = retailStore.call(c.name, args, state);
      } catch (e) {
        // As the module host answers a tool that throws: the error goes back to the model.
        result = `Error: ${message(e)}`;
        error = true;
      }
      entries.push({
        kind: 'tool',
        turn,
        callId: `t${turn}`,
        name: c.name,
        arguments: JSON.stringify(args),
        result,
        ...(error ? { error: true as const } : {}),
      });
      history.push({ name: c.name, args, result });
      continue;
    }
    entries.push({ kind: 'assistant', turn, content: reply.content });
    const n = userMessages.length + 1;
    const r = goalReply(user.goal, reply.content, n > max);
    const end = r.status === 'continue' ? (n > max ? 'limit' : undefined) : r.status;
    entries.push({ kind: 'user', message: n, content: r.message, ...(end ? { end } : {}) });
    if (end) {
      answer = reply.content;
      break;
    }
    userMessages.push(r.message);
    sinceUser = -1;
  }
  const own = retailStore.score({ item: data, state });
  const checks = [
    answer === null ? outOfTurnsCheck(entries, maxTurns) : scoreResponse({ kind: 'exact' }, answer, item),
    { hard: own.hard, soft: own.soft, ...(own.failReason ? { failReason: own.failReason } : {}) },
  ];
  const c = combineChecks(checks);
  return {
    hard: c.hard,
    answer,
    entries,
    actions: [...state.actions],
    ...(c.failReason ? { failReason: c.failReason } : {}),
  };
}

/** A skill's noise-free accuracy on these items. */
export function retailAccuracy(skill: string, items: readonly DatasetItem[], template: RolloutTemplate): number {
  return items.length ? items.reduce((n, item) => n + retailEpisode(skill, item, template).hard, 0) / items.length : 0;
}
