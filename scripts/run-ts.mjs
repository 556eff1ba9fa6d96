// Runs a TypeScript module of this repository in Node through Vite's module runner, so that
// scripts share the exact code the tests use, without a separate TypeScript toolchain.
// Usage: node scripts/run-ts.mjs <module.ts> [args…]   (the module exports main(argv))
import { runnerImport } from 'vite';
import { resolve } from 'node:path';

const [file, ...args] = process.argv.slice(2);
if (!file) {
  console.error('usage: node scripts/run-ts.mjs <module.ts> [args…]');
  process.exit(2);
}
const { module } = await runnerImport(resolve(file), { configFile: false, logLevel: 'error' });
const code = await module.main(args);
if (typeof code === 'number') process.exitCode = code;
