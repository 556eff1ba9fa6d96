/**
 * `npm run docs`: writes what the docs generate from code — the knob table and the table of
 * reasoning efforts and wires in docs/guide.md (between their markers) and the CLI config's JSON
 * Schema in docs/skillwright.schema.json.
 * Tests fail when either differs from what this writes.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { knobsMarkdown } from '../src/core/config/knobs';
import { DEFAULT_RUN_CONFIG } from '../src/core/config/run-config';
import { cliConfigSchema } from '../src/cli/config-schema';
import { effortsMarkdown } from '../src/core/config/capabilities';

export const KNOBS_START = '<!-- knobs:start (npm run docs) -->';
export const KNOBS_END = '<!-- knobs:end -->';
export const EFFORTS_START = '<!-- efforts:start (npm run docs) -->';
export const EFFORTS_END = '<!-- efforts:end -->';

/** The text with what lies between two markers replaced. */
function between(text: string, start: string, end: string, body: string, file: string): string {
  const a = text.indexOf(start);
  const b = text.indexOf(end);
  if (a < 0 || b < a) throw new Error(`${file} has no ${start} … ${end} section`);
  return `${text.slice(0, a + start.length)}\n\n${body}\n\n${text.slice(b)}`;
}

export async function main(): Promise<number> {
  const guide = 'docs/guide.md';
  let text = readFileSync(guide, 'utf8');
  text = between(text, KNOBS_START, KNOBS_END, knobsMarkdown(DEFAULT_RUN_CONFIG), guide);
  text = between(text, EFFORTS_START, EFFORTS_END, effortsMarkdown(), guide);
  writeFileSync(guide, text);
  writeFileSync('docs/skillwright.schema.json', `${JSON.stringify(cliConfigSchema(), null, 2)}\n`);
  console.log(`Wrote the knob table and the efforts table in ${guide}, and docs/skillwright.schema.json.`);
  return 0;
}
