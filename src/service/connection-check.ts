/**
 * "Test connection" (the page) and `skillwright doctor` (the runner): per role, what the model
 * accepts (issue #44: llm/capability-probe.ts), one tiny call's latency, the structured output the
 * endpoint keeps to, whether a local server reads a long prompt whole — or what is wrong, in words
 * the person can act on. A browser host adds its doctor for endpoints it cannot reach.
 */
import OpenAI from 'openai';
import { RoleClient, rememberJsonMode, rememberedJsonMode } from '../llm/openai-client';
import type { Capabilities } from '../core/config/capabilities';
import { capabilitiesOf, learnCapabilities } from '../llm/learned-capabilities';
import { probeCapabilities } from '../llm/capability-probe';
import { DEMO_BASE_URL } from '../core/simulators/demo-world';
import { extractJsonObject } from '../core/basics/json-extract';
import { stripThinking } from '../core/basics/thinking';
import { isLocalEndpoint } from '../core/config/local-endpoint';
import { withoutSdkHeaders } from '../llm/minimal-headers';
import { contextFix } from '../core/config/local-endpoint';
import { classifyError } from '../llm/errors';
import type { EndpointConfig } from '../llm/endpoint';
import { isLlmError, type Role } from '../engine/ports';
import type { RunEndpoints } from '../storage/schema';
import { endpointConfig } from './llm-port';
import type { HostDeps } from './ports';

export interface RoleCheck {
  role: Role;
  ok: boolean;
  latencyMs?: number;
  model: string;
  error?: { kind: string; message: string };
  /**
   * The optimizer's and judge's structured output (issue #23): the strictest mode the endpoint
   * honours — json_schema, json_object, or none (replies parsed from text) — and whether it
   * accepted a schema without keeping to it.
   */
  structuredOutput?: { mode: 'json_schema' | 'json_object' | 'none'; schemaIgnored: boolean };
  /** A local server that cuts long prompts off (issue #23): where, and how to give it more context. */
  context?: { truncatedAt: number; fix: string };
  /** What the model accepts (issue #44), to keep with the connection; absent for the demo. */
  capabilities?: Capabilities;
}

/**
 * Whether the server reads a long prompt whole: the same question behind ~1 000 and ~6 000 tokens
 * of filler. If the long one's prompt tokens stop short of what it holds, the server truncates.
 */
async function probeContext(client: RoleClient, cfg: EndpointConfig): Promise<RoleCheck['context']> {
  const ask = async (tokens: number) => {
    const filler = 'Filler line to measure the context window. '.repeat(Math.ceil((tokens * 4) / 44));
    const r = await client.complete({
      role: client.role,
      stage: 'connection_test',
      messages: [{ role: 'user', content: `${filler}\nReply with the word OK.` }],
    });
    return { chars: filler.length, tokens: r.usageEstimated ? null : r.usage.promptTokens };
  };
  const short = await ask(1_000);
  const long = await ask(6_000);
  if (short.tokens === null || long.tokens === null || short.tokens === 0) return undefined;
  const expected = (short.tokens * long.chars) / short.chars;
  return long.tokens < 0.8 * expected
    ? { truncatedAt: long.tokens, fix: contextFix(cfg.baseURL, long.tokens) }
    : undefined;
}

export const PROBE_PROMPT = 'Reply with the JSON object {"ok": true} and nothing else.';
const PROBE_SCHEMA = {
  name: 'probe',
  schema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'], additionalProperties: false },
};

/**
 * Which structured output the endpoint honours: the client asks with a JSON schema and steps down
 * (json_object, then text) when the endpoint refuses it; a reply that does not keep to an accepted
 * schema means the schema is not enforced (Ollama Cloud), so replies are parsed from text.
 */
async function probeStructuredOutput(client: RoleClient, cfg: EndpointConfig): Promise<RoleCheck['structuredOutput']> {
  const r = await client.complete({
    role: client.role,
    stage: 'connection_test',
    messages: [{ role: 'user', content: PROBE_PROMPT }],
    jsonSchema: PROBE_SCHEMA,
  });
  const used = rememberedJsonMode(cfg) ?? 'json_schema';
  const kept = extractJsonObject(r.text)?.ok === true && /^\s*\{/.test(stripThinking(r.text));
  if (used !== 'text' && !kept) {
    rememberJsonMode(cfg, 'text');
    return { mode: 'none', schemaIgnored: true };
  }
  return { mode: used === 'text' ? 'none' : used, schemaIgnored: false };
}

/** Why an endpoint cannot be reached from here, when the host can tell (a browser's CORS doctor). */
export type Diagnose = (cfg: EndpointConfig) => Promise<{ kind: string; message: string }>;

export async function checkEndpoint(
  role: Role,
  cfg: EndpointConfig,
  fetchImpl?: typeof fetch,
  diagnose?: Diagnose,
): Promise<RoleCheck> {
  const quick = { ...cfg, maxRetries: 0, concurrency: 1, timeoutMs: Math.min(cfg.timeoutMs, 30_000) };
  const client = new RoleClient(
    role,
    { ...quick, maxOutputTokens: cfg.maxOutputTokens ?? 16 },
    fetchImpl ? { fetch: fetchImpl } : {},
  );
  let started = Date.now();
  let found: Capabilities | undefined;
  // What the probes found, with the structured output found after them.
  const kept = () => (found ? { capabilities: capabilitiesOf({ ...cfg, api: undefined }) } : {});
  try {
    // What the model accepts, asked first: the calls below are then built from it (the demo takes anything).
    if (cfg.baseURL !== DEMO_BASE_URL) {
      found = await probeCapabilities(role, quick, { tools: role === 'target', fetch: fetchImpl });
      learnCapabilities(found);
      started = Date.now();
    }
    await client.complete({
      role,
      stage: 'connection_test',
      messages: [{ role: 'user', content: 'Reply with the word OK.' }],
    });
    const latencyMs = Date.now() - started;
    // The roles that answer in JSON: which structured output their endpoint keeps to.
    const structuredOutput =
      role === 'target' ? undefined : await probeStructuredOutput(client, cfg).catch(() => undefined);
    // Local servers are free to probe: does a long prompt reach the model whole?
    const context = isLocalEndpoint(cfg.baseURL) ? await probeContext(client, cfg).catch(() => undefined) : undefined;
    return {
      role,
      ok: true,
      latencyMs,
      model: cfg.model,
      ...(structuredOutput ? { structuredOutput } : {}),
      ...(context ? { context } : {}),
      ...kept(),
    };
  } catch (e) {
    const err = isLlmError(e)
      ? e
      : classifyError(e, { role, baseURL: cfg.baseURL, model: cfg.model, secrets: [cfg.apiKey] });
    // An empty answer that ran out of tokens still proves the endpoint, key and model work.
    if (err.kind === 'truncated')
      return { role, ok: true, latencyMs: Date.now() - started, model: cfg.model, ...kept() };
    // In a browser, "unreachable" hides several causes: the doctor probes and names the fix.
    if (err.kind === 'unreachable' && diagnose) {
      const advice = await diagnose(cfg);
      return { role, ok: false, model: cfg.model, error: { kind: advice.kind, message: advice.message } };
    }
    return { role, ok: false, model: cfg.model, error: { kind: err.kind, message: err.message } };
  }
}

/** Model ids from GET /models, or an error; many endpoints offer it, some do not. */
export async function listModels(
  cfg: Pick<EndpointConfig, 'baseURL' | 'apiKey' | 'headers' | 'minimalHeaders'>,
  fetchImpl?: typeof fetch,
): Promise<{ ok: true; models: string[] } | { ok: false; error: { kind: string; message: string } }> {
  const sdk = new OpenAI({
    apiKey: cfg.apiKey || 'no-key',
    baseURL: cfg.baseURL,
    dangerouslyAllowBrowser: true,
    maxRetries: 0,
    timeout: 15_000,
    defaultHeaders: cfg.headers,
    ...(cfg.minimalHeaders ? { fetch: withoutSdkHeaders(fetchImpl) } : fetchImpl ? { fetch: fetchImpl } : {}),
  });
  try {
    const ids: string[] = [];
    for await (const m of sdk.models.list()) ids.push(m.id);
    return { ok: true, models: ids.sort() };
  } catch (e) {
    const err = classifyError(e, {
      role: 'target',
      baseURL: cfg.baseURL,
      model: '(model list)',
      secrets: [cfg.apiKey],
    });
    return { ok: false, error: { kind: err.kind, message: err.message } };
  }
}

/**
 * Each role's check with the keys the host holds (the runner's `doctor`): the target, the
 * optimizer, and the judge and user simulator when they have endpoints of their own. An agent CLI
 * as the target is no endpoint: it is left out.
 */
export async function checkConnections(
  deps: Pick<HostDeps, 'keys' | 'transport'>,
  endpoints: RunEndpoints,
): Promise<RoleCheck[]> {
  const roles = ['target', 'optimizer', 'judge', 'userSimulator'] as const;
  const checks = roles.map(async (role): Promise<RoleCheck | null> => {
    const e = endpoints[role];
    if (!e || e.agentCommand) return null;
    const k = await deps.keys.keyFor(
      role,
      endpoints,
      role === 'judge' || role === 'userSimulator' ? 'optimizer' : undefined,
    );
    if (!k.ok) return { role, ok: false, model: e.model, error: { kind: k.kind, message: k.message } };
    return checkEndpoint(role, endpointConfig(e, k.key, 1, role), deps.transport?.fetch);
  });
  return (await Promise.all(checks)).filter((c): c is RoleCheck => c !== null);
}

/** A confirming target's check: its place in the config's `confirm` list beside the target role's findings. */
export type ConfirmCheck = RoleCheck & { confirm: number };

/**
 * Each model target that confirms the run's skills (issue #42 item 5), probed as the target is,
 * with its own key (the host's `confirm` key, asked with `endpoints.confirm` holding it alone).
 * An agent CLI is no endpoint: it is left out, and the host names it.
 */
export async function checkConfirming(
  deps: Pick<HostDeps, 'keys' | 'transport'>,
  endpoints: RunEndpoints,
): Promise<ConfirmCheck[]> {
  const checks = (endpoints.confirm ?? []).map(async (e, confirm): Promise<ConfirmCheck | null> => {
    if (e.agentCommand) return null;
    const k = await deps.keys.keyFor('confirm', { ...endpoints, confirm: [e] });
    if (!k.ok)
      return { role: 'target', confirm, ok: false, model: e.model, error: { kind: k.kind, message: k.message } };
    return {
      ...(await checkEndpoint('target', endpointConfig(e, k.key, 1, 'target'), deps.transport?.fetch)),
      confirm,
    };
  });
  return (await Promise.all(checks)).filter((c): c is ConfirmCheck => c !== null);
}
