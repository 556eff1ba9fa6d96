/** A stored endpoint made ready for the LLM client: its key and the role's defaults (retries, time limit). */
import { FLEX_TIMEOUT_MS } from '../core/config/service-tier';
import type { Role } from '../engine/ports';
import type { EndpointConfig } from '../llm/endpoint';
import type { StoredEndpoint } from '../storage/schema';

/** A stored endpoint with its key and the role's defaults, ready for the LLM client. */
export function endpointConfig(e: StoredEndpoint, apiKey: string, concurrency: number, role: Role): EndpointConfig {
  return {
    ...e,
    apiKey,
    concurrency,
    maxRetries: e.maxRetries ?? (role === 'target' ? 5 : 3),
    // Flex calls queue at the provider: its documented 15 minutes, unless the user set a timeout.
    timeoutMs: e.timeoutMs ?? (e.serviceTier === 'flex' ? FLEX_TIMEOUT_MS : role === 'target' ? 120_000 : 300_000),
  };
}
