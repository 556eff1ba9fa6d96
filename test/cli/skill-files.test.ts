// The runner writes a package's folder (issue #28 item 1): a path that would land outside it is
// refused before anything is written.
import { describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strToU8 } from 'fflate';
import { writePackageFolder } from '../../src/cli/skill-files';

describe('writePackageFolder', () => {
  it('writes every file inside the folder', () => {
    const out = mkdtempSync(join(tmpdir(), 'sw-pkg-'));
    writePackageFolder(join(out, 'best-skill'), { name: 'p', skillMd: '# P\n', references: [{ path: 'references/a.md', text: 'A\n' }], assets: [{ path: 'scripts/run.sh', bytes: strToU8('echo\n') }] });
    expect(readFileSync(join(out, 'best-skill', 'scripts', 'run.sh'), 'utf8')).toBe('echo\n');
  });

  it('refuses a path outside the folder before writing anything', () => {
    const out = mkdtempSync(join(tmpdir(), 'sw-pkg-'));
    const assets = [{ path: 'ok.txt', bytes: strToU8('ok') }, { path: '../../victim-home/.bashrc', bytes: strToU8('pwned') }];
    expect(() => writePackageFolder(join(out, 'a', 'best-skill'), { name: 'p', skillMd: '# P\n', references: [], assets })).toThrow(
      /"\.\.\/\.\.\/victim-home\/\.bashrc" would be written outside/,
    );
    expect(existsSync(join(out, 'victim-home'))).toBe(false);
    expect(existsSync(join(out, 'a', 'best-skill', 'ok.txt'))).toBe(false);
  });
});
