/**
 * One optimizer call, memoised by a deterministic key (and checked against a hash of its
 * request) so that a resumed run never repeats a finished call nor replays one asked differently. The reply is parsed with the core's JSON extractor; an unusable reply is a
 * finished call too (its stage falls back, §2.10). Transport failures are not memoised: they
 * are retried on resume, and fatal ones (bad key, unknown model) stop the run.
 */
import { bundlePaths, hasFileSections } from '../core/skill/skill-package';
import { extractJsonObject, type JsonObject } from '../core/basics/json-extract';
import { skillHash } from '../core/basics/hash';
import { renderTemplate } from '../core/config/templates';
import type { EngineContext } from './context';
import { isLlmError, LlmError, type LlmResponse } from './ports';
import { PauseError } from './pause';
import { callStageOfPrompt } from '../core/config/stages';
import type { PromptName } from './prompts';
import { STAGE_SCHEMAS } from './schemas';
import type { OptimizerCallRecord } from './types';

/** Who answers a prompt: the judge and the user simulator have their own roles (and endpoints). */
export function roleOfPrompt(prompt: string): 'optimizer' | 'judge' | 'userSimulator' {
  return prompt === 'judge' ? 'judge' : prompt === 'user_simulator' ? 'userSimulator' : 'optimizer';
}

export interface OptimizerResult {
  /** The parsed JSON object, or null when the reply held none (or the call errored). */
  json: JsonObject | null;
  /** The call failed in transport after its retries (not memoised). */
  error?: LlmError;
  replayed: boolean;
}

export async function callOptimizer(
  ctx: EngineContext,
  key: string,
  prompt: PromptName,
  /** The prompt's values, or a function building them once the call holds a slot (big prompts). */
  values: Record<string, string> | (() => Record<string, string>),
  role: 'optimizer' | 'judge' | 'userSimulator' = 'optimizer',
  /**
   * Which replies are finished calls, memoised for replay. By default every reply is (an
   * unusable one makes its stage fall back); the judge memoises only verdicts, so a reply
   * without one is asked again later instead of replayed for ever.
   */
  memoise: (json: JsonObject | null) => boolean = () => true,
  /** The response schema, when it differs from the prompt's own (an analyst asked for reminders too). */
  schema: Record<string, unknown> | undefined = STAGE_SCHEMAS[prompt],
): Promise<OptimizerResult> {
  return ctx.slots[role].run(() =>
    send(ctx, key, prompt, typeof values === 'function' ? values() : values, role, memoise, schema),
  );
}

/** Build the prompt, replay its memo or ask, and record the reply (the caller holds a slot). */
async function send(
  ctx: EngineContext,
  key: string,
  prompt: PromptName,
  values: Record<string, string>,
  role: 'optimizer' | 'judge' | 'userSimulator',
  memoise: (json: JsonObject | null) => boolean,
  schema: Record<string, unknown> | undefined,
): Promise<OptimizerResult> {
  const usageStage = callStageOfPrompt(prompt);
  const tpl = ctx.prompts[prompt];
  // Agents' runs tell the prompts so: `{{#agent}}` sections say how to read a trajectory.
  const filled = withPackageValues(
    ctx.agent.active && values.agent === undefined ? { ...values, agent: 'yes' } : values,
  );
  const system = renderTemplate(tpl.system, filled).trim();
  const user = renderTemplate(tpl.user, filled).trim();
  // A memoised reply is replayed only for the very same request: a resumed run whose inputs
  // differ (another merge order, an edited prompt) asks again instead of reusing a stale answer.
  const inputHash = await skillHash(`${prompt}\u0000${system}\u0000${user}`);
  const memo = await ctx.store.getCall(ctx.runId, key);
  if (memo && (memo.inputHash === undefined || memo.inputHash === inputHash))
    return { json: memo.parsed as JsonObject | null, replayed: true };
  const reservation = ctx.meter.reserve(role, system.length + user.length);
  const started = ctx.now();
  let settled = false;
  try {
    const res = await ctx.llm.complete({
      role,
      stage: prompt,
      messages: [
        { role: 'system', content: system },
        { role: 'user', content: user },
      ],
      jsonSchema: schema ? { name: prompt, schema } : undefined,
      signal: ctx.signal,
    });
    ctx.meter.settle(reservation, usageStage, res.usage);
    settled = true;
    const note = res.usageEstimated ? ctx.meter.noteEstimated() : null;
    if (note) ctx.emit({ type: 'log', level: 'warn', message: note });
    const json = await keepReply(ctx, { key, prompt, inputHash, user, res, started, memoise });
    return { json, replayed: false };
  } catch (e) {
    // A failed call that still used tokens (a reply cut off empty) is billed: count it.
    if (!settled) {
      if (isLlmError(e) && e.usage) ctx.meter.settle(reservation, usageStage, e.usage);
      else ctx.meter.release(reservation);
    }
    if (!isLlmError(e)) throw e;
    if (e.kind === 'aborted') throw e;
    if (e.fatal) throw new PauseError('llm_fatal', e.message);
    ctx.emit({ type: 'log', level: 'warn', message: `${key}: ${e.message}` });
    return { json: null, error: e, replayed: false };
  }
}

/**
 * A reply's JSON, recorded as the call's memo when `memoise` says it is a finished call. A reply
 * cut off by the output limit is dropped, never "repaired" into partial edits; one without
 * usable JSON is said in the log (the stage falls back).
 */
async function keepReply(
  ctx: EngineContext,
  c: {
    key: string;
    prompt: PromptName;
    inputHash: string;
    user: string;
    res: LlmResponse;
    started: number;
    memoise: (json: JsonObject | null) => boolean;
  },
): Promise<JsonObject | null> {
  const { key, prompt, inputHash, user, res, started, memoise } = c;
  const truncated = res.finishReason === 'length';
  const json = truncated ? null : extractJsonObject(res.text);
  const record: OptimizerCallRecord = {
    runId: ctx.runId,
    key,
    stage: prompt,
    inputHash,
    requestPreview: user.slice(0, 2000),
    raw: res.text,
    parsed: json,
    ok: json !== null,
    usage: res.usage,
    latencyMs: ctx.now() - started,
    ...(truncated
      ? { error: { kind: 'truncated', message: 'The reply was cut off by the output token limit and was dropped.' } }
      : {}),
  };
  if (memoise(json)) await ctx.store.putCall(record);
  if (truncated)
    ctx.emit({
      type: 'log',
      level: 'warn',
      message: `${key}: the optimizer's reply was cut off by its output token limit and was dropped (raise "Optimizer max output tokens" on Connect); falling back.`,
    });
  else if (!json)
    ctx.emit({
      type: 'log',
      level: 'warn',
      message: `${key}: the optimizer's reply held no usable JSON; falling back.`,
    });
  return json;
}

/** Pause when too many calls of one stage failed in transport (errors are not model output). */
export function checkErrorRate(ctx: EngineContext, stage: string, results: readonly OptimizerResult[]): void {
  if (!results.length) return;
  const errors = results.filter((r) => r.error);
  if (errors.length / results.length > ctx.config.maxErrorRate) {
    throw new PauseError(
      'error_rate',
      `${errors.length} of ${results.length} ${stage} calls failed after retries (last: ${errors[errors.length - 1].error!.message}). The run is paused; resume when the endpoint is healthy.`,
    );
  }
}

/**
 * A skill package (core/skill/skill-package.ts) tells the prompts so: `{{#package}}` sections explain
 * the file markers and the edits' "file" key, and `{{package_files}}` lists the files. A single
 * `.md` skill leaves both empty, so its prompts are the reference's, byte for byte.
 */
function withPackageValues(values: Record<string, string>): Record<string, string> {
  if (values.package !== undefined || !values.skill || !hasFileSections(values.skill)) return values;
  return { ...values, package: 'yes', package_files: bundlePaths(values.skill).join(', ') };
}
