/**
 * How a model is called, as a person sets it on Connect (or in the runner's config): the one
 * list of an endpoint's settings. A run stores them (storage/schema.ts `StoredEndpoint`, never
 * the key); the LLM client takes them with the key and the role's defaults (llm/endpoint.ts).
 */
import type { BatchApi } from './batch-api';
import type { Capabilities, ReasoningEffort, Wire } from './capabilities';
import type { ServiceTier } from './service-tier';

export interface EndpointSettings {
  baseURL: string;
  model: string;
  temperature?: number;
  maxOutputTokens?: number;
  reasoningEffort?: ReasoningEffort;
  /** The first guess before a probe: a reasoning model (no temperature, max_completion_tokens); by name when unset. */
  reasoningModel?: boolean;
  /** The wire chosen by hand (issue #44); unset: the probe's choice (capabilities), else Chat Completions. */
  api?: Wire;
  /** What Test connection found the model to accept (llm/capabilities.ts); stale once the model changes. */
  capabilities?: Capabilities;
  /** Extra headers, e.g. Anthropic's direct-browser-access header. */
  headers?: Record<string, string>;
  /** Leave out the SDK's x-stainless-* headers (for endpoints or proxies whose CORS refuses them). */
  minimalHeaders?: boolean;
  /** `service_tier` for every call (flex, priority…, issue #22); not sent when unset. */
  serviceTier?: ServiceTier;
  /** The endpoint's batch API: when set on the target, one-shot phases go there (issue #22 item 4). */
  batchApi?: BatchApi;
  /** Wait between batch polls (default 30 s; the CLI's config can shorten it for a local server). */
  batchPollMs?: number;
}
