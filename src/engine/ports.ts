/**
 * The engine's ports (DESIGN §2): what it needs from the outside, declared here and implemented
 * by src/llm (the openai SDK) and src/storage (IndexedDB, or memory in tests). The engine
 * imports neither the SDK, nor idb, nor Comlink.
 */
import type {
  ArtifactRecord,
  LlmUsage,
  OptimizerCallRecord,
  Role,
  RolloutRow,
  RunState,
  SkillVersion,
  StepRecord,
} from './types';

/** A function the target may call (OpenAI `tools`, function kind). */
export interface ToolSpec {
  name: string;
  description?: string;
  /** JSON schema of the arguments object. */
  parameters?: Record<string, unknown>;
}

/** One call the model asked for in a turn; `arguments` is the JSON text it wrote. */
export interface ToolCallRequest {
  id: string;
  name: string;
  arguments: string;
}

/**
 * A reasoning model's record of its thinking in one turn (a Responses API reasoning item, issue
 * #44): opaque, passed back as it came with the turn's calls, so the next turn reasons on.
 */
export type ReasoningItem = Record<string, unknown>;

export type ChatMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string; toolCalls?: ToolCallRequest[]; reasoning?: ReasoningItem[] }
  | { role: 'tool'; toolCallId: string; content: string };

export interface LlmRequest {
  role: Role;
  /** The stage, also the json_schema name for optimizer calls (DESIGN §4). */
  stage: string;
  messages: ChatMessage[];
  /** Ask for JSON matching this schema (falls back to json_object, then text). */
  jsonSchema?: { name: string; schema: Record<string, unknown> };
  /** Functions the model may call (agentic rollouts); its reply may then hold `toolCalls`. */
  tools?: ToolSpec[];
  signal?: AbortSignal;
}

export interface LlmResponse {
  text: string;
  usage: LlmUsage;
  latencyMs: number;
  /** Attempts made, 1 when the first one succeeded. */
  attempts: number;
  jsonMode?: 'json_schema' | 'json_object' | 'text';
  finishReason?: string;
  /** The endpoint reported no usage: the counts are estimated from characters. */
  usageEstimated?: boolean;
  /** Calls the model asked for instead of (or beside) an answer, when the request offered tools. */
  toolCalls?: ToolCallRequest[];
  /** The turn's reasoning items (the Responses API), to pass back with its calls. */
  reasoning?: ReasoningItem[];
  /** What was adapted to the model's refusals before this call succeeded, in words for the run's log (issue #44). */
  adapted?: string[];
}

/**
 * Why a call failed, after its retries. `fatal` kinds stop the run (they will not heal by
 * retrying: a rejected key, an unknown model, a malformed request); the rest are transient.
 */
export type LlmErrorKind =
  | 'auth' // 401/403: key rejected
  | 'not_found' // 404: model or path unknown
  | 'bad_request' // 400/422
  | 'rate_limited' // 429 after retries
  | 'server' // 5xx after retries
  | 'timeout'
  | 'unreachable' // network failure; in a browser, often CORS
  | 'truncated' // the model spent its whole token budget before answering
  | 'item_refused' // this item only: content filter, refusal, context too long (the next item may pass)
  | 'aborted'; // paused or cancelled

export const FATAL_KINDS: readonly LlmErrorKind[] = ['auth', 'not_found', 'bad_request'];

export class LlmError extends Error {
  readonly kind: LlmErrorKind;
  readonly status?: number;
  readonly role?: Role;
  /** Tokens the failed call still used (and the provider bills), e.g. a reply cut off empty. */
  readonly usage?: LlmUsage;
  constructor(kind: LlmErrorKind, message: string, opts: { status?: number; role?: Role; usage?: LlmUsage } = {}) {
    super(message);
    this.name = 'LlmError';
    this.kind = kind;
    this.status = opts.status;
    this.role = opts.role;
    this.usage = opts.usage;
  }
  get fatal(): boolean {
    return FATAL_KINDS.includes(this.kind);
  }
}

export function isLlmError(e: unknown): e is LlmError {
  return e instanceof Error && e.name === 'LlmError' && 'kind' in e;
}

/** One target request of a batch, named by the id its answer comes back under. */
export interface BatchLine {
  customId: string;
  request: LlmRequest;
}

/** Where a batch is: still running, finished (its results can be read), or refused as a whole. */
export interface BatchProgress {
  state: 'running' | 'finished' | 'failed';
  total: number;
  /** Lines answered or failed so far (providers report it; 0 when they do not). */
  finished: number;
  /** Why the batch failed as a whole, in the provider's words. */
  message?: string;
}

/**
 * The provider's batch API, for the target's one-shot phases (issue #22 item 4): baseline,
 * final validation, test and evaluation — about half price, answered in minutes to 24 hours.
 * The step loop never uses it: every step waits on the previous gate.
 */
export interface TargetBatchPort {
  /** The protocol, for messages (e.g. "OpenAI Batch API"). */
  readonly label: string;
  /** How long to wait between polls. */
  readonly pollMs: number;
  submit(lines: BatchLine[], signal?: AbortSignal): Promise<string>;
  progress(batchId: string, signal?: AbortSignal): Promise<BatchProgress>;
  /** Each line's answer, or the LlmError it is; a line the batch did not run is an error too. */
  results(batchId: string, signal?: AbortSignal): Promise<Map<string, LlmResponse | LlmError>>;
}

export interface LlmPort {
  complete(req: LlmRequest): Promise<LlmResponse>;
  /** The target endpoint's batch API, when the run sends its one-shot phases there. */
  targetBatch?: TargetBatchPort;
  /** Identity of the target's settings, part of the rollout cache key. */
  targetSettingsKey(): string;
  /** Identity of a role's settings (the user simulator's is part of a conversation's cache key). */
  settingsKey?(role: Role): string;
  /** The most completion tokens a call of this role may use, when a limit is set (the budget cap reserves it). */
  outputLimit?(role: Role): number | undefined;
}

/**
 * Where a run's data lives. Every write is a checkpoint: a finished rollout, an optimizer call,
 * a stage result, a step. Implementations must not hold a transaction across an LLM call.
 */
export interface RunStore {
  loadState(runId: string): Promise<RunState | undefined>;
  saveState(state: RunState): Promise<void>;
  putRollout(row: RolloutRow): Promise<void>;
  getRollouts(runId: string, phase: string): Promise<RolloutRow[]>;
  listRollouts(runId: string): Promise<RolloutRow[]>;
  /** An ok rollout with this cache key, from any phase of the run. */
  findRollout(runId: string, cacheKey: string): Promise<RolloutRow | undefined>;
  putCall(record: OptimizerCallRecord): Promise<void>;
  getCall(runId: string, key: string): Promise<OptimizerCallRecord | undefined>;
  listCalls(runId: string): Promise<OptimizerCallRecord[]>;
  putArtifact(record: ArtifactRecord): Promise<void>;
  getArtifact(runId: string, key: string): Promise<ArtifactRecord | undefined>;
  /** Remove an artifact that no longer describes the step (a vetoed candidate's check). */
  deleteArtifact(runId: string, key: string): Promise<void>;
  putStep(record: StepRecord): Promise<void>;
  getSteps(runId: string): Promise<StepRecord[]>;
  putSkillVersion(version: SkillVersion): Promise<void>;
  getSkillVersions(runId: string): Promise<SkillVersion[]>;
}

// The LLM's value types live with the run's (engine/types.ts), which imports nothing of the ports.
export type { LlmUsage, Role };
