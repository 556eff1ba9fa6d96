/**
 * Where an agent's tools and state come from (issue #30; DESIGN §7c), one contract for all, as
 * SkillOpt's SkillEnv: the tools a rollout is offered, a fresh episode per trajectory (`reset`),
 * each call answered (`call`), and optionally a score of the whole episode. The engine answers
 * declared tools (the dataset's `tool_results`) and the package's `read_file` itself; a host
 * brings the rest (a user's environment module, MCP servers) through `ToolEnvironment`.
 */
import type { CheckResult } from '../core/agent/trajectory-checks';
import type { ToolSpec } from '../core/agent/tool-spec';
import type { DatasetItem } from '../core/dataset/dataset-types';
import type { ChatMessage } from './ports';
import { PauseError } from './pause';

/** A tool's answer: its text for the model, and whether the tool failed (the agent's problem). */
export interface ToolOutcome {
  result: string;
  error?: true;
}

/** One trajectory's episode of an environment: its state lives behind it. */
export interface EnvEpisode {
  call(name: string, args: Record<string, unknown>): Promise<ToolOutcome>;
  /** The environment's own verdict on the episode, when it has one. */
  score?(x: { messages: readonly ChatMessage[]; answer: string | null }): Promise<CheckResult | null>;
  close(): Promise<void>;
}

/**
 * An environment a host provides. A tool that throws is the agent's problem (its error text goes
 * back to the model); an environment that fails (cannot load, dies, times out) throws
 * `EnvironmentError`, which pauses the run: it is never scored as the agent's failure.
 */
export interface ToolEnvironment {
  /** For messages, e.g. "environment module shop.mjs". */
  readonly label: string;
  /** Part of the rollout cache key: a changed environment never reuses another's rollouts. */
  readonly identity: string;
  /**
   * On resume, an episode is rebuilt by calling again the calls the checkpoint holds (their
   * recorded results stay the ones the model saw). False for tools with side effects elsewhere.
   */
  readonly replayOnResume: boolean;
  tools(): Promise<ToolSpec[]>;
  open(item: DatasetItem): Promise<EnvEpisode>;
  /** Let go of what it holds (a worker, connections) when the host is done with it. */
  dispose?(): void;
}

export class EnvironmentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EnvironmentError';
  }
}

export const isEnvironmentError = (e: unknown): e is EnvironmentError =>
  e instanceof Error && e.name === 'EnvironmentError';

/** An environment's failure pauses the run with its reason; it is never the agent's failure. */
export async function envCall<T>(env: Pick<ToolEnvironment, 'label'> | undefined, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (isEnvironmentError(e)) {
      const label = env?.label ?? 'the environment';
      throw new PauseError('environment', `${label} failed: ${e.message}. Nothing was scored; resume when it works.`);
    }
    throw e;
  }
}
