/**
 * The agentic world offline (issue #30): one trajectory of the simulated agent (agentic-agent.ts)
 * against an item's environment — the declared tool results and the skill package's read_file —
 * scored as the engine scores it (the exact scorer on the final answer, the expected and
 * forbidden calls, running out of turns), with the engine's own pure pieces (core/agent). The
 * quality bench's held-out figure is this, without noise: what the kept skill earns when the
 * agent does not slip.
 */
import { declaredResult } from '../../src/core/agent/declarative-tools';
import { READ_FILE, READ_FILE_TOOL, onDemandSkill, readSkillFile } from '../../src/core/agent/references-on-demand';
import { mergeTools, type ToolSpec } from '../../src/core/agent/tool-spec';
import { combineChecks, expectedCallChecks, forbiddenCallCheck, outOfTurnsCheck, type CheckResult } from '../../src/core/agent/trajectory-checks';
import type { TrajectoryEntry } from '../../src/core/agent/trajectory';
import type { DatasetItem } from '../../src/core/dataset/dataset-types';
import { scoreResponse } from '../../src/core/scoring/scoring';
import { renderRollout, type RolloutTemplate } from '../../src/core/config/templates';
import { agentAction, replyText, type AgentAction, type AgentRequest, type ToolStep } from './agentic-agent';

export interface EpisodeSetting {
  template: RolloutTemplate;
  /** The dataset's tools (the items' own are added). */
  tools: readonly ToolSpec[];
  maxTurns: number;
  referencesOnDemand: boolean;
  contextLimit?: number;
}

export interface Episode {
  entries: TrajectoryEntry[];
  answer: string | null;
  turns: number;
  hard: number;
  soft: number;
  failReason?: string;
}

/** Run one trajectory of `act` (by default the agent without noise) and score it. */
export function runEpisode(skill: string, item: DatasetItem, s: EpisodeSetting, act: (r: AgentRequest) => AgentAction = (r) => agentAction(r)): Episode {
  const files = s.referencesOnDemand ? onDemandSkill(skill) : null;
  const tools = mergeTools(files ? [READ_FILE_TOOL] : [], s.tools, item.agent?.tools);
  const names = tools.map((t) => t.name);
  const prompts = renderRollout(s.template, files?.promptSkill ?? skill, item, s.contextLimit);
  const entries: TrajectoryEntry[] = [];
  const history: ToolStep[] = [];
  let answer: string | null = null;
  for (let turn = 1; turn <= s.maxTurns && answer === null; turn++) {
    const action = act({ system: prompts.system, user: prompts.user, tools: names, history });
    if ('answer' in action) {
      answer = replyText(action);
      entries.push({ kind: 'assistant', turn, content: answer });
      break;
    }
    const calls = action.calls.map((c, i) => ({ id: `call_${turn}_${i + 1}`, name: c.name, arguments: JSON.stringify(c.args) }));
    entries.push({ kind: 'assistant', turn, content: '', toolCalls: calls });
    action.calls.forEach((c, i) => {
      const result = !names.includes(c.name)
        ? `Error: unknown tool ${c.name}`
        : c.name === READ_FILE && files
          ? readSkillFile(files, c.args).result
          : declaredResult(item.agent?.toolResults, c.name, c.args);
      entries.push({ kind: 'tool', turn, callId: calls[i].id, name: c.name, arguments: calls[i].arguments, result });
      history.push({ name: c.name, args: c.args, result });
    });
  }
  const turns = entries.filter((e) => e.kind === 'assistant').length;
  const checks: CheckResult[] = [];
  if (answer === null) checks.push(outOfTurnsCheck(entries, s.maxTurns));
  else {
    const r = scoreResponse({ kind: 'exact' }, answer, item);
    checks.push({ hard: r.hard, soft: r.soft, ...(r.failReason ? { failReason: `turn ${turns}: ${r.failReason}` } : {}) });
  }
  checks.push(...expectedCallChecks(entries, item.agent?.expectedToolCalls), ...forbiddenCallCheck(entries, item.agent?.forbiddenToolCalls));
  return { entries, answer, turns, ...combineChecks(checks) };
}

/** Mean hard score and mean turns of a skill on some items, the agent not slipping. */
export function agenticAccuracy(skill: string, items: readonly DatasetItem[], s: EpisodeSetting): { accuracy: number; turns: number } {
  const runs = items.map((item) => runEpisode(skill, item, s));
  const mean = (f: (e: Episode) => number) => (runs.length ? runs.reduce((a, e) => a + f(e), 0) / runs.length : 0);
  return { accuracy: mean((e) => e.hard), turns: mean((e) => e.turns) };
}
