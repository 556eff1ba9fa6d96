/**
 * The trainer's side of an environment module's sandbox (issue #39): the module's contract
 * (ModuleHostApi) as requests over a MessagePort to module.worker.ts, which runs in an opaque
 * origin. Whatever comes back is someone else's code talking: a reply is read as plain data and
 * checked against the contract, and anything else on the port is ignored — nothing is served on
 * it, so the module reaches nothing of the trainer's.
 */
import { readToolSpecs, type ToolSpec } from '../core/agent/tool-spec';
import type { ToolOutcome } from '../engine/environment';
import type { ModuleHostApi } from '../engine/module-environment';

export type SandboxOp = 'load' | 'describe' | 'reset' | 'call' | 'score' | 'close';
export interface SandboxRequest {
  id: number;
  op: SandboxOp;
  args: unknown[];
}
export type SandboxReply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: string };

/** The module's contract, and loading it from its source first. */
export interface SandboxedHost extends ModuleHostApi {
  load(source: string): Promise<void>;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
/** A module's own words (an error, a reason) are kept short: they reach the screen and the store. */
const MAX_TEXT = 2000;

function unlike(what: string): never {
  throw new Error(`its worker answered ${what} with something else`);
}

function describeOf(v: unknown): { name: string; tools: ToolSpec[]; scores: boolean } {
  if (!isRecord(v) || typeof v.name !== 'string' || typeof v.scores !== 'boolean') unlike('{name, tools, scores}');
  const tools = readToolSpecs(v.tools);
  if (tools.problems.length) throw new Error(`its tools: ${tools.problems.join('; ')}`);
  return { name: v.name.slice(0, 200), tools: tools.tools, scores: v.scores };
}

function outcomeOf(v: unknown): ToolOutcome {
  if (!isRecord(v) || typeof v.result !== 'string') unlike('a tool result {result}');
  return { result: v.result, ...(v.error === true ? { error: true as const } : {}) };
}

function scoreOf(v: unknown): { hard: number; soft?: number; failReason?: string } | null {
  if (v === null) return null;
  if (!isRecord(v) || !finite(v.hard) || (v.soft !== undefined && !finite(v.soft)))
    unlike('a score {hard, soft?, failReason?} of numbers');
  return {
    hard: v.hard,
    ...(finite(v.soft) ? { soft: v.soft } : {}),
    ...(typeof v.failReason === 'string' ? { failReason: v.failReason.slice(0, MAX_TEXT) } : {}),
  };
}

export function sandboxedHost(port: MessagePort): SandboxedHost {
  let next = 0;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  port.onmessage = ({ data }: MessageEvent<unknown>) => {
    if (!isRecord(data) || typeof data.id !== 'number') return;
    const p = pending.get(data.id);
    if (!p) return;
    pending.delete(data.id);
    if (data.ok === true) p.resolve(data.value);
    else p.reject(new Error(typeof data.error === 'string' ? data.error.slice(0, MAX_TEXT) : 'it failed'));
  };
  const ask = (op: SandboxOp, ...args: unknown[]) =>
    new Promise<unknown>((resolve, reject) => {
      const id = ++next;
      pending.set(id, { resolve, reject });
      port.postMessage({ id, op, args } satisfies SandboxRequest);
    });
  return {
    load: async (source) => void (await ask('load', source)),
    describe: async () => describeOf(await ask('describe')),
    reset: async (episode, item) => void (await ask('reset', episode, item)),
    call: async (episode, name, args) => outcomeOf(await ask('call', episode, name, args)),
    score: async (episode, messages, answer) => scoreOf(await ask('score', episode, messages, answer)),
    close: async (episode) => void (await ask('close', episode)),
  };
}
