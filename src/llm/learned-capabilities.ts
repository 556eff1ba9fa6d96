/**
 * What each endpoint and model was found (by the connection test's probe) or learned (from a
 * refusal mid-run) to accept, shared by every client in this realm; what requests are built from.
 */
import { guessCapabilities, storedFor, type Capabilities, type Wire } from '../core/config/capabilities';

const learned = new Map<string, Capabilities>();
const keyOf = (cfg: { baseURL: string; model: string }) => `${cfg.baseURL}|${cfg.model}`;

/**
 * What to build requests from: learned in this realm, else kept with the connection, else the
 * guess; a wire chosen by hand wins over the probe's.
 */
export function capabilitiesOf(cfg: {
  baseURL: string;
  model: string;
  reasoningModel?: boolean;
  api?: Wire;
  capabilities?: Capabilities;
}): Capabilities {
  const caps = learned.get(keyOf(cfg)) ?? storedFor(cfg, cfg.capabilities) ?? guessCapabilities(cfg);
  return cfg.api && cfg.api !== caps.api ? { ...caps, api: cfg.api } : caps;
}

/** Record what a probe found or a refusal taught, for every later call to this endpoint and model. */
export function learnCapabilities(caps: Capabilities): void {
  learned.set(keyOf(caps), caps);
}

/**
 * Forget what this realm learned of every model at `baseURL`: another server now answers there (a
 * port the system handed out again).
 */
export function forgetCapabilities(baseURL: string): void {
  for (const key of [...learned.keys()]) if (key.startsWith(`${baseURL}|`)) learned.delete(key);
}
