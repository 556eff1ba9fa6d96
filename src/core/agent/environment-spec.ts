/**
 * What a run keeps of its agents' environment (issue #30): the environment module it was made
 * with — its source, so the run resumes (and travels in a bundle) with the very code it trained
 * against, and its hash, which names it in the rollout cache and lets a runner refuse a module
 * that changed under a paused run.
 */

import type { McpSettings } from './mcp-servers';

/** An environment module as opened: its name (its default export's), the file it came from, its text. */
export interface ModuleSource {
  name: string;
  fileName: string;
  source: string;
  hash: string;
  /**
   * 'bundle' when the run was taken in from a run bundle (set at import, never read from one):
   * this source is someone else's code, so the runner never runs it — only the module file the
   * person's own config names, with the same hash.
   */
  from?: 'bundle';
}

export interface RunEnvironmentSpec {
  module?: ModuleSource;
  /** MCP servers whose tools the agent calls (issue #31): never their tokens. */
  mcp?: McpSettings;
}

/** A module the page keeps with a run (drafts, run records, bundles) must stay small: it is code, not data. */
export const MAX_MODULE_BYTES = 512 * 1024;

/**
 * Could any rollout of a run on this data and these settings be an agent's? (The engine decides
 * per item.) The engine asks it of a session, the cost estimate of a planned run: one rule.
 */
export function isAgenticSetup(a: {
  datasetTools?: readonly unknown[];
  items?: readonly { agent?: unknown }[];
  /** The run has an environment that offers tools (a module, MCP servers). */
  environment?: boolean;
  referencesOnDemand?: boolean;
}): boolean {
  return Boolean(a.datasetTools?.length || a.environment || a.referencesOnDemand || a.items?.some((i) => i.agent));
}
