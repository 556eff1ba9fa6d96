/**
 * The Target port (issue #41; GEPA's `GEPAAdapter`, "the single integration point"): what the
 * engine asks of whatever is being trained — run this skill on this one item, and say what came
 * of it. The engine does not know what the target is: a chat call (live, or a batch's answer),
 * the tool loop with its environment and simulated user, or an agent CLI in the runner's host.
 * Each is an adapter (engine/target/, and the runner's cli/agent-cli-target.ts), chosen once per
 * run by the run service (service/target.ts); `rolloutOne` is then cached → `run` → score → row.
 * An adapter sees only what it needs (`TargetDeps`), never the whole engine context.
 */
import type { JsonObject } from '../core/basics/json-extract';
import type { CallSlots } from '../core/basics/call-slots';
import type { RunConfig } from '../core/config/run-config';
import type { RolloutTemplate } from '../core/config/templates';
import type { DatasetItem } from '../core/dataset/dataset-types';
import type { TrajectoryEntry } from '../core/agent/trajectory';
import type { ToolSpec } from '../core/agent/tool-spec';
import type { PackageFile } from '../core/skill/skill-package';
import type { CheckOutcome } from '../core/agent/workspace-task';
import type { EnvEpisode, ToolEnvironment } from './environment';
import type { Meter } from './meter';
import type { ChatMessage, LlmError, LlmPort, LlmResponse, LlmUsage, Role, RunStore } from './ports';

/** A batch's answer for one item: what its live call would have returned or thrown. */
export type BatchAnswer = LlmResponse | LlmError;

/** One item for the target: the skill, the item, and the phase and cache key its row is kept under. */
export interface TargetJob {
  skill: string;
  item: DatasetItem;
  phase: string;
  /** The row's cache key; an adapter that checkpoints (the tool loop) keeps its checkpoint under it. */
  cacheKey: string;
  /** The answer a provider's batch already gave for this item (a one-shot phase sent as one batch). */
  batched?: BatchAnswer;
}

/** What the target did with one item: its answer, and for an agent how it got there. */
export interface TargetRun {
  /** The final answer; null when an agent ran out of turns. */
  answer: string | null;
  /** An agent's trajectory (its turns, calls and results); absent for a single answer. */
  entries?: TrajectoryEntry[];
  /** Every call's tokens, earlier sessions' included. */
  usage: LlmUsage;
  /** The conversation as the target last saw it (for an environment's and a judge's scores). */
  messages: ChatMessage[];
  /** The environment's episode, open until the row is scored (the caller closes it). */
  episode: EnvEpisode | null;
  /** Notes for the log: estimated usage, replies cut off. */
  notes: string[];
  /** Its work is checkpointed under the job's cache key until the row is written: drop it then. */
  checkpointed?: true;
  /** The item's check, run in its workspace after the agent (issue #42 item 4): it scores the row. */
  check?: CheckOutcome;
}

/** What an agent's rollouts draw on (issue #30): all empty for a single-call run. */
export interface AgentSetup {
  /** Tools the dataset offers every item (answered from each item's `tool_results`). */
  datasetTools: ToolSpec[];
  /** The package's text files that are not trained, which `read_file` serves too. */
  packageFiles: PackageFile[];
  /** A host's environment (a module, MCP servers), with the tools it offers. */
  environment?: ToolEnvironment;
  environmentTools: ToolSpec[];
  /** Some rollout of this run may be an agent's: such runs are never sent as a batch (multi-turn). */
  active: boolean;
}

/** An optimizer-role call memoised by key (engine/optimizer-call.ts), as a simulated user asks one. */
export type AskModel = (
  key: string,
  prompt: 'user_simulator',
  values: Record<string, string>,
  role: 'userSimulator',
  memoise: (json: JsonObject | null) => boolean,
) => Promise<{ json: JsonObject | null; error?: LlmError }>;

/** What an adapter may use: the ports, the call slots and meter, the run's settings — nothing else. */
export interface TargetDeps {
  runId: string;
  config: RunConfig;
  llm: LlmPort;
  store: RunStore;
  slots: Record<Role, CallSlots>;
  meter: Meter;
  signal: AbortSignal;
  rolloutTemplate: RolloutTemplate;
  agent: AgentSetup;
  /** The simulated user's model, memoised like every optimizer-role call. */
  ask: AskModel;
  /** Called as each target call is made (a batch's answer counts as one; a resumed turn is not made again). */
  onCall: () => void;
}

export interface Target {
  /** For messages: "the target model", "agent CLI codex". */
  readonly label: string;
  /** Its every rollout is an agent's (it works in its own loop): never sent as a batch. */
  readonly agentic: boolean;
  /** It copies an item's `workspace` and runs its `check` (a host that starts programs): others refuse such items. */
  readonly workspaces?: boolean;
  /**
   * Run the skill on the item. An LlmError is the item's error row (a fatal one pauses the run),
   * never a wrong answer; any other throw (a pause, an environment's failure) stops the phase.
   */
  run(job: TargetJob, deps: TargetDeps): Promise<TargetRun>;
}

/** The target of a session that rolls nothing out (a feedback rewrite): asked to, it refuses. */
export const NO_TARGET: Target = {
  label: 'no target',
  agentic: false,
  run: () => Promise.reject(new Error('This session rolls nothing out: it was given no target.')),
};
