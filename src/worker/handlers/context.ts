/**
 * What every handler of the worker API shares: its dependencies, the database, the runs this
 * worker is running, and the key vault. Built once by `createApi`.
 */
import type { ClientOptions } from '../../llm/openai-client';
import { IdbRunRecords } from '../../storage/idb-run-records';
import type { SkillwrightDb } from '../../storage/open-db';
import { forgetKeys, getRememberedKeys, rememberKeys } from '../../storage/settings-repo';
import { createRunService, type RunService } from '../../service/run-service';
import type { KeySource } from '../../service/ports';
import type { EnvironmentHost } from '../../service/target';
import type { ApiError, ModuleSandboxes, Secrets } from '../api-types';
import { confirmKeyFor, keyFor, mcpTokenFor, withKeys } from '../key-binding';
import { defaultLocks, runLockName, type LockManagerLike } from '../locks';
import { withDemoEndpoint } from '../demo-endpoint';
import { pageModuleEnvironment } from '../page-module-environment';
import { EnvironmentError } from '../../engine/environment';
import { serverName } from '../../core/agent/mcp-servers';

export interface ApiDeps {
  db: SkillwrightDb | Promise<SkillwrightDb>;
  /** Prompt texts by name (prompts/*.md). */
  promptFiles: Record<string, string>;
  locks?: LockManagerLike;
  fetch?: typeof fetch;
  clientOptions?: ClientOptions;
  estimate?: () => Promise<{ usage?: number; quota?: number }>;
  newId?: () => string;
  now?: () => number;
  /** How often progress events may reach the page. */
  progressIntervalMs?: number;
  /** The simulated demo endpoint's pause per call (default 40 ms). */
  demoLatencyMs?: number;
  /** How long start-up recovery waits for a reloaded page's old worker to release its run lock. */
  lockReleaseWaitMs?: number;
}

export interface ApiContext {
  deps: ApiDeps;
  dbp: Promise<SkillwrightDb>;
  /** The run service over this browser's store, with the vault's keys (every run use case goes through it). */
  service: Promise<RunService>;
  locks: LockManagerLike;
  now: () => number;
  newId: () => string;
  /** Runs this worker is running, with the controller that pauses or cancels each. */
  active: Map<string, AbortController>;
  vault: KeyVault;
  /** The fetch every call goes through: the demo endpoint is answered in the worker, the rest passes on. */
  fetch: typeof fetch;
  /** Another tab holds the run's lock (it is running it there). */
  lockedElsewhere: (runId: string) => Promise<boolean>;
  /** Where environment modules run: the page's sandboxes, once it has handed them over. */
  sandboxes: { current?: ModuleSandboxes };
}

/** An expected failure, as the API returns it (Comlink would keep only a thrown error's message). */
export const fail = (kind: string, message: string, extra: Partial<ApiError> = {}) => ({
  ok: false as const,
  error: { kind, message, ...extra },
});

function randomId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return `run-${[...bytes].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
}

/**
 * The keys of this tab, in the worker's memory only; remembered keys are loaded from the
 * device once, on first use. The page hands keys over and never reads them back. Changes run
 * one at a time, in the order they were asked for, so a "remember" right after a hand-over
 * stores the handed key.
 */
export class KeyVault {
  private keys: Secrets = {};
  private loaded = false;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly dbp: Promise<SkillwrightDb>) {}

  private inOrder<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.queue.then(fn);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async load(): Promise<Secrets> {
    if (!this.loaded) {
      this.loaded = true;
      // Remembered keys without a host (stored before keys were bound) are dropped: they would go anywhere.
      this.keys = withKeys({ ...(await getRememberedKeys(await this.dbp)), ...this.keys }, null);
    }
    return this.keys;
  }

  current(): Promise<Secrets> {
    return this.inOrder(() => this.load());
  }

  /** Keep these keys (each bound to the host it was typed for) besides the ones held; store them all if `remember`. */
  add(given: Secrets, remember = false): Promise<Secrets> {
    return this.inOrder(async () => {
      this.keys = withKeys(await this.load(), given);
      if (remember) await rememberKeys(await this.dbp, this.keys);
      return this.keys;
    });
  }

  /** Delete the remembered keys; also the ones in memory unless `keepSession` (unticking "Remember"). */
  forget(keepSession: boolean): Promise<void> {
    return this.inOrder(async () => {
      await this.load();
      if (!keepSession) this.keys = {};
      await forgetKeys(await this.dbp);
    });
  }
}

/** The page's keys for the service: the vault's, each sent only to the host it was typed for. */
function vaultKeys(vault: KeyVault): KeySource {
  return {
    async keyFor(role, endpoints, borrow) {
      // A confirming target gets its own key, or the target's, only on the host it was typed for.
      if (role === 'confirm') return confirmKeyFor(await vault.current(), endpoints.confirm?.[0]?.baseURL ?? '');
      // A gating target (a runner's run, imported) gets the target's key only on the host it was typed for.
      if (role === 'targets') return keyFor(await vault.current(), 'target', endpoints.targets?.[0]?.baseURL ?? '');
      return keyFor(await vault.current(), role, endpoints[role]?.baseURL ?? '', borrow);
    },
  };
}

/**
 * What the page gives for a run's environment (service/target.ts chooses it): its module runs in
 * a sandbox of the page's (an opaque origin: no keys, store or network), made for each session
 * of the run — never a module that came with an imported file until the person has read it and
 * chosen to run it (issue #39). Its MCP servers (issue #31) are called with the token the vault
 * holds for each server's URL, and only with the tools the person ticked: a server without that
 * list (a file's) offers nothing here.
 */
function pageEnvironments(vault: KeyVault, sandboxes: ApiContext['sandboxes']): EnvironmentHost {
  return {
    async tokenOf({ url, name }) {
      const token = mcpTokenFor(await vault.current(), url);
      return { ...(token ? { token } : {}), hint: `enter ${name}'s token under MCP servers on Data` };
    },
    async loadModule(module) {
      if (module.from === 'bundle')
        throw new EnvironmentError(
          `environment module ${module.fileName} came with the run's file and has not been approved: ` +
            'read it on Runs and choose "Run this module" first',
        );
      return pageModuleEnvironment(module, () => sandboxes.current);
    },
    mcpServers(stored) {
      const unlisted = stored.servers.find((s) => !s.tools);
      if (unlisted)
        throw new EnvironmentError(
          `MCP server ${serverName(unlisted)} has no list of the tools you allow (the run's file left it out); ` +
            'this page calls only tools you ticked on Data → MCP servers',
        );
      return stored;
    },
  };
}

export function createApiContext(deps: ApiDeps): ApiContext {
  const dbp = Promise.resolve(deps.db);
  const locks = deps.locks ?? defaultLocks();
  const active = new Map<string, AbortController>();
  const now = deps.now ?? (() => Date.now());
  const newId = deps.newId ?? randomId;
  const vault = new KeyVault(dbp);
  const fetch = withDemoEndpoint(deps.fetch, deps.demoLatencyMs);
  const sandboxes: ApiContext['sandboxes'] = {};
  const service = dbp.then((db) =>
    createRunService({
      records: new IdbRunRecords(db, deps.estimate),
      promptFiles: deps.promptFiles,
      keys: vaultKeys(vault),
      environment: pageEnvironments(vault, sandboxes),
      transport: { ...deps.clientOptions, fetch },
      now,
      newId,
      place: 'this browser',
    }),
  );
  return {
    deps,
    dbp,
    service,
    locks,
    now,
    newId,
    active,
    vault,
    fetch,
    sandboxes,
    async lockedElsewhere(runId) {
      if (active.has(runId)) return false;
      const q = await locks.query?.();
      return Boolean(q?.held?.some((l) => l.name === runLockName(runId)));
    },
  };
}
