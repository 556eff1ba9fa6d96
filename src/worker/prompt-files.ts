// The prompt files as Vite bundles them (prompts/*.md, raw text). The only place that knows
// prompts are files in the browser build; Node reads the same files from disk.
import { promptFilesByName } from '../engine/prompts';

const files = import.meta.glob('../../prompts/*.md', { query: '?raw', import: 'default', eager: true }) as Record<
  string,
  string
>;

export const PROMPT_FILES: Record<string, string> = promptFilesByName(files);
