// The core realm is pure (DESIGN §2): it imports only itself and a few pure libraries, and uses
// nothing that reads the clock, randomness, the network, storage or the page. tsconfig for
// src/core already refuses DOM, Node and timer types; this catches what type-checking cannot.
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const CORE = new URL('../src/core/', import.meta.url).pathname;
const ALLOWED_PACKAGES = new Set(['jsonrepair', 'papaparse']);
const FORBIDDEN = [/\bMath\.random\b/, /\bDate\.now\b/, /\bnew Date\(/, /\bperformance\./, /\bfetch\(/, /\bsetTimeout\b/, /\bsetInterval\b/, /\bindexedDB\b/, /\blocalStorage\b/, /\bdocument\./, /\bwindow\./, /\bconsole\./, /\bprocess\./];

const files = readdirSync(CORE).filter((f) => f.endsWith('.ts'));

describe('src/core is pure', () => {
  it('has files to check', () => expect(files.length).toBeGreaterThan(10));
  it.each(files)('%s imports only core modules and pure packages', (file) => {
    const text = readFileSync(join(CORE, file), 'utf8');
    for (const m of text.matchAll(/^\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]/gm)) {
      const spec = m[1];
      if (spec.startsWith('./')) continue;
      expect(ALLOWED_PACKAGES.has(spec), `${file} imports ${spec}`).toBe(true);
    }
  });
  it.each(files)('%s uses no clock, randomness, IO or page globals', (file) => {
    const code = readFileSync(join(CORE, file), 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
    for (const re of FORBIDDEN) expect(re.test(code), `${file} matches ${re}`).toBe(false);
  });
});
