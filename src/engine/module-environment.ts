/**
 * An environment module (issue #30): a user's ES module whose default export is
 * `{ name, tools, reset?(item) → state, call(name, args, state, item) → result,
 *    score?({item, messages, answer, state}) → {hard, soft, failReason?} }`.
 * `moduleHost` serves one inside its own worker (the page's module worker, the runner's worker
 * thread), holding each episode's state; `remoteEnvironment` is the engine's side of it, with a
 * time limit on every request, so a module that hangs or dies pauses the run instead of
 * freezing it. The module's worker holds no key and no store.
 */
import { readToolSpecs, type ToolSpec } from '../core/agent/tool-spec';
import type { DatasetItem } from '../core/dataset/dataset-types';
import { EnvironmentError, type EnvEpisode, type ToolEnvironment, type ToolOutcome } from './environment';
import type { ChatMessage } from './ports';

/** What a module's worker answers: the module's contract as plain, cloneable requests. */
export interface ModuleHostApi {
  describe(): Promise<{ name: string; tools: ToolSpec[]; scores: boolean }>;
  reset(episode: string, item: ModuleItem): Promise<void>;
  call(episode: string, name: string, args: Record<string, unknown>): Promise<ToolOutcome>;
  score(
    episode: string,
    messages: unknown[],
    answer: string | null,
  ): Promise<{ hard: number; soft?: number; failReason?: string } | null>;
  close(episode: string): Promise<void>;
}

/** An item as a module sees it: its own fields as written, and the normalised id, question and answers. */
export type ModuleItem = Record<string, unknown> & { id: string; question: string; answers: string[] };

export function moduleItemOf(item: DatasetItem): ModuleItem {
  return { ...item.fields, id: item.id, question: item.question, answers: item.answers };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const seconds = (ms: number) => (ms < 10_000 ? String(Math.round(ms / 100) / 10) : String(Math.round(ms / 1000)));
const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** What is wrong with a module's default export, or null when it keeps the contract. */
export function moduleProblem(def: unknown): string | null {
  if (!isRecord(def)) return 'its default export must be an object { name, tools, reset?, call, score? }';
  if (typeof def.name !== 'string' || !def.name.trim()) return 'its default export needs a name (text)';
  if (typeof def.call !== 'function') return 'its default export needs call(name, args, state, item)';
  for (const k of ['reset', 'score'] as const)
    if (def[k] !== undefined && typeof def[k] !== 'function') return `its ${k} must be a function`;
  const tools = readToolSpecs(def.tools);
  if (tools.problems.length) return `its tools: ${tools.problems.join('; ')}`;
  if (!tools.tools.length) return 'it offers no tools';
  return null;
}

/** Serve a loaded module's default export; throws EnvironmentError when it breaks the contract. */
export function moduleHost(def: unknown): ModuleHostApi {
  const problem = moduleProblem(def);
  if (problem) throw new EnvironmentError(`the environment module does not keep the contract: ${problem}`);
  const mod = def as {
    name: string;
    tools: unknown[];
    reset?: (item: ModuleItem) => unknown;
    call: (name: string, args: unknown, state: unknown, item: ModuleItem) => unknown;
    score?: (x: { item: ModuleItem; messages: unknown[]; answer: string | null; state: unknown }) => unknown;
  };
  const episodes = new Map<string, { item: ModuleItem; state: unknown }>();
  const episode = (id: string) => {
    const e = episodes.get(id);
    if (!e) throw new EnvironmentError(`episode ${id} is not open`);
    return e;
  };
  return {
    async describe() {
      return { name: mod.name, tools: readToolSpecs(mod.tools).tools, scores: typeof mod.score === 'function' };
    },
    async reset(id, item) {
      let state: unknown;
      try {
        state = mod.reset ? await mod.reset(structuredClone(item)) : undefined;
      } catch (e) {
        throw new EnvironmentError(`its reset threw: ${message(e)}`);
      }
      episodes.set(id, { item, state });
    },
    async call(id, name, args) {
      const e = episode(id);
      try {
        const out = await mod.call(name, args, e.state, e.item);
        return { result: typeof out === 'string' ? out : out === undefined ? '' : JSON.stringify(out) };
      } catch (err) {
        // A tool that throws is the agent's problem: its message goes back to the model.
        return { result: `Error: ${message(err)}`, error: true };
      }
    },
    async score(id, messages, answer) {
      const e = episode(id);
      if (!mod.score) return null;
      let s: unknown;
      try {
        s = await mod.score({ item: e.item, messages, answer, state: e.state });
      } catch (err) {
        throw new EnvironmentError(`its score threw: ${message(err)}`);
      }
      if (s === null || s === undefined) return null;
      if (!isRecord(s) || typeof s.hard !== 'number')
        throw new EnvironmentError('its score must return {hard, soft?, failReason?}');
      return {
        hard: s.hard,
        ...(typeof s.soft === 'number' ? { soft: s.soft } : {}),
        ...(typeof s.failReason === 'string' ? { failReason: s.failReason } : {}),
      };
    },
    async close(id) {
      episodes.delete(id);
    },
  };
}

/** Our messages in the chat API's wire form, which a module's score reads. */
export function wireMessages(messages: readonly ChatMessage[]): unknown[] {
  return messages.map((m) =>
    m.role === 'tool'
      ? { role: 'tool', tool_call_id: m.toolCallId, content: m.content }
      : m.role === 'assistant' && m.toolCalls?.length
        ? {
            role: 'assistant',
            content: m.content || null,
            tool_calls: m.toolCalls.map((c) => ({
              id: c.id,
              type: 'function',
              function: { name: c.name, arguments: c.arguments },
            })),
          }
        : { role: m.role, content: m.content },
  );
}

/**
 * The engine's side of a module served elsewhere. Every request has `timeoutMs`; one that runs
 * over, or a host that dies, is an EnvironmentError after `onFailure` (the host's chance to
 * terminate and restart its worker).
 */
export function remoteEnvironment(
  host: () => Promise<ModuleHostApi>,
  o: { label: string; identity: string; timeoutMs: number; onFailure?: () => void; dispose?: () => void },
): ToolEnvironment {
  let next = 0;
  const within = async <T>(what: string, fn: (h: ModuleHostApi) => Promise<T>): Promise<T> => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new EnvironmentError(`${what} did not answer within ${seconds(o.timeoutMs)} s`)),
        o.timeoutMs,
      );
    });
    try {
      return await Promise.race([host().then(fn), late]);
    } catch (e) {
      o.onFailure?.();
      throw e instanceof EnvironmentError ? e : new EnvironmentError(`${what} failed: ${message(e)}`);
    } finally {
      clearTimeout(timer);
    }
  };
  return {
    label: o.label,
    identity: o.identity,
    replayOnResume: true,
    ...(o.dispose ? { dispose: o.dispose } : {}),
    tools: async () => (await within('loading the module', (h) => h.describe())).tools,
    async open(item): Promise<EnvEpisode> {
      const id = `e${++next}`;
      await within('its reset', (h) => h.reset(id, moduleItemOf(item)));
      return {
        call: (name, args) => within(`its call to ${name}`, (h) => h.call(id, name, args)),
        score: async ({ messages, answer }) => {
          const s = await within('its score', (h) => h.score(id, wireMessages(messages), answer));
          return s
            ? { hard: s.hard, soft: s.soft ?? s.hard, ...(s.failReason ? { failReason: s.failReason } : {}) }
            : null;
        },
        close: () => within('closing an episode', (h) => h.close(id)).catch(() => undefined),
      };
    },
  };
}
