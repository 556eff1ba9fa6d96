/**
 * `npm run docs`: writes what the docs generate from code — the knob table in docs/guide.md
 * (between its knobs markers) and the CLI config's JSON Schema in docs/skillwright.schema.json.
 * Tests fail when either differs from what this writes.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { knobsMarkdown } from '../src/core/config/knobs';
import { DEFAULT_RUN_CONFIG } from '../src/core/config/run-config';
import { cliConfigSchema } from '../src/cli/config-schema';

export const KNOBS_START = '<!-- knobs:start (npm run docs) -->';
export const KNOBS_END = '<!-- knobs:end -->';

export async function main(): Promise<number> {
  const guide = 'docs/guide.md';
  const text = readFileSync(guide, 'utf8');
  const a = text.indexOf(KNOBS_START);
  const b = text.indexOf(KNOBS_END);
  if (a < 0 || b < a) throw new Error(`${guide} has no ${KNOBS_START} … ${KNOBS_END} section`);
  const table = knobsMarkdown(DEFAULT_RUN_CONFIG);
  writeFileSync(guide, `${text.slice(0, a + KNOBS_START.length)}\n\n${table}\n\n${text.slice(b)}`);
  writeFileSync('docs/skillwright.schema.json', `${JSON.stringify(cliConfigSchema(), null, 2)}\n`);
  console.log(`Wrote the knob table in ${guide} and docs/skillwright.schema.json.`);
  return 0;
}
