/** How to reach one model: an OpenAI-compatible endpoint and the options of its calls. */
import type { BatchApi } from '../core/config/batch-api';
import type { ServiceTier } from '../core/config/service-tier';
import type { Capabilities, ReasoningEffort, Wire } from '../core/config/capabilities';

export type { ReasoningEffort };

export interface EndpointConfig {
  baseURL: string;
  apiKey: string;
  model: string;
  temperature?: number;
  maxOutputTokens?: number;
  reasoningEffort?: ReasoningEffort;
  /** The first guess before a probe: a reasoning model (no temperature, max_completion_tokens); by name when unset. */
  reasoningModel?: boolean;
  /** The wire chosen by hand; unset: the probe's choice (capabilities), else Chat Completions. */
  api?: Wire;
  /** What the connection test found the model to accept (llm/capabilities.ts), kept with the connection. */
  capabilities?: Capabilities;
  /** Extra headers, e.g. Anthropic's direct-browser-access header. */
  headers?: Record<string, string>;
  /** Leave out the SDK's x-stainless-* headers (for endpoints or proxies whose CORS refuses them). */
  minimalHeaders?: boolean;
  /** Calls in flight at once. */
  concurrency: number;
  /** Attempts after the first, for transient failures. */
  maxRetries: number;
  timeoutMs: number;
  /** `service_tier` for every call (flex, priority…); not sent when unset. */
  serviceTier?: ServiceTier;
  /** The endpoint's batch API: when set on the target, one-shot phases go there (issue #22 item 4). */
  batchApi?: BatchApi;
  /** Wait between batch polls (default 30 s). */
  batchPollMs?: number;
}
