import { defineConfig } from 'eslint/config';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

/** A folder's import rule: the sibling folders and packages it must not import. */
function layer(files, folders, packages, message, pageSide = false) {
  const up = (f) => [`../${f}/*`, `../../${f}/*`, `../../../${f}/*`];
  const patterns = [
    { group: folders.flatMap(up), message },
    { group: packages, message },
  ];
  // The page may import the worker API's contract, and nothing else of the worker's.
  if (pageSide) patterns.push({ group: [...up('worker'), '!**/worker/api-types'], message });
  return { files: [files], rules: { 'no-restricted-imports': ['error', { patterns }] } };
}

function coreRule(files, outside) {
  return {
    files,
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          { group: outside, message: 'src/core imports nothing of ours outside core.' },
          { group: ['openai', 'idb', 'comlink', 'react', 'react-dom', 'zustand', 'monaco-editor', 'node:*'],
            message: 'src/core touches no DOM, network, storage or UI.' },
        ],
      }],
    },
  };
}

export default defineConfig(
  { ignores: ['dist/**', 'test-results/**', 'node_modules/**'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  reactHooks.configs.flat.recommended,
  {
    files: ['src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser, ...globals.worker } },
  },
  // core is pure: it may import only itself and a few pure libraries (its domain folders one level down).
  coreRule(['src/core/*.ts'], ['../*', '!../core/*']),
  coreRule(['src/core/*/**/*.ts'], ['../../*', '!../../core/*']),
  // The layers above core import only what is below them (test/architecture.test.ts checks the same).
  layer('src/engine/**', ['llm', 'mcp', 'storage', 'service', 'worker', 'store', 'client', 'ui'], ['openai', '@modelcontextprotocol/*', 'idb', 'comlink', 'react', 'zustand', 'monaco-editor'],
    'src/engine runs over ports: no SDK, storage, worker or page code.'),
  layer('src/llm/**', ['mcp', 'storage', 'service', 'worker', 'store', 'client', 'ui'], ['idb', 'comlink', 'react', 'zustand'], 'src/llm is the SDK adapter of the engine’s LLM port.'),
  layer('src/mcp/**', ['llm', 'storage', 'service', 'worker', 'store', 'client', 'ui'], ['openai', 'idb', 'comlink', 'react', 'zustand'],
    'src/mcp is the MCP SDK under the engine’s ToolEnvironment.'),
  layer('src/storage/**', ['llm', 'mcp', 'service', 'worker', 'store', 'client', 'ui'], ['openai', 'comlink', 'react', 'zustand'], 'src/storage is IndexedDB under the engine’s ports.'),
  // The service reaches mcp/ for one thing: service/target.ts connects a run's MCP servers (issue #41).
  layer('src/service/**', ['worker', 'cli', 'store', 'client', 'ui'], ['react', 'zustand', 'monaco-editor', 'comlink', 'idb', '@modelcontextprotocol/*'],
    'The run service is written over ports: no host, page code or browser storage (a host brings those).'),
  layer('src/worker/**', ['store', 'client', 'ui', 'cli'], ['react', 'zustand', 'monaco-editor'], 'The worker never imports page code.'),
  layer('src/cli/**', ['worker', 'llm', 'mcp', 'store', 'client', 'ui'], ['react', 'zustand', 'monaco-editor', 'idb', 'comlink', 'openai'],
    'The headless runner is a host of the run service: no browser worker, LLM client, MCP connection (the service makes a run’s environment), page code or browser storage.'),
  { files: ['src/cli/**', 'src/storage/file-store.ts'], languageOptions: { globals: { ...globals.node } } },
  // The page reaches below only through the worker API's contract.
  ...['store', 'client', 'ui'].map((dir) =>
    layer(`src/${dir}/**`, ['engine', 'storage', 'llm', 'mcp'], ['openai', 'idb', '@modelcontextprotocol/*'], 'The page imports types from below only through src/worker/api-types.', true)),
  {
    files: ['test/**', 'scripts/**', 'bin/**', '*.config.*', '.ci/**'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
);
