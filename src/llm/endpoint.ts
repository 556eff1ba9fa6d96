/** How to reach one model: an OpenAI-compatible endpoint and the options of its calls. */
import type { ReasoningEffort } from '../core/config/capabilities';
import type { EndpointSettings } from '../core/config/endpoint-settings';

export type { ReasoningEffort };

/** An endpoint's settings with its key and the role's defaults filled in (service/endpoint-config.ts). */
export interface EndpointConfig extends EndpointSettings {
  apiKey: string;
  /** Calls in flight at once. */
  concurrency: number;
  /** Attempts after the first, for transient failures. */
  maxRetries: number;
  timeoutMs: number;
}
