// What the docs generate from code stays equal to the code (regenerate with `npm run docs`), and
// every src/ folder has a README naming each of its files.
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { knobsMarkdown } from '../src/core/config/knobs';
import { DEFAULT_RUN_CONFIG } from '../src/core/config/run-config';
import { EFFORTS_END, EFFORTS_START, KNOBS_END, KNOBS_START } from '../scripts/write-docs';
import { effortsMarkdown } from '../src/core/config/capabilities';

const ROOT = new URL('..', import.meta.url).pathname;

describe('generated docs', () => {
  it('docs/guide.md holds the knob table as the registry writes it', () => {
    const guide = readFileSync(join(ROOT, 'docs/guide.md'), 'utf8');
    const between = guide.slice(guide.indexOf(KNOBS_START) + KNOBS_START.length, guide.indexOf(KNOBS_END)).trim();
    expect(between).toBe(knobsMarkdown(DEFAULT_RUN_CONFIG));
    expect(between).toContain('| Edit budget | `editBudget` | `6` | 1 – 999 |');
  });

  it('docs/guide.md holds the table of reasoning efforts and wires as the code writes it (issue #44)', () => {
    const guide = readFileSync(join(ROOT, 'docs/guide.md'), 'utf8');
    const between = guide.slice(guide.indexOf(EFFORTS_START) + EFFORTS_START.length, guide.indexOf(EFFORTS_END)).trim();
    expect(between).toBe(effortsMarkdown());
    expect(between).toContain('| `xhigh` |');
    expect(between).toContain('| `"api": "responses"` |');
  });

  it('every src/ folder has a README that names each of its modules', () => {
    const folders = (dir: string): string[] => [dir, ...readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory()).flatMap((d) => folders(join(dir, d.name)))];
    for (const dir of folders(join(ROOT, 'src')).filter((d) => !d.endsWith('/ui/common') && !/\/ui\/[a-z]+$/.test(d))) {
      const readme = join(dir, 'README.md');
      expect(existsSync(readme), `${dir} has a README`).toBe(true);
      if (dir === join(ROOT, 'src')) continue;
      const text = readFileSync(readme, 'utf8');
      for (const f of readdirSync(dir).filter((n) => /\.tsx?$/.test(n) && !n.endsWith('.d.ts'))) expect(text, `${readme} names ${f}`).toContain(f);
    }
  });

  it('src/ui/README.md names every screen folder’s files (the folders share it)', () => {
    const ui = join(ROOT, 'src/ui');
    const text = readFileSync(join(ui, 'README.md'), 'utf8');
    for (const d of readdirSync(ui, { withFileTypes: true }).filter((e) => e.isDirectory() && !existsSync(join(ui, e.name, 'README.md'))))
      for (const f of readdirSync(join(ui, d.name)).filter((n) => /\.tsx?$/.test(n))) expect(text, `src/ui/README.md names ${d.name}/${f}`).toContain(f);
  });

  it('the README stays short: the two commands, the rest in the guide', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(readme).toContain('npm install && npm run dev');
    expect(readme).toContain('npm install && npm test');
    expect(readme.split(/\s+/).length).toBeLessThan(600);
  });
});
