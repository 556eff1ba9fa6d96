/**
 * The page's state (zustand): a view cache, not a database. What the user is drafting —
 * endpoint settings without keys, the skill, the run settings, the chosen dataset — persists in
 * localStorage as UI preferences; run data lives in IndexedDB behind the worker. Keys are held
 * here in memory only.
 */
import type { ModuleSource, RunEnvironmentSpec } from '../core/agent/environment-spec';
import type { SkillMeta } from '../core/skill/skill-file';
import type { TriggerQuery } from '../core/dataset/trigger-queries';
import type { PackageShell } from '../core/skill/package-zip';
import { create } from 'zustand';
import { persist } from 'zustand/middleware';
import { draftsStorage } from './drafts-storage';
import { DEFAULT_RUN_CONFIG, type RunConfig } from '../core/config/run-config';
import type { McpSettings } from '../core/agent/mcp-servers';
import type { CurveMark } from '../core/report/learning-curve';
import type { EngineStage, NoiseReading, Price, RunStatus, StageUsage, StoredEndpoint } from '../worker/api-types';

export interface ChartPoint {
  step: number;
  epoch: number;
  action: string;
  candidate: number | null;
  /** The score the candidate had to beat (absent for points read back from stored steps). */
  faced?: number;
  current: number;
  best: number;
  trainHard: number;
  editBudget: number | null;
}

export interface LiveRun {
  runId: string;
  status: RunStatus;
  reason?: string;
  reasonKind?: string;
  stage?: EngineStage;
  step: number;
  epoch: number;
  totalSteps: number;
  progress?: { phase: string; done: number; total: number };
  points: ChartPoint[];
  baseline?: number;
  /** The learning curve's marks so far (core/learning-curve.ts). */
  curve: CurveMark[];
  usage: Record<string, StageUsage>;
  costUsd: number;
  log: { at: number; level: string; message: string }[];
  startedAt: number;
  firstPointAt?: number;
  /** A start or resume was asked for and the worker has not reported a status since. */
  starting?: boolean;
  /** How stochastic the target looks so far (issue #19). */
  noise?: NoiseReading;
}

export interface ConnectionDraft {
  presetId: string;
  target: StoredEndpoint;
  optimizer: StoredEndpoint;
  sameEndpoint: boolean;
  /** A separate LLM judge (used by the judge scorer); without it the optimizer judges. */
  judge?: StoredEndpoint;
  /** A separate user simulator (items with a user_goal, issue #31); without it the optimizer plays the user. */
  userSimulator?: StoredEndpoint;
  prices: { target?: Price; optimizer?: Price };
  remember: boolean;
}

export interface AppState {
  connection: ConnectionDraft;
  /** Keys being typed, until they are handed to the worker (client/keys.ts); memory only. */
  keys: { target: string; optimizer: string; judge?: string; userSimulator?: string };
  /** Which keys the worker holds (it never tells the page the keys themselves). */
  heldKeys: { target: boolean; optimizer: boolean; judge?: boolean; userSimulator?: boolean; remembered: boolean };
  datasetId: string | null;
  datasetName: string | null;
  skill: string;
  skillSource: string | null;
  /** The skill's Agent Skills name and description (from an imported SKILL.md, or typed); never trained. */
  skillMeta: SkillMeta | null;
  /** The skill package the skill was opened from (issue #23): its frontmatter and untrained files. */
  skillPackage: PackageShell | null;
  /** The run version or step the skill was branched from; a new run records it as its parent. */
  skillParent: { runId: string; hash: string; label: string } | null;
  /** Trigger queries for the activation track (issue #23 item 4), and the file they came from. */
  triggerQueries: { queries: TriggerQuery[]; source: string } | null;
  /** An environment module for agents' tools (issue #30), with what it offers as the worker found it. */
  environmentModule: EnvironmentModuleDraft | null;
  /** Hold a screen wake lock while a run is running (client/run-keepalive.ts). */
  keepAwake: boolean;
  /** Show a notification when a running run ends. */
  notifyOnEnd: boolean;
  config: RunConfig;
  /** MCP servers whose tools the agent calls (issue #31): kept with the next run, never their tokens. */
  mcp: McpSettings | null;
  live: LiveRun | null;
  /** A problem to show in the page-level alert. */
  problem: string | null;
  /** The user's own drafts while the zero-key demo is on (issue #20 item 2): put back on leaving it. */
  parked: ParkedDrafts | null;
}

/** What the demo sets aside rather than overwrites. */
export type ParkedDrafts = Pick<
  AppState,
  | 'connection'
  | 'datasetId'
  | 'datasetName'
  | 'skill'
  | 'skillSource'
  | 'skillMeta'
  | 'skillPackage'
  | 'skillParent'
  | 'triggerQueries'
  | 'environmentModule'
  | 'config'
>;

/** An opened environment module: its source as a run keeps it, and its tools for the Data screen. */
export interface EnvironmentModuleDraft {
  module: ModuleSource;
  tools: { name: string; description?: string }[];
  scores: boolean;
}

export const DEFAULT_CONNECTION: ConnectionDraft = {
  presetId: 'openai',
  target: { baseURL: 'https://api.openai.com/v1', model: 'gpt-4o-mini', temperature: 0, maxOutputTokens: 1024 },
  optimizer: { baseURL: 'https://api.openai.com/v1', model: 'gpt-4o', maxOutputTokens: 8192 },
  sameEndpoint: true,
  prices: {},
  remember: false,
};

export const DEFAULT_SKILL = '# Skill\n\nWrite the rules the model should follow here.\n';

/** Untrained package files beyond this size stay in the tab only: localStorage holds a few MB in all. */
export const MAX_DRAFT_ASSET_CHARS = 1_000_000;

/** A package shell as the drafts keep it: its files only while they fit, else how many were left out. */
export function draftOfPackage(shell: PackageShell | null): PackageShell | null {
  if (!shell || shell.assets.reduce((n, a) => n + a.data.length, 0) <= MAX_DRAFT_ASSET_CHARS) return shell;
  // The same object for the same shell: the drafts are written only when a field's identity changes.
  let draft = trimmedDrafts.get(shell);
  if (!draft) trimmedDrafts.set(shell, (draft = { ...shell, assets: [], assetsLeftOut: shell.assets.length }));
  return draft;
}
const trimmedDrafts = new WeakMap<PackageShell, PackageShell>();

/** Settings saved by an older version lack newer knobs: those take their defaults. */
export function withSavedSettings(saved: unknown, current: AppState): AppState {
  const s = (saved ?? {}) as Partial<AppState>;
  return { ...current, ...s, config: { ...DEFAULT_RUN_CONFIG, ...s.config } };
}

export const useApp = create<AppState>()(
  persist(
    (): AppState => ({
      connection: DEFAULT_CONNECTION,
      keys: { target: '', optimizer: '' },
      heldKeys: { target: false, optimizer: false, remembered: false },
      datasetId: null,
      datasetName: null,
      skill: DEFAULT_SKILL,
      skillSource: null,
      skillMeta: null,
      skillPackage: null,
      skillParent: null,
      triggerQueries: null,
      environmentModule: null,
      keepAwake: true,
      notifyOnEnd: false,
      config: DEFAULT_RUN_CONFIG,
      mcp: null,
      live: null,
      problem: null,
      parked: null,
    }),
    {
      name: 'skillwright-ui',
      version: 1,
      storage: draftsStorage(),
      // Never keys, never run data: only what the user is drafting.
      partialize: (s) => ({
        connection: s.connection,
        datasetId: s.datasetId,
        datasetName: s.datasetName,
        skill: s.skill,
        skillSource: s.skillSource,
        skillMeta: s.skillMeta,
        skillPackage: draftOfPackage(s.skillPackage),
        skillParent: s.skillParent,
        triggerQueries: s.triggerQueries,
        environmentModule: s.environmentModule,
        keepAwake: s.keepAwake,
        notifyOnEnd: s.notifyOnEnd,
        config: s.config,
        mcp: s.mcp,
        parked: s.parked,
      }),
      merge: withSavedSettings,
    },
  ),
);

export const setApp = useApp.setState;

/** The optimizer endpoint actually used: the target's when "same endpoint" is ticked. */
export function effectiveOptimizer(c: ConnectionDraft): StoredEndpoint {
  return c.sameEndpoint ? { ...c.optimizer, baseURL: c.target.baseURL, headers: c.target.headers } : c.optimizer;
}

/** The keys typed this session, each with the base URL it was typed for (the worker sends a key only there). */
export function effectiveKeys(s: Pick<AppState, 'connection' | 'keys'>): {
  target: string;
  optimizer: string;
  judge?: string;
  userSimulator?: string;
  hosts: { target: string; optimizer: string; judge?: string; userSimulator?: string };
} {
  const c = s.connection;
  const judge = c.judge && s.keys.judge ? { judge: s.keys.judge } : {};
  const sim = c.userSimulator && s.keys.userSimulator ? { userSimulator: s.keys.userSimulator } : {};
  return {
    target: s.keys.target,
    optimizer: c.sameEndpoint ? s.keys.target : s.keys.optimizer,
    ...judge,
    ...sim,
    hosts: {
      target: c.target.baseURL,
      optimizer: effectiveOptimizer(c).baseURL,
      ...(c.judge ? { judge: c.judge.baseURL } : {}),
      ...(c.userSimulator ? { userSimulator: c.userSimulator.baseURL } : {}),
    },
  };
}

/** The environment a run takes from the Data screen — its module or its MCP servers; the estimate reads the same. */
export function runEnvironment(s: Pick<AppState, 'environmentModule' | 'mcp'>): RunEnvironmentSpec | undefined {
  if (!s.environmentModule && !s.mcp?.servers.length) return undefined;
  return {
    ...(s.environmentModule ? { module: s.environmentModule.module } : {}),
    ...(s.mcp?.servers.length ? { mcp: s.mcp } : {}),
  };
}

/** The endpoints a run or an evaluation uses, from the Connect screen. */
export function runEndpoints(c: ConnectionDraft): {
  target: StoredEndpoint;
  optimizer: StoredEndpoint;
  judge?: StoredEndpoint;
  userSimulator?: StoredEndpoint;
} {
  return {
    target: c.target,
    optimizer: effectiveOptimizer(c),
    ...(c.judge ? { judge: c.judge } : {}),
    ...(c.userSimulator ? { userSimulator: c.userSimulator } : {}),
  };
}
