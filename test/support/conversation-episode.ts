/**
 * The conversation world offline (issue #31): one conversation of the agent without noise
 * (conversation-agent.ts) with its goal-following user (simulated-user.ts), the declared tools
 * answering, scored as the engine scores it — the exact scorer on the final answer, the expected
 * and forbidden calls. The quality bench's held-out figure is this: what the kept skill earns
 * when neither the agent nor the user slips.
 */
import { declaredResult } from '../../src/core/agent/declarative-tools';
import { DEFAULT_MAX_USER_TURNS } from '../../src/core/agent/agent-item';
import { combineChecks, expectedCallChecks, forbiddenCallCheck, outOfTurnsCheck } from '../../src/core/agent/trajectory-checks';
import type { TrajectoryEntry } from '../../src/core/agent/trajectory';
import type { DatasetItem } from '../../src/core/dataset/dataset-types';
import { scoreResponse } from '../../src/core/scoring/scoring';
import { renderRollout, type RolloutTemplate } from '../../src/core/config/templates';
import type { ToolStep } from './agentic-agent';
import { conversationAction } from './conversation-agent';
import { goalReply } from './simulated-user';

export function conversationEpisode(skill: string, item: DatasetItem, template: RolloutTemplate, maxTurns = 8): { hard: number; entries: TrajectoryEntry[] } {
  const prompts = renderRollout(template, skill, item);
  const user = item.agent!.user!;
  const max = user.maxTurns ?? DEFAULT_MAX_USER_TURNS;
  const userMessages = [prompts.user];
  const history: ToolStep[] = [];
  const entries: TrajectoryEntry[] = [];
  let answer: string | null = null;
  let turn = 0;
  for (let exchangeTurns = 0; exchangeTurns < maxTurns; exchangeTurns++) {
    const reply = conversationAction({ system: prompts.system, userMessages, history, tools: ['search_orders', 'refund', 'update_address'] });
    turn++;
    if ('toolCalls' in reply) {
      const c = reply.toolCalls[0];
      const args = c.arguments as Record<string, unknown>;
      entries.push({ kind: 'assistant', turn, content: '', toolCalls: [{ id: `t${turn}`, name: c.name, arguments: JSON.stringify(args) }] });
      const result = declaredResult(item.agent?.toolResults, c.name, args);
      entries.push({ kind: 'tool', turn, callId: `t${turn}`, name: c.name, arguments: JSON.stringify(args), result });
      history.push({ name: c.name, args, result });
      continue;
    }
    entries.push({ kind: 'assistant', turn, content: reply.content });
    const message = userMessages.length + 1;
    const r = goalReply(user.goal, reply.content, message > max);
    const end = r.status === 'continue' ? (message > max ? 'limit' : undefined) : r.status;
    entries.push({ kind: 'user', message, content: r.message, ...(end ? { end } : {}) });
    if (end) {
      answer = reply.content;
      break;
    }
    userMessages.push(r.message);
    exchangeTurns = -1;
  }
  const checks = [
    answer === null ? outOfTurnsCheck(entries, maxTurns) : scoreResponse({ kind: 'exact' }, answer, item),
    ...expectedCallChecks(entries, item.agent?.expectedToolCalls),
    ...forbiddenCallCheck(entries, item.agent?.forbiddenToolCalls),
  ];
  return { hard: combineChecks(checks).hard, entries };
}
