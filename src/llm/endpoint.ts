/** How to reach one model: an OpenAI-compatible endpoint and the options of its calls. */
import type { BatchApi } from '../core/config/batch-api';
import type { ServiceTier } from '../core/config/service-tier';
export type ReasoningEffort = '' | 'minimal' | 'low' | 'medium' | 'high';

export interface EndpointConfig {
  baseURL: string;
  apiKey: string;
  model: string;
  temperature?: number;
  maxOutputTokens?: number;
  reasoningEffort?: ReasoningEffort;
  /** Reasoning models get max_completion_tokens and no temperature; detected from the name when unset. */
  reasoningModel?: boolean;
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

export function isReasoningModel(cfg: Pick<EndpointConfig, 'model' | 'reasoningModel'>): boolean {
  if (cfg.reasoningModel !== undefined) return cfg.reasoningModel;
  return /(^|\/)(o\d|gpt-5)/i.test(cfg.model);
}
