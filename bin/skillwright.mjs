#!/usr/bin/env node
// `skillwright`: runs src/cli/main.ts through Vite's module runner, as scripts/run-ts.mjs does, so
// the command line runs exactly the engine the page and the tests run (a clone with its
// dependencies installed is all it needs: `npx skillwright …`).
import { runnerImport } from 'vite';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const { module } = await runnerImport(`${root}src/cli/node-entry.ts`, { configFile: false, logLevel: 'error' });
// Node's own import() for a user's environment module: the module runner's is closed by then.
process.exitCode = await module.main(process.argv.slice(2), (url) => import(url));
