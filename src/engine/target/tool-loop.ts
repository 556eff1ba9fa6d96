/**
 * The tool loop as a target — an agent's rollout (issue #30; DESIGN §7c): the skill is the system prompt, the environment's
 * tools go in `tools`, and each reply's `tool_calls` are answered with tool messages until the
 * target answers without a call or `maxTurns` runs out. Every model turn and each turn's tool
 * results are a checkpoint (an artifact under the rollout's cache key), so a run killed
 * mid-trajectory resumes without asking a finished turn again; calls within a turn are answered
 * in order (under tool-limits.ts), so the result is the same at any concurrency. A tool that fails is the agent's problem (its error
 * goes back to the model); an environment that fails pauses the run.
 */
import {
  READ_FILE,
  READ_FILE_TOOL,
  onDemandSkill,
  readSkillFile,
  type OnDemandSkill,
} from '../../core/agent/references-on-demand';
import { declaredResult } from '../../core/agent/declarative-tools';
import { mergeTools, type ToolSpec } from '../../core/agent/tool-spec';
import { parseArguments } from '../../core/agent/tool-match';
import { finalAnswerOf, type ToolEntry, type TrajectoryEntry } from '../../core/agent/trajectory';
import type { DatasetItem } from '../../core/dataset/dataset-types';
import { renderRollout } from '../../core/config/templates';
import { callStageOfPhase, priceTagOfPhase } from '../../core/config/stages';
import { turnLimit } from '../../core/config/run-config';
import { envCall, type EnvEpisode, type ToolEnvironment, type ToolOutcome } from '../environment';
import { userTurn } from './simulated-user';
import { getCheckpoint, putCheckpoint, type Checkpoints } from '../artifacts';
import { checkpointKey } from '../keys';
import type { TargetDeps, TargetJob, TargetRun } from '../target-port';
import { meteredCall, replyNotes } from './metered-call';
import type { ChatMessage, LlmResponse, LlmUsage, ToolCallRequest } from '../ports';
import { keptArguments, limitedAnswer } from '../tool-limits';

const ZERO: LlmUsage = { promptTokens: 0, completionTokens: 0, reasoningTokens: 0 };
const addUsage = (a: LlmUsage, b: LlmUsage): LlmUsage => ({
  promptTokens: a.promptTokens + b.promptTokens,
  completionTokens: a.completionTokens + b.completionTokens,
  reasoningTokens: a.reasoningTokens + b.reasoningTokens,
});

/** The skill, the item and the tools a trajectory runs with. */
export interface AgentSetting {
  /** The prompt's skill text (for references on demand: SKILL.md and its file list). */
  promptSkill: string;
  tools: ToolSpec[];
  files: OnDemandSkill | null;
}

/** What one skill offers the agent on one item; no tools means a single-call rollout. */
export function agentSetting(
  ctx: Pick<TargetDeps, 'config' | 'agent'>,
  skill: string,
  item: DatasetItem,
): AgentSetting {
  const files = ctx.config.referencesOnDemand ? onDemandSkill(skill, ctx.agent.packageFiles) : null;
  const tools = mergeTools(
    files ? [READ_FILE_TOOL] : [],
    ctx.agent.environmentTools,
    ctx.agent.datasetTools,
    item.agent?.tools,
  );
  return { promptSkill: files?.promptSkill ?? skill, tools, files };
}

/** The trajectory so far, as a checkpoint holds it (engine/artifacts.ts). */
type Checkpoint = Checkpoints['trajectory'];

/** The conversation of a trajectory: system, user, then each turn, its tool messages and the user's replies. */
export function messagesOf(system: string, user: string, entries: readonly TrajectoryEntry[]): ChatMessage[] {
  const out: ChatMessage[] = [
    { role: 'system', content: system },
    { role: 'user', content: user },
  ];
  for (const e of entries) {
    if (e.kind === 'assistant')
      out.push({
        role: 'assistant',
        content: e.content,
        ...(e.toolCalls?.length ? { toolCalls: e.toolCalls } : {}),
        ...(e.reasoning?.length ? { reasoning: e.reasoning } : {}),
      });
    else if (e.kind === 'tool') out.push({ role: 'tool', toolCallId: e.callId, content: e.result });
    // A simulated user's message; its closing words (the conversation ended) are not sent.
    else if (!e.end) out.push({ role: 'user', content: e.content });
  }
  return out;
}

/** Run (or continue) one trajectory. LlmErrors propagate: the caller makes the row. */
export async function runAgent(
  ctx: TargetDeps,
  a: { item: DatasetItem; setting: AgentSetting; cacheKey: string; phase: string },
): Promise<TargetRun & { entries: TrajectoryEntry[] }> {
  const { item, setting } = a;
  const maxTurns = turnLimit(ctx.config);
  const prompts = renderRollout(ctx.rolloutTemplate, setting.promptSkill, item, ctx.config.rollout.contextLimit);
  const cp = await resumedTrajectory(ctx, a.cacheKey, a.phase);
  const envTools = new Set(ctx.agent.environmentTools.map((t) => t.name));
  const env = ctx.agent.environment;
  const user = item.agent?.user;
  const needsEpisode = env && setting.tools.some((t) => envTools.has(t.name));
  const episode = needsEpisode ? await envCall(env, () => env.open(item)) : null;
  const notes: string[] = [];
  try {
    // A resumed trajectory rebuilds its environment's state by calling again what it called.
    if (episode && env?.replayOnResume)
      for (const e of cp.entries)
        if (e.kind === 'tool' && envTools.has(e.name) && !e.error)
          await envCall(env, () => episode.call(e.name, parsedOrEmpty(e.arguments)));

    const answerCall = toolAnswers({ item, setting, envTools, env, episode });
    const save = () => {
      ctx.meter.noteCheckpoint(checkpointKey('trajectory', a.cacheKey));
      return putCheckpoint(ctx.store, ctx.runId, 'trajectory', a.cacheKey, cp);
    };

    for (;;) {
      const last = cp.entries[cp.entries.length - 1];
      if (last?.kind === 'user' && last.end) break; // the simulated user ended the conversation
      if (last?.kind === 'assistant' && !last.toolCalls?.length) {
        if (!user) break; // answered
        // A simulated user reads the answer and replies, or ends the conversation (issue #31).
        cp.entries.push(await userTurn(ctx, { item, user, entries: cp.entries, cacheKey: a.cacheKey }));
        await save();
        continue;
      }
      if (last?.kind === 'assistant' || last?.kind === 'tool') {
        // Answer the calls of the last turn that are still unanswered, in order.
        const { turn, asked, pending } = unanswered(cp.entries);
        if (pending.length) {
          // One checkpoint for the turn's answers (issue #39 M4): a resume asks at most this turn again.
          for (const next of pending) {
            const index = asked.indexOf(next);
            const out = await limitedAnswer(index, next.arguments, () => answerCall(next.name, next.arguments));
            cp.entries.push(toolEntry(turn.turn, next, out));
          }
          await save();
          continue;
        }
        if (turnsSinceUser(cp.entries) >= maxTurns) break; // out of turns (for this user message)
      }
      const turnNo = cp.entries.filter((e) => e.kind === 'assistant').length + 1;
      const messages = messagesOf(prompts.system, prompts.user, cp.entries);
      const res = await targetTurn(ctx, a.phase, messages, setting.tools);
      cp.usage = addUsage(cp.usage, res.usage);
      notes.push(...replyNotes(ctx, res));
      cp.entries.push(assistantEntry(turnNo, res));
      await save();
    }
    const answer = finalAnswerOf(cp.entries);
    // A finished row keeps what the agent did, not its provider's opaque reasoning.
    const entries = cp.entries.map((e) => (e.kind === 'assistant' && e.reasoning ? withoutReasoning(e) : e));
    return {
      entries,
      answer,
      usage: cp.usage,
      messages: messagesOf(prompts.system, prompts.user, entries),
      episode,
      notes,
      checkpointed: true,
    };
  } catch (e) {
    await episode?.close().catch(() => undefined);
    throw e;
  }
}

/**
 * Who answers a tool call: an unknown tool or bad arguments are the agent's error; `read_file`
 * reads the skill's package (unless the environment serves it); the environment's own tools go
 * to its episode; any other tool answers with the item's declared result.
 */
function toolAnswers(o: {
  item: DatasetItem;
  setting: AgentSetting;
  envTools: ReadonlySet<string>;
  env: ToolEnvironment | undefined;
  episode: EnvEpisode | null;
}): (name: string, argsText: string) => Promise<ToolOutcome> {
  const { item, setting, envTools, env, episode } = o;
  const offered = new Set(setting.tools.map((t) => t.name));
  return async (name, argsText) => {
    if (!offered.has(name)) return { result: `Error: unknown tool ${name}`, error: true };
    const parsed = parseArguments(argsText);
    if (!parsed.ok) return { result: `Error: ${parsed.error}`, error: true };
    if (name === READ_FILE && setting.files && !envTools.has(READ_FILE))
      return readSkillFile(setting.files, parsed.args);
    if (episode && env && envTools.has(name)) return envCall(env, () => episode.call(name, parsed.args));
    return { result: declaredResult(item.agent?.toolResults, name, parsed.args) };
  };
}

/** A tool call's answer as the trajectory keeps it. */
function toolEntry(turn: number, call: ToolCallRequest, out: ToolOutcome): TrajectoryEntry {
  return {
    kind: 'tool',
    turn,
    callId: call.id,
    name: call.name,
    arguments: call.arguments,
    result: out.result,
    ...(out.error ? { error: true as const } : {}),
  };
}

/** A model turn as the trajectory keeps it: its text and calls — and its reasoning, which goes back with its calls. */
function assistantEntry(turn: number, res: LlmResponse): TrajectoryEntry {
  return {
    kind: 'assistant',
    turn,
    content: res.text,
    ...(res.toolCalls?.length ? { toolCalls: uniqueIds(res.toolCalls, turn) } : {}),
    // The Responses API: the next turn reasons on from this one's reasoning items.
    ...(res.reasoning?.length ? { reasoning: res.reasoning } : {}),
  };
}

function withoutReasoning(e: Extract<TrajectoryEntry, { kind: 'assistant' }>): TrajectoryEntry {
  const { reasoning: _dropped, ...kept } = e;
  return kept;
}

/** The trajectory so far from its checkpoint, or a new one. */
async function resumedTrajectory(ctx: TargetDeps, cacheKey: string, phase: string): Promise<Checkpoint> {
  const saved = await getCheckpoint(ctx.store, ctx.runId, 'trajectory', cacheKey);
  if (!saved) return { entries: [], usage: ZERO };
  // Turns a crashed session made are in no row: a meter rebuilt from the rows counts them here, once.
  const turns = saved.entries.filter((e) => e.kind === 'assistant').length;
  ctx.meter.addCheckpointed(
    checkpointKey('trajectory', cacheKey),
    callStageOfPhase(phase),
    'target',
    saved.usage,
    turns,
    priceTagOfPhase(phase),
  );
  return { entries: [...saved.entries], usage: saved.usage };
}

/** The last model turn, the calls it asked for, and those not answered yet. */
function unanswered(entries: readonly TrajectoryEntry[]) {
  const turn = [...entries].reverse().find((e) => e.kind === 'assistant')!;
  const asked = turn.kind === 'assistant' ? (turn.toolCalls ?? []) : [];
  const answered = new Set(
    entries.filter((e) => e.kind === 'tool' && e.turn === turn.turn).map((e) => (e as ToolEntry).callId),
  );
  return { turn, asked, pending: asked.filter((c) => !answered.has(c.id)) };
}

/** Model turns since the last user message: `maxTurns` limits each of a conversation's exchanges. */
function turnsSinceUser(entries: readonly TrajectoryEntry[]): number {
  let n = 0;
  for (let i = entries.length - 1; i >= 0 && entries[i].kind !== 'user'; i--) if (entries[i].kind === 'assistant') n++;
  return n;
}

/** Call ids must be unique within a trajectory for the tool messages to answer the right call. */
function uniqueIds(calls: NonNullable<LlmResponse['toolCalls']>, turn: number) {
  const seen = new Set<string>();
  return calls.map((c, i) => {
    const id = !c.id || seen.has(c.id) ? `t${turn}_${i + 1}` : c.id;
    seen.add(id);
    return { id, name: c.name, arguments: keptArguments(c.arguments) };
  });
}

function parsedOrEmpty(text: string): Record<string, unknown> {
  const p = parseArguments(text);
  return p.ok ? p.args : {};
}

/** One model turn: a target call under a slot, metered like any rollout call. */
async function targetTurn(
  ctx: TargetDeps,
  phase: string,
  messages: ChatMessage[],
  tools: ToolSpec[],
): Promise<LlmResponse> {
  ctx.onCall();
  return ctx.slots.target.run(() => {
    const chars = messages.reduce((n, m) => n + m.content.length, 0) + JSON.stringify(tools).length;
    return meteredCall(ctx, phase, chars, () =>
      ctx.llm.complete({ role: 'target', stage: 'rollout', messages, tools, signal: ctx.signal }),
    );
  });
}

/**
 * The tool loop as the target: an item whose skill offers tools, or that talks with a simulated
 * user, is an agent's trajectory; any other item is one chat call (`single`).
 */
export function toolLoop(job: TargetJob, deps: TargetDeps, single: () => Promise<TargetRun>): Promise<TargetRun> {
  const setting = agentSetting(deps, job.skill, job.item);
  // A conversation with a simulated user is an agent's rollout too, tools or not (issue #31).
  if (!setting.tools.length && !job.item.agent?.user) return single();
  return runAgent(deps, { item: job.item, setting, cacheKey: job.cacheKey, phase: job.phase });
}
