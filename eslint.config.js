import { defineConfig } from 'eslint/config';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default defineConfig(
  { ignores: ['dist/**', 'test-results/**', 'node_modules/**'] },
  js.configs.recommended,
  tseslint.configs.recommended,
  reactHooks.configs.flat.recommended,
  {
    files: ['src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser, ...globals.worker } },
  },
  {
    // core is pure: it may import only itself and a few pure libraries.
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          { group: ['../*', '!../core/*'], message: 'src/core imports nothing of ours outside core.' },
          { group: ['openai', 'idb', 'comlink', 'react', 'react-dom', 'zustand', 'monaco-editor', 'node:*'],
            message: 'src/core touches no DOM, network, storage or UI.' },
        ],
      }],
    },
  },
  {
    files: ['test/**', 'scripts/**', '*.config.*', '.ci/**'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
);
