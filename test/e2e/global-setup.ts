// Builds the app once into a temporary folder and serves it with `vite preview` on 127.0.0.1
// for the e2e tests. Without Chromium the e2e part is skipped with one loud line — unless CI
// or REQUIRE_E2E is set, where a missing browser fails the run.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { build, preview } from 'vite';
import type { TestProject } from 'vitest/node';
import { findChromium } from './support/chromium';

declare module 'vitest' {
  export interface ProvidedContext {
    appUrl: string;
    e2eSkipReason: string;
    distDir: string;
  }
}

export default async function setup(project: TestProject) {
  if (!findChromium()) {
    const reason = 'Chromium not found (set CHROMIUM_PATH, or: apt-get install -y --no-install-recommends chromium)';
    if (process.env.CI || process.env.REQUIRE_E2E) throw new Error(`E2E tests need a browser: ${reason}`);
    console.warn(`\n!!! SKIPPING END-TO-END TESTS: ${reason} !!!\n`);
    project.provide('e2eSkipReason', reason);
    project.provide('appUrl', '');
    project.provide('distDir', '');
    return;
  }
  const outDir = mkdtempSync(join(tmpdir(), 'skillwright-dist-'));
  // Vitest sets NODE_ENV=test, and Vite then builds React's development runtime: the page under
  // test must be the production build users get (its speed and size are what the tests measure).
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ logLevel: 'warn', mode: 'production', build: { outDir, emptyOutDir: true } });
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
  const server = await preview({ logLevel: 'warn', build: { outDir }, preview: { host: '127.0.0.1', port: 0, strictPort: false } });
  const { port } = server.httpServer.address() as AddressInfo;
  project.provide('appUrl', `http://127.0.0.1:${port}/`);
  project.provide('e2eSkipReason', '');
  project.provide('distDir', outDir);
  return async () => {
    await server.close();
    rmSync(outDir, { recursive: true, force: true });
  };
}
