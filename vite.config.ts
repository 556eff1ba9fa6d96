/// <reference types="vitest/config" />
import { build, defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

/** The tests that run through the SDK against the test LLM server (the `engine` project). */
const ENGINE_TESTS = [
  'test/engine/**/*.test.ts',
  'test/worker/**/*.test.ts',
  'test/llm/**/*.test.ts',
  'test/service/**/*.test.ts',
];

/**
 * `virtual:module-host-script`: src/worker/module.worker.ts bundled into one classic script, as
 * text (issue #39). Environment modules run in a sandboxed iframe — an opaque origin — which can
 * load nothing from this origin and cannot start a module worker from a blob, so the trainer
 * hands it this text to start as a classic worker. Built the same way in dev, build and tests.
 */
function moduleHostScript(): Plugin {
  const id = 'virtual:module-host-script';
  const entry = 'src/worker/module.worker.ts';
  return {
    name: 'skillwright:module-host-script',
    resolveId: (source) => (source === id ? `\0${id}` : undefined),
    async load(resolved) {
      if (resolved !== `\0${id}`) return undefined;
      const out = await build({
        configFile: false,
        logLevel: 'silent',
        build: {
          write: false,
          target: 'es2022',
          minify: true,
          lib: { entry, formats: ['iife'], name: 'moduleHost', fileName: 'module-host' },
        },
      });
      const { output } = Array.isArray(out) ? out[0] : (out as Extract<typeof out, { output: unknown }>);
      for (const f of output[0].moduleIds ?? []) if (!f.startsWith('\0')) this.addWatchFile(f);
      return `export default ${JSON.stringify(output[0].code)};`;
    },
  };
}

export default defineConfig({
  base: './', // relative asset URLs: dist/ can be hosted under any path
  plugins: [react(), moduleHostScript()],
  // 'iife' cannot code-split worker bundles; the trainer worker hands modules' sandboxes their host script.
  worker: { format: 'es', plugins: () => [moduleHostScript()] },
  build: {
    target: 'es2022',
    chunkSizeWarningLimit: 10000, // Monaco's chunks are multi-MB by nature and load lazily
    rolldownOptions: { checks: { bundlerTimings: false } },
  },
  test: {
    // Vitest leaves one core free by default; on a 2-core machine that means one test file at a
    // time. Most of our files wait on sockets and timers, so two at once halves the wall time.
    maxWorkers: 2,
    projects: [
      {
        // Pure logic: unit and property tests, the store, the storage repositories, the docs.
        // Its target is 30 s on 2 cores (test:watch runs it).
        extends: true,
        test: {
          name: 'unit',
          environment: 'node',
          setupFiles: ['test/setup.ts'],
          isolate: false, // see the engine project
          include: ['test/**/*.test.{ts,tsx}'],
          exclude: ['test/e2e/**', 'test/cli/cli*.test.ts', ...ENGINE_TESTS],
        },
      },
      {
        // Everything that talks to the test LLM server through the real SDK: whole trainings,
        // resumes after kills, the worker API. CPU-bound on HTTP (about 2 ms a call, ~33 000 calls).
        extends: true,
        test: {
          name: 'engine',
          environment: 'node',
          setupFiles: ['test/setup.ts'],
          // Integration tests run whole trainings over HTTP (a few seconds alone). These are limits,
          // not waits: beside a CPU-heavy job on two cores a whole training, or a hook that starts
          // the test server and a worker tab, took 4–6× its idle time and ran into 20 s / 10 s.
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // One module graph per worker instead of one per file: re-importing the SDK, idb and the
          // engine for each of 80 files cost ~40 s of the 80 s wall (tests keep no module state
          // between files; test/setup.ts patches globals once). A larger young generation halves
          // the scavenges of the HTTP-heavy trainings.
          isolate: false,
          execArgv: ['--max-semi-space-size=64'],
          include: ENGINE_TESTS,
        },
      },
      {
        // The headless runner as spawned processes (each starts Vite's module runner).
        extends: true,
        test: {
          name: 'cli',
          environment: 'node',
          setupFiles: ['test/setup.ts'],
          include: ['test/cli/cli*.test.ts'],
          testTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          environment: 'node',
          // After the Node projects: the browser's frame-time budgets are measured on idle cores.
          sequence: { groupOrder: 1 },
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: ['test/e2e/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
