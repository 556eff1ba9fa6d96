// The core realm is pure (DESIGN §2): it imports only itself and a few pure libraries, and uses
// nothing that reads the clock, randomness, the network, storage or the page. tsconfig for
// src/core already refuses DOM, Node and timer types; this catches what type-checking cannot.
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const CORE = new URL('../src/core/', import.meta.url).pathname;
const ALLOWED_PACKAGES = new Set(['jsonrepair', 'papaparse', '@noble/hashes/sha2.js', 'diff', 'fflate']);
const FORBIDDEN = [/\bMath\.random\b/, /\bDate\.now\b/, /\bnew Date\(/, /\bperformance\./, /\bfetch\(/, /\bsetTimeout\b/, /\bsetInterval\b/, /\bindexedDB\b/, /\blocalStorage\b/, /\bdocument\./, /\bwindow\./, /\bconsole\./, /\bprocess\./];

// Core's files, its domain folders' included (e.g. "agent/tool-spec.ts").
const files = readdirSync(CORE, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.ts'));

describe('src/core is pure', () => {
  it('has files to check', () => expect(files.length).toBeGreaterThan(10));
  it.each(files)('%s imports only core modules and pure packages', (file) => {
    const text = readFileSync(join(CORE, file), 'utf8');
    for (const m of text.matchAll(/^\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]/gm)) {
      const spec = m[1];
      if (spec.startsWith('./')) continue;
      // From a domain folder, a sibling file of core is one level up: still inside core.
      if (spec.startsWith('../') && join(CORE, file, '..', spec).startsWith(CORE)) continue;
      expect(ALLOWED_PACKAGES.has(spec), `${file} imports ${spec}`).toBe(true);
    }
  });
  it.each(files)('%s uses no clock, randomness, IO or page globals', (file) => {
    const code = readFileSync(join(CORE, file), 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
    for (const re of FORBIDDEN) expect(re.test(code), `${file} matches ${re}`).toBe(false);
  });
});

// Issue #29 item 6: core is in domain folders a newcomer finds by name, never a bucket again.
// Its top holds only those folders and the realm's own compiler settings; each folder says in a
// README what lives there, and imports only the folders before it in this order (src/core/README.md).
const DOMAINS = ['basics', 'skill', 'scoring', 'verdict', 'agent', 'dataset', 'config', 'simulators', 'report'];
const CORE_TOP_FILES = ['README.md', 'tsconfig.json', 'platform.d.ts'];

describe('src/core is in domain folders', () => {
  const top = readdirSync(CORE, { withFileTypes: true });
  it('has only domain folders and the realm settings at its top', () => {
    expect(top.filter((e) => e.isFile()).map((e) => e.name).sort()).toEqual([...CORE_TOP_FILES].sort());
    expect(top.filter((e) => e.isDirectory()).map((e) => e.name).sort()).toEqual([...DOMAINS].sort());
  });
  it.each(DOMAINS)('%s/ has a README and files of its own', (domain) => {
    const own = readdirSync(join(CORE, domain));
    expect(own).toContain('README.md');
    expect(own.filter((f) => f.endsWith('.ts')).length).toBeGreaterThan(0);
  });
  it.each(files.filter((f) => f.includes('/')))('%s imports only the domains before its own', (file) => {
    const own = DOMAINS.indexOf(file.split('/')[0]);
    const text = readFileSync(join(CORE, file), 'utf8');
    for (const m of text.matchAll(/^\s*(?:import|export)\s[^'"]*?from\s+['"](\.[^'"]+)['"]/gm)) {
      const to = relative(CORE, join(CORE, file, '..', m[1])).split('/')[0];
      expect(DOMAINS.indexOf(to), `${file} imports ${m[1]}`).toBeLessThanOrEqual(own);
    }
  });
});

// The layers above core (DESIGN §2; issue #10): each folder imports only the folders below it,
// and the page (ui, store, client) reaches the worker's realm through worker/api-types alone.
const SRC = new URL('../src/', import.meta.url).pathname;
const PAGE_BOUNDARY = 'worker/api-types';
const LAYERS: Record<string, { folders: string[]; forbiddenPackages: string[] }> = {
  engine: { folders: ['core', 'engine'], forbiddenPackages: ['openai', '@modelcontextprotocol/sdk', 'idb', 'comlink', 'react', 'zustand', 'monaco-editor'] },
  llm: { folders: ['core', 'engine', 'llm'], forbiddenPackages: ['idb', 'comlink', 'react', 'zustand'] },
  // MCP servers as an environment (issue #31): the SDK's client under the engine's ToolEnvironment.
  mcp: { folders: ['core', 'engine', 'mcp'], forbiddenPackages: ['openai', 'idb', 'comlink', 'react', 'zustand'] },
  storage: { folders: ['core', 'engine', 'storage'], forbiddenPackages: ['openai', 'comlink', 'react', 'zustand'] },
  // The run service (issue #29): every use case once, over the host's ports.
  service: { folders: ['core', 'engine', 'llm', 'storage', 'mcp', 'service'], forbiddenPackages: ['react', 'zustand', 'monaco-editor', 'comlink', 'idb', '@modelcontextprotocol/sdk'] },
  worker: { folders: ['core', 'engine', 'llm', 'mcp', 'storage', 'service', 'worker'], forbiddenPackages: ['react', 'zustand', 'monaco-editor'] },
  // The headless runner (issue #22): a second host of the run service, in a Node process, with a file store.
  // It imports nothing of the browser worker's, and no LLM client: the service builds the port.
  cli: { folders: ['core', 'engine', 'storage', 'service', 'cli'], forbiddenPackages: ['react', 'zustand', 'monaco-editor', 'idb', 'comlink', 'openai'] },
  store: { folders: ['core', 'store', PAGE_BOUNDARY], forbiddenPackages: ['openai', 'idb', '@modelcontextprotocol/sdk'] },
  client: { folders: ['core', 'client', 'store', PAGE_BOUNDARY], forbiddenPackages: ['openai', 'idb', '@modelcontextprotocol/sdk'] },
  ui: { folders: ['core', 'ui', 'store', 'client', PAGE_BOUNDARY], forbiddenPackages: ['openai', 'idb', '@modelcontextprotocol/sdk'] },
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [join(dir, e.name)] : [],
  );
}

/** Where an import lands, relative to src/ (e.g. "engine/types"), or the package name. */
function target(file: string, spec: string): { local: string } | { pkg: string } {
  if (!spec.startsWith('.')) return { pkg: spec.startsWith('@') ? spec.split('/').slice(0, 2).join('/') : spec.split('/')[0] };
  return { local: join(file, '..', spec).slice(SRC.length).replace(/\.tsx?$/, '') };
}

describe('each layer imports only the layers below it', () => {
  it.each(Object.entries(LAYERS))('src/%s', (layer, rule) => {
    const files = sourceFiles(join(SRC, layer));
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/^\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]/gm)) {
        const t = target(file, m[1]);
        const where = `${file.slice(SRC.length)} imports ${m[1]}`;
        if ('pkg' in t) expect(rule.forbiddenPackages.includes(t.pkg), where).toBe(false);
        else expect(rule.folders.some((f) => t.local === f || t.local.startsWith(`${f}/`)), where).toBe(true);
      }
    }
  });
});

// Issue #21: no type circle between the engine's ports and its value types.
describe('engine value types stand alone', () => {
  it('engine/types.ts imports nothing of the engine', () => {
    const text = readFileSync(join(SRC, 'engine/types.ts'), 'utf8');
    const local = [...text.matchAll(/^\s*import\s[^'"]*?from\s+['"](\.[^'"]+)['"]/gm)].map((m) => m[1]);
    expect(local.filter((spec) => spec.startsWith('./'))).toEqual([]);
  });
});

// Issue #21: no module of src imports itself back through others — types included (the artifact
// values once lived in the stages that write them, which import the artifacts module).
describe('no import circles', () => {
  const all = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? all(join(dir, d.name)) : /\.tsx?$/.test(d.name) ? [join(dir, d.name)] : []));
  const files = new Set(all(SRC));
  const resolve = (from: string, spec: string): string | undefined => {
    const base = join(from, '..', spec);
    return [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].find((f) => files.has(f));
  };
  const deps = new Map(
    [...files].map((f) => [
      f,
      [...readFileSync(f, 'utf8').matchAll(/^\s*(?:import|export)\s[^'"]*?from\s+['"](\.[^'"]+)['"]/gm)].flatMap((m) => resolve(f, m[1]) ?? []),
    ]),
  );

  it('finds none, from any file', () => {
    const circles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (f: string, path: string[]) => {
      if (state.get(f) === 'done') return;
      if (state.get(f) === 'open') {
        circles.push([...path.slice(path.indexOf(f)), f].map((p) => p.slice(SRC.length)).join(' → '));
        return;
      }
      state.set(f, 'open');
      for (const d of deps.get(f) ?? []) visit(d, [...path, f]);
      state.set(f, 'done');
    };
    for (const f of files) visit(f, []);
    expect(files.size).toBeGreaterThan(100);
    expect(circles).toEqual([]);
  });
});

// Issue #21: one writer of the run state per spine — a step (step/run-step.ts), an epoch's end
// (epoch/boundary.ts) and the run around them (run/trainer.ts, run/finish.ts). Every stage
// returns its outcome instead; the validation scorer only fills its memo of scores by skill.
describe('who writes the run state', () => {
  const ENGINE = join(SRC, 'engine');
  const WRITERS = new Set(['step/run-step.ts', 'epoch/boundary.ts', 'run/trainer.ts', 'run/finish.ts']);
  const MEMO_ONLY = new Map([['validation-score.ts', /^state\.selectionCache\[/]]);
  const files = sourceFiles(ENGINE).map((f) => f.slice(ENGINE.length + 1));
  it.each(files)('engine/%s', (file) => {
    const code = readFileSync(join(ENGINE, file), 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
    const writes = [...code.matchAll(/\bstate\.[a-zA-Z]+(?:\[[^\]]*\])?\s*(?:=(?!=)|\+\+|\+=)|Object\.assign\(state\b/g)].map((m) => m[0]);
    if (WRITERS.has(file)) return;
    const memo = MEMO_ONLY.get(file);
    expect(writes.filter((w) => !memo?.test(w)), `${file} writes the run state`).toEqual([]);
  });
  it('has writers that write', () => {
    for (const w of WRITERS) expect(readFileSync(join(ENGINE, w), 'utf8')).toMatch(/\bstate\.gate\s*=/);
  });
});

// Issue #29: the engine's shared pieces (session, gate, artifacts, keys) sit at its top, so no
// sub-folder imports a sibling's internals; the trainer alone calls each sub-folder's face. And
// the top never reaches down into a sub-folder.
describe('engine sub-folders import only the top and themselves', () => {
  const ENGINE = join(SRC, 'engine');
  const FACES = new Set(['step/run-step', 'epoch/boundary', 'target/model-target']);
  const files = sourceFiles(ENGINE).map((f) => f.slice(ENGINE.length + 1));
  it.each(files)('engine/%s', (file) => {
    const own = file.includes('/') ? file.split('/')[0] : null;
    const text = readFileSync(join(ENGINE, file), 'utf8');
    for (const m of text.matchAll(/^\s*(?:import|export)\s[^'"]*?from\s+['"](\.[^'"]+)['"]/gm)) {
      const to = relative(ENGINE, join(ENGINE, file, '..', m[1]));
      if (to.startsWith('..')) continue; // core
      const folder = to.includes('/') ? to.split('/')[0] : null;
      if (folder === null || folder === own) continue;
      const where = `engine/${file} imports ${m[1]}`;
      // The trainer calls a step and an epoch's end; a session (run/) takes the model's target by default.
      const face = to === 'target/model-target' ? own === 'run' : file === 'run/trainer.ts';
      expect(own !== null && FACES.has(to) && face, where).toBe(true);
    }
  });
});

// Issue #29: the page's worker and the runner are two thin hosts of one run service. Neither
// builds an LLM port, a run record, a report or an evals file, nor starts the engine itself:
// the service does, once, for both.
describe('the hosts leave the use cases to the run service', () => {
  const HOST_FILES = ['worker', 'cli'].flatMap((h) => sourceFiles(join(SRC, h)));
  const BUILDERS = /\b(createLlmPort|runTraining|evaluateSkill|improveWithFeedback|estimateCost|trainInputOf|renderRunReport|reportData|toEvalsFile|bundlePieces|blameSkill|readStepRecords)\b/;
  it.each(HOST_FILES.map((f) => f.slice(SRC.length)))('%s', (file) => {
    const code = readFileSync(join(SRC, file), 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
    const imports = [...code.matchAll(/^\s*import\s[^'"]*?from\s+['"](\.[^'"]+)['"]/gm)].map((m) => m[0]);
    // What the service exposes may be named (service.evaluateSkill); what builds it may not be imported.
    const fromBelow = imports.filter((i) => !/\/service\//.test(i) && BUILDERS.test(i));
    expect(fromBelow, `${file} imports a builder the run service owns`).toEqual([]);
    expect(/:\s*RunRecord\s*=\s*\{/.test(code), `${file} builds a run record`).toBe(false);
    // Issue #41: a run's target and environment are chosen by the service (service/target.ts) alone.
    expect(/mcp\/from-settings|\bmcpEnvironmentOf\b|\btargetRunner\b|\bharnessTarget\b/.test(code), `${file} chooses a run's environment or target`).toBe(false);
  });
  // ... over the one port each host implements for it: what service/target.ts asks of a host.
  it.each(['worker', 'cli'])('%s implements service/target.ts’s EnvironmentHost', (host) => {
    const implementers = sourceFiles(join(SRC, host)).filter((f) =>
      /import type \{[^}]*\bEnvironmentHost\b[^}]*\} from '[./]+\/service\/target'/.test(readFileSync(f, 'utf8')),
    );
    expect(implementers.length, `${host} gives a run's environment through service/target.ts`).toBeGreaterThan(0);
  });
});
