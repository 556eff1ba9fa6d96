// DESIGN pins Node ≥ 20.19: no runtime dependency may declare a newer minimum (issue #9 —
// openai 7.x declares node >= 22, so the project uses openai 6.x).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const NODE = [20, 19];
const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { dependencies: Record<string, string> };

/** Whether a simple engines range (alternatives of ">=X.Y", "^X.Y", "X") admits Node 20.19. */
function admits(range: string): boolean {
  return range.split('||').some((alt) => {
    const m = /^\s*(>=|\^|~)?\s*v?(\d+)(?:\.(\d+))?/.exec(alt);
    if (!m) return true; // a form this check does not read is not held against the package
    const [major, minor] = [Number(m[2]), Number(m[3] ?? 0)];
    if (m[1] === '>=' || m[1] === undefined) return major < NODE[0] || (major === NODE[0] && minor <= NODE[1]);
    return major === NODE[0] && minor <= NODE[1];
  });
}

describe('dependency engines', () => {
  it('reads ranges the way npm would for Node 20.19', () => {
    expect(admits('>=22.0.0')).toBe(false);
    expect(admits('>=18')).toBe(true);
    expect(admits('^20.19.0 || >=22.12.0')).toBe(true);
    expect(admits('^20.20.0')).toBe(false);
  });

  it.each(Object.keys(pkg.dependencies))('%s runs on Node 20.19', (name) => {
    const engines = (JSON.parse(readFileSync(new URL(`../node_modules/${name}/package.json`, import.meta.url), 'utf8')) as { engines?: { node?: string } }).engines;
    if (engines?.node) expect(admits(engines.node), `${name} declares node ${engines.node}`).toBe(true);
  });
});
