import { readdirSync, readFileSync } from 'node:fs';
import { buildPromptSet, type PromptSet } from '../../src/engine/prompts';

const DIR = new URL('../../prompts/', import.meta.url);

/** The prompts as Node reads them from disk (the worker gets the same files through Vite). */
export function promptFiles(): Record<string, string> {
  return Object.fromEntries(readdirSync(DIR).filter((f) => f.endsWith('.md')).map((f) => [f.replace(/\.md$/, ''), readFileSync(new URL(f, DIR), 'utf8')]));
}

export function loadPrompts(overrides: Record<string, string> = {}): PromptSet {
  return buildPromptSet(promptFiles(), overrides);
}
