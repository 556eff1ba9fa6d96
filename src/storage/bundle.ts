/**
 * A run as one JSON bundle (DESIGN §5, §6): its config and endpoints (never keys), a copy of
 * its dataset, every skill version, step, rollout, optimizer call and artifact. Importing
 * validates the whole bundle against a schema and size limits first (bundle-validate.ts: the
 * parts that reach files and exports), then writes it in one transaction — a malformed bundle is
 * refused with the reason and stores nothing.
 */
import { parseRunConfig } from '../core/config/run-config';
import { priceProblem } from '../core/config/pricing';
import { z } from 'zod';
import { MAX_MODULE_BYTES } from '../core/agent/environment-spec';
import { contentId } from '../core/basics/hash';
import { readMcpSettings, type McpSettings } from '../core/agent/mcp-servers';
import { readAgentCommand, type AgentCommand } from '../core/agent/agent-command';
import { isSecretHeader } from '../core/basics/secret-headers';
import type { SkillwrightDb } from './open-db';
import {
  RUN_DATA_STORES,
  datasetIndexOf,
  type DatasetRecord,
  type RunEndpoints,
  type RunRecord,
  type StoredEndpoint,
} from './schema';
import type { ArtifactRecord, OptimizerCallRecord, RolloutRow, SkillVersion, StepRecord } from '../engine/types';
import { guardQuota } from './quota';
import { withStatus } from './runs-repo';
import {
  datasetSchema,
  packageShellSchema,
  skillMetaSchema,
  skillTextSchema,
  triggerQueriesSchema,
} from './bundle-validate';

export const BUNDLE_FORMAT = 'skillwright-run';
export const BUNDLE_VERSION = 1;
export const MAX_BUNDLE_CHARS = 512 * 1024 * 1024;
export const MAX_BUNDLE_ROWS = 2_000_000;

export interface RunBundle {
  format: typeof BUNDLE_FORMAT;
  version: number;
  exportedAt: string;
  run: RunRecord;
  dataset: DatasetRecord | null;
  skills: SkillVersion[];
  steps: StepRecord[];
  rollouts: RolloutRow[];
  calls: OptimizerCallRecord[];
  artifacts: ArtifactRecord[];
}

export { isSecretHeader };

export function stripSecretHeaders(e: StoredEndpoint): StoredEndpoint {
  if (!e.headers) return e;
  return { ...e, headers: Object.fromEntries(Object.entries(e.headers).filter(([k]) => !isSecretHeader(k))) };
}

/** Every role's endpoint (the judge's and the user simulator's too) without a header that carries a credential. */
export function storedEndpoints(e: RunEndpoints): RunEndpoints {
  return {
    target: stripSecretHeaders(e.target),
    optimizer: stripSecretHeaders(e.optimizer),
    ...(e.judge ? { judge: stripSecretHeaders(e.judge) } : {}),
    ...(e.userSimulator ? { userSimulator: stripSecretHeaders(e.userSimulator) } : {}),
    ...(e.confirm?.length ? { confirm: e.confirm.map(stripSecretHeaders) } : {}),
    // The targets that gated its candidates (issue #42 item 5): kept, so a binding that drops them is refused.
    ...(e.targets?.length ? { targets: e.targets.map(stripSecretHeaders) } : {}),
  };
}

const endpointSchema = z.looseObject({
  baseURL: z.string(),
  model: z.string(),
  // An agent CLI target's command (a program to start, paths in its workspace): read as a config's is.
  agentCommand: z
    .unknown()
    .transform((v, ctx): AgentCommand | undefined => {
      const r = readAgentCommand(typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : {});
      if ('problem' in r) ctx.addIssue({ code: 'custom', message: r.problem });
      return 'command' in r ? r.command : undefined;
    })
    .optional(),
});
const runSchema = z.looseObject({
  id: z.string().min(1).max(200),
  name: z.string().max(500),
  datasetId: z.string(),
  createdAt: z.number(),
  updatedAt: z.number(),
  status: z.enum(['idle', 'running', 'paused', 'interrupted', 'completed', 'failed', 'cancelled']),
  config: z.looseObject({ epochs: z.number().int(), batchSize: z.number().int() }),
  initialSkill: skillTextSchema,
  endpoints: z.looseObject({
    target: endpointSchema,
    optimizer: endpointSchema,
    judge: endpointSchema.optional(),
    userSimulator: endpointSchema.optional(),
    targets: z.array(endpointSchema).optional(),
  }),
  prices: z.record(z.string(), z.unknown()).superRefine((prices, ctx) => {
    for (const [role, price] of Object.entries(prices)) {
      const problem = priceProblem(price);
      if (problem) ctx.addIssue({ code: 'custom', path: [role], message: problem });
    }
  }),
  state: z
    .looseObject({
      runId: z.string(),
      status: z.string(),
      gate: z.looseObject({ currentSkill: skillTextSchema, bestSkill: skillTextSchema }),
      initialSkill: skillTextSchema.optional(),
      epochStartSkill: skillTextSchema.optional(),
    })
    .optional(),
  skillPackage: packageShellSchema.optional(),
  skillMeta: skillMetaSchema.optional(),
  triggerQueries: triggerQueriesSchema.optional(),
  // An agent run's environment module (issue #30): code, kept so the run resumes with it.
  environment: z
    .object({
      // Its hash names the module (a runner compares it with the person's own file): it must be its source's.
      module: z
        .object({
          name: z.string().max(200),
          fileName: z.string().max(200),
          source: z.string().max(MAX_MODULE_BYTES),
          hash: z.string().regex(/^[0-9a-f]{16}$/),
        })
        .refine((m) => contentId(m.source) === m.hash, {
          path: ['hash'],
          message: 'is not the hash of the module source the bundle carries',
        })
        .optional(),
      // Its MCP servers (issue #31), read as a config's are (a header holding a secret is refused): the reader's result is kept.
      mcp: z
        .unknown()
        .transform((v, ctx): McpSettings | undefined => {
          const r = readMcpSettings(v);
          for (const message of r.problems.slice(0, 3)) ctx.addIssue({ code: 'custom', message });
          return r.settings;
        })
        .optional(),
    })
    .optional(),
});
const toolCallSchema = z.object({ id: z.string(), name: z.string(), arguments: z.string() });
const trajectoryEntrySchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('assistant'),
    turn: z.number().int().min(1),
    content: z.string(),
    toolCalls: z.array(toolCallSchema).optional(),
  }),
  z.object({
    kind: z.literal('tool'),
    turn: z.number().int().min(1),
    callId: z.string(),
    name: z.string(),
    arguments: z.string(),
    result: z.string(),
    error: z.literal(true).optional(),
  }),
  z.object({
    kind: z.literal('user'),
    message: z.number().int().min(2),
    content: z.string(),
    end: z.enum(['goal_met', 'gave_up', 'limit']).optional(),
  }),
]);
const withRun = (shape: z.ZodRawShape) => z.looseObject({ runId: z.string(), ...shape });
/** A step's figures, when present, are numbers (issue #39 M7): the Runs screen and the curve draw them. */
const num = z.number().optional();
const numOrNull = z.number().nullable().optional();
const stepFigures = {
  rolloutHard: num,
  rolloutSoft: num,
  rolloutN: num,
  rolloutErrors: num,
  nFailurePatches: num,
  nSuccessPatches: num,
  nEditsMerged: num,
  nEditsRanked: num,
  scoreBefore: num,
  currentScore: num,
  bestScore: num,
  bestStep: num,
  skillLen: num,
  wallTimeMs: num,
  editBudget: numOrNull,
  candidateSkillLen: numOrNull,
  selectionHard: numOrNull,
  selectionSoft: numOrNull,
  selectionN: numOrNull,
  candidateGateScore: numOrNull,
  candidateSettledScore: numOrNull,
  selectionComplete: z.boolean().nullable().optional(),
  spend: z.object({ targetCalls: z.number(), costUsd: z.number() }).optional(),
};
const bundleSchema = z.object({
  format: z.literal(BUNDLE_FORMAT),
  version: z.number().int().min(1).max(BUNDLE_VERSION),
  exportedAt: z.string(),
  run: runSchema,
  dataset: datasetSchema.nullable(),
  skills: z.array(withRun({ hash: z.string(), text: skillTextSchema, origin: z.string(), step: z.number() })),
  steps: z.array(withRun({ step: z.number().int(), epoch: z.number().int(), action: z.string(), ...stepFigures })),
  rollouts: z.array(
    withRun({
      phase: z.string(),
      order: z.number().int(),
      itemId: z.string(),
      cacheKey: z.string(),
      status: z.enum(['ok', 'error']),
      hard: z.number(),
      soft: z.number(),
      // An agent's rollout (issue #30): the inspector and the report read it turn by turn.
      trajectory: z.array(trajectoryEntrySchema).max(2_000).optional(),
      turns: z.number().int().min(0).optional(),
    }),
  ),
  calls: z.array(withRun({ key: z.string(), stage: z.string(), raw: z.string() })),
  artifacts: z.array(withRun({ key: z.string() })),
});

export type ImportResult = { ok: true; runId: string; renamed: boolean } | { ok: false; error: string };

function firstIssue(error: z.ZodError): string {
  const i = error.issues[0];
  const path = i.path.length ? i.path.join('.') : 'the bundle';
  return `${path}: ${i.message}`;
}

/** Validate a bundle's text; nothing is written unless all of it is valid. */
export function parseBundle(text: string): { ok: true; bundle: RunBundle } | { ok: false; error: string } {
  if (text.length > MAX_BUNDLE_CHARS)
    return { ok: false, error: `The file is larger than ${MAX_BUNDLE_CHARS / 1024 / 1024} MB.` };
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    return {
      ok: false,
      error: `The file is not valid JSON (${e instanceof Error ? e.message.slice(0, 120) : String(e)}).`,
    };
  }
  if (!data || typeof data !== 'object' || (data as { format?: unknown }).format !== BUNDLE_FORMAT) {
    return { ok: false, error: 'This is not a Skillwright run bundle (its "format" is not "skillwright-run").' };
  }
  const parsed = bundleSchema.safeParse(data);
  if (!parsed.success) return { ok: false, error: `The bundle is malformed: ${firstIssue(parsed.error)}.` };
  const b = parsed.data as unknown as RunBundle;
  // The whole config is checked, not just its shape: its numbers reach the report and the engine.
  const config = parseRunConfig(b.run.config);
  if (config.problems.length) {
    return {
      ok: false,
      error: `The bundle's run settings are invalid: ${config.problems.map((p) => p.message).join('; ')}.`,
    };
  }
  const module = b.run.environment?.module;
  b.run = {
    ...b.run,
    config: config.config,
    ...(b.run.state ? { state: { ...b.run.state, config: config.config } } : {}),
    // A module that came in a bundle is someone else's code: marked, so a runner never runs this copy.
    ...(module ? { environment: { ...b.run.environment, module: { ...module, from: 'bundle' as const } } } : {}),
  };
  const rows = b.skills.length + b.steps.length + b.rollouts.length + b.calls.length + b.artifacts.length;
  if (rows > MAX_BUNDLE_ROWS)
    return { ok: false, error: `The bundle holds ${rows} rows; the limit is ${MAX_BUNDLE_ROWS}.` };
  const foreign = [...b.skills, ...b.steps, ...b.rollouts, ...b.calls, ...b.artifacts].find(
    (r) => r.runId !== b.run.id,
  );
  if (foreign)
    return { ok: false, error: `The bundle mixes runs: a row belongs to "${foreign.runId}", not "${b.run.id}".` };
  if (b.dataset && b.dataset.id !== b.run.datasetId)
    return { ok: false, error: 'The bundled dataset is not the one the run uses.' };
  return { ok: true, bundle: b };
}

/** Store a validated bundle under a fresh id when its id is taken, in one transaction. */
export async function importBundle(db: SkillwrightDb, bundle: RunBundle, newId: () => string): Promise<ImportResult> {
  const taken = Boolean(await db.get('runs', bundle.run.id));
  const id = taken ? newId() : bundle.run.id;
  const hasDataset = Boolean(await db.get('datasets', bundle.run.datasetId));
  if (!hasDataset && !bundle.dataset)
    return { ok: false, error: 'The run’s dataset is neither in the bundle nor in this browser.' };
  const re = <T extends { runId: string }>(rows: T[]) => rows.map((r) => ({ ...r, runId: id }));
  const status = bundle.run.status === 'running' ? 'interrupted' : bundle.run.status;
  const run: RunRecord = withStatus(
    {
      ...bundle.run,
      id,
      name: taken ? `${bundle.run.name} (imported)` : bundle.run.name,
      endpoints: storedEndpoints(bundle.run.endpoints),
      state: bundle.run.state && { ...bundle.run.state, runId: id },
      // The bundle's hosts are the exporter's: never call them with this user's keys.
      needsBinding: true,
    },
    status,
  );
  await guardQuota(async () => {
    const tx = db.transaction(['runs', 'datasets', 'datasetIndex', ...RUN_DATA_STORES], 'readwrite');
    const puts: Promise<unknown>[] = [tx.objectStore('runs').put(run)];
    if (!hasDataset && bundle.dataset) {
      puts.push(tx.objectStore('datasets').put(bundle.dataset));
      puts.push(tx.objectStore('datasetIndex').put(datasetIndexOf(bundle.dataset)));
    }
    for (const s of re(bundle.skills)) puts.push(tx.objectStore('skills').put(s));
    for (const s of re(bundle.steps)) puts.push(tx.objectStore('steps').put(s));
    for (const s of re(bundle.rollouts)) puts.push(tx.objectStore('rollouts').put(s));
    for (const s of re(bundle.calls)) puts.push(tx.objectStore('calls').put(s));
    for (const s of re(bundle.artifacts)) puts.push(tx.objectStore('artifacts').put(s));
    await Promise.all([...puts, tx.done]);
  });
  return { ok: true, runId: id, renamed: taken };
}
