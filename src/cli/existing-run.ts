/**
 * `train` on a folder that already holds a run (issue #28 item 3): the run is continued only when
 * it is the run this command would start — the same skill, package, dataset, trigger queries and
 * settings, on the hosts and MCP servers the config names. A run made against other hosts or
 * servers is refused naming them, so a key or token never goes where the current config does not
 * say; any other difference is named.
 */
import { isDeepStrictEqual } from 'node:util';
import { serverName, type McpSettings } from '../core/agent/mcp-servers';
import type { DatasetRecord, RunEndpoints, RunRecord } from '../storage/schema';

const ROLES = ['target', 'optimizer', 'judge', 'userSimulator'] as const;

/** As stored: the store's records went through JSON (no undefined fields), so compare them that way, in any key order. */
const asStored = (v: unknown): unknown => (v === undefined ? undefined : JSON.parse(JSON.stringify(v)));
const same = (a: unknown, b: unknown) => isDeepStrictEqual(asStored(a), asStored(b));
const originOf = (url: string | undefined) => (url ? new URL(url).origin : 'none');

/** Each role whose host differs, as "target: http://a → http://b". */
export function hostChanges(stored: RunEndpoints, fresh: RunEndpoints): string[] {
  return ROLES.filter((r) => originOf(stored[r]?.baseURL) !== originOf(fresh[r]?.baseURL)).map(
    (r) => `${r}: ${originOf(stored[r]?.baseURL)} → ${originOf(fresh[r]?.baseURL)}`,
  );
}

/**
 * The MCP servers of the stored run that the config does not name as they are (issue #39 M1):
 * a server it lacks, or one whose name (which picks the token), `tools` or headers differ —
 * each named. Continuing on them would send the person's tokens where the config never said.
 */
export function serverChanges(stored?: McpSettings, fresh?: McpSettings): string[] {
  const byUrl = (s?: McpSettings) => new Map((s?.servers ?? []).map((x) => [x.url, x]));
  const [a, b] = [byUrl(stored), byUrl(fresh)];
  const out: string[] = [];
  for (const [url, x] of a) {
    const y = b.get(url);
    if (!y) out.push(`${url} (not in your config)`);
    else if (!same({ ...x, name: serverName(x) }, { ...y, name: serverName(y) }))
      out.push(`${url} (its name, tools or headers differ)`);
  }
  for (const url of b.keys()) if (!a.has(url)) out.push(`${url} (not in the run)`);
  return out;
}

/**
 * What makes the fresh run another run than the stored one, each named; empty when they are the
 * same run. The budget is not compared: the current command's cap applies, as with `resume --max-usd`.
 */
export function runDifferences(
  stored: { run: RunRecord; dataset: DatasetRecord | null },
  fresh: {
    run: Pick<
      RunRecord,
      'initialSkill' | 'skillPackage' | 'skillMeta' | 'triggerQueries' | 'endpoints' | 'config' | 'environment'
    >;
    dataset: DatasetRecord;
  },
): string[] {
  const a = stored.run;
  const b = fresh.run;
  const out: string[] = [];
  if (a.initialSkill !== b.initialSkill) out.push('the starting skill');
  if (!same(a.skillPackage, b.skillPackage)) out.push("the skill package's files or frontmatter");
  if (!same(a.skillMeta, b.skillMeta)) out.push("the skill's name or description");
  if (!same(a.triggerQueries, b.triggerQueries)) out.push('the trigger queries');
  if (a.environment?.module?.hash !== b.environment?.module?.hash) out.push("the agents' environment module");
  if (serverChanges(a.environment?.mcp, b.environment?.mcp).length) out.push("the agents' MCP servers");
  const d = stored.dataset;
  if (!d || !same(d.items, fresh.dataset.items) || !same(d.splits, fresh.dataset.splits)) out.push('the dataset');
  for (const r of ROLES) if (a.endpoints[r]?.model !== b.endpoints[r]?.model) out.push(`the ${r} model`);
  const settings = new Set([...Object.keys(a.config), ...Object.keys(b.config)]);
  settings.delete('budget');
  const config = (c: RunRecord['config'], k: string) => (c as unknown as Record<string, unknown>)[k];
  for (const k of settings) if (!same(config(a.config, k), config(b.config, k))) out.push(`run.${k}`);
  return out;
}
