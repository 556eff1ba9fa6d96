import { describe, expect, it } from 'vitest';
import { strFromU8, strToU8, unzipSync, Zip, ZipPassThrough, zipSync } from 'fflate';
import {
  openPackage,
  packageFromFiles,
  packageOf,
  readPackageZip,
  writePackageZip,
  PackageError,
} from '../../../src/core/skill/package-zip';
import { applyEdit } from '../../../src/core/skill/edits';

const SKILL_MD = '---\nname: specimens\ndescription: Codes for specimens.\nlicense: MIT\n---\n\n# Specimens\n\nAnswer with the code.\n';
const zipText = (zip: Uint8Array, path: string) => strFromU8(unzipSync(zip)[path]);
const zipOf = (tree: Record<string, string | Uint8Array>) =>
  zipSync(Object.fromEntries(Object.entries(tree).map(([k, v]) => [k, typeof v === 'string' ? strToU8(v) : v])));

describe('skill packages in zip files (issue #23 item 1)', () => {
  it('reads SKILL.md under a top folder, trains references/*.md and keeps every other file as bytes', () => {
    const script = new Uint8Array([0, 1, 2, 255]);
    const pkg = readPackageZip(
      'upload.zip',
      zipOf({
        'specimens/SKILL.md': SKILL_MD,
        'specimens/references/codes.md': '# Codes\r\n\r\n- AMB9\r\n',
        'specimens/references/b.md': 'B',
        'specimens/scripts/run.bin': script,
        '__MACOSX/specimens/._SKILL.md': 'junk',
        'specimens/.DS_Store': 'junk',
      }),
    );
    expect(pkg.name).toBe('specimens');
    expect(pkg.skillMd).toBe(SKILL_MD);
    expect(pkg.references).toEqual([
      { path: 'references/b.md', text: 'B' },
      { path: 'references/codes.md', text: '# Codes\n\n- AMB9\n' },
    ]);
    expect(pkg.assets).toEqual([{ path: 'scripts/run.bin', bytes: script }]);
  });

  it('round-trips: the written zip has the same layout and bytes, frontmatter untouched', () => {
    const pkg = packageFromFiles('specimens', [
      { path: 'SKILL.md', bytes: strToU8(SKILL_MD) },
      { path: 'references/codes.md', bytes: strToU8('# Codes\n') },
      { path: 'assets/logo.png', bytes: new Uint8Array([137, 80, 78, 71]) },
    ]);
    const zip = writePackageZip(pkg);
    expect(zipText(zip, 'specimens/SKILL.md')).toBe(SKILL_MD);
    expect(readPackageZip('x.zip', zip)).toEqual(pkg);
    // The same package zips to the same bytes (a fixed time in every entry).
    expect(writePackageZip(pkg)).toEqual(zip);
  });

  it('says what is wrong with a zip that is not a package', () => {
    expect(() => readPackageZip('a.zip', zipOf({ 'README.md': 'x' }))).toThrow(/no SKILL\.md/);
    expect(() => readPackageZip('a.zip', new Uint8Array([1, 2, 3]))).toThrow(/not a readable \.zip/);
    expect(() => readPackageZip('a.zip', zipOf({ 'SKILL.md': 'x', 'references/bad.md': new Uint8Array([0xff, 0xfe, 0xfd]) }))).toThrow(
      /references\/bad\.md is not UTF-8/,
    );
    expect(() => readPackageZip('a.zip', new Uint8Array([1]))).toThrow(PackageError);
  });

  it('refuses a package larger than 20 MB unpacked, before unpacking it', () => {
    const big = zipSync({ 'SKILL.md': strToU8('x'), 'assets/big.bin': new Uint8Array(21 * 1024 * 1024) });
    expect(() => readPackageZip('big.zip', big)).toThrow(/larger than 20 MB/);
  });

  it('refuses an entry whose header understates its size, instead of cutting it short (issue #39, earlier L5)', () => {
    const understated = (size: number, level: 0 | 6) =>
      declaredSize(zipSync({ 'SKILL.md': strToU8('x'), 'assets/big.bin': new Uint8Array(size).fill(65) }, { level }), 'assets/big.bin', 10);
    expect(() => readPackageZip('a.zip', understated(5_000_000, 6))).toThrow(
      'This .zip says "assets/big.bin" holds 10 bytes, but it unpacks to 5000000: it is damaged or made to mislead.',
    );
    // Past the limit, whatever the headers say: compressed (a zip bomb) or stored.
    expect(() => readPackageZip('a.zip', understated(21 * 1024 * 1024, 6))).toThrow(/larger than 20 MB/);
    expect(() => readPackageZip('a.zip', understated(21 * 1024 * 1024, 0))).toThrow(/larger than 20 MB/);
  }, 30_000); // it unpacks 25 MB: seconds on a busy machine

  it('opens a package for training and puts the trained bundle back in its shell: frontmatter and other files untouched', () => {
    const pkg = packageFromFiles('specimens', [
      { path: 'SKILL.md', bytes: strToU8(SKILL_MD) },
      { path: 'references/codes.md', bytes: strToU8('# Codes\n\n- AMB1\n') },
      { path: 'scripts/run.bin', bytes: new Uint8Array([0, 200, 255]) },
    ]);
    const { bundle, meta, shell } = openPackage(pkg);
    expect(meta).toEqual({ name: 'specimens', description: 'Codes for specimens.' });
    expect(bundle.startsWith('# Specimens')).toBe(true);
    expect(JSON.parse(JSON.stringify(shell))).toEqual(shell); // stored like any draft
    expect(packageOf(shell, bundle)).toEqual(pkg);
    const trained = applyEdit(bundle, { op: 'replace', file: 'references/codes.md', target: 'AMB1', content: 'AMB9' }).skill;
    const out = packageOf(shell, trained);
    expect(out.skillMd).toBe(SKILL_MD);
    expect(out.references).toEqual([{ path: 'references/codes.md', text: '# Codes\n\n- AMB9\n' }]);
    expect(out.assets).toEqual(pkg.assets);
  });

  it('writes only the files it read: a typed marker outside that set is text of SKILL.md (issue #28 item 2)', () => {
    const shell = openPackage(packageFromFiles('p', [{ path: 'SKILL.md', bytes: strToU8('# P\n') }])).shell;
    const typed = '# P\n\n<!-- FILE: ../../etc/evil.md -->\nx\n<!-- END FILE: ../../etc/evil.md -->\n';
    const pkg = packageOf(shell, typed);
    expect(pkg.references).toEqual([]);
    expect(pkg.skillMd).toBe('# P\n\nx\n');
    const zipped = Object.keys(unzipSync(writePackageZip(pkg)));
    expect(zipped).toEqual(['p/SKILL.md']);
  });
});

/** A zip that may hold one name twice (zipSync takes an object, so it cannot). */
function zipEntries(entries: [string, string][]): Uint8Array {
  const chunks: Uint8Array[] = [];
  const zip = new Zip((err, chunk) => {
    if (err) throw err;
    chunks.push(chunk);
  });
  for (const [name, text] of entries) {
    const f = new ZipPassThrough(name);
    zip.add(f);
    f.push(strToU8(text), true);
  }
  zip.end();
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

describe('a package is written only inside its folder (issue #28 item 1)', () => {
  it('normalises a stored asset path and makes the package’s name one folder name', () => {
    const shell = { name: '../../victim', frontmatter: '', assets: [{ path: '../../victim-home/.bashrc', data: 'pwned' }] };
    const pkg = packageOf(shell, '# P\n');
    expect(pkg.assets.map((a) => a.path)).toEqual(['victim-home/.bashrc']);
    const names = Object.keys(unzipSync(writePackageZip(pkg)));
    const top = names[0].split('/')[0];
    expect(top).toBe('victim');
    expect(names.every((n) => n.startsWith(`${top}/`) && !n.split('/').includes('..'))).toBe(true);
  });

  it('refuses to zip a package whose paths leave its folder or clash', () => {
    const base = { name: 'p', skillMd: '# P\n', references: [] };
    expect(() => writePackageZip({ ...base, assets: [{ path: '../x', bytes: strToU8('x') }] })).toThrow(/"\.\.\/x" is not a path inside the package/);
    expect(() => writePackageZip({ ...base, assets: [{ path: 'a', bytes: strToU8('') }, { path: 'a/b', bytes: strToU8('') }] })).toThrow(/is a file and a folder/);
  });
});

describe('an ambiguous package is refused with its paths named (issue #28 LOW)', () => {
  const skill = '# P\n';
  it('a zip holding one name twice', () => {
    expect(() => readPackageZip('p.zip', zipEntries([['p/SKILL.md', skill], ['p/references/a.md', 'one'], ['p/references/a.md', 'two']]))).toThrow(
      /holds "p\/references\/a\.md" twice/,
    );
  });
  it('two paths that are one after normalising, or differ only in case', () => {
    const files = (paths: string[]) => paths.map((path) => ({ path, bytes: strToU8(path.endsWith('SKILL.md') ? skill : 'x') }));
    expect(() => packageFromFiles('p', files(['SKILL.md', 'references/a.md', './references/a.md']))).toThrow(/"references\/a\.md" appears twice/);
    expect(() => packageFromFiles('p', files(['SKILL.md', 'references/a.md', 'references/A.md']))).toThrow(/"references\/a\.md" and "references\/A\.md" differ only in case/);
    expect(() => packageFromFiles('p', files(['SKILL.md', 'skill.md']))).toThrow(/2 SKILL\.md files at its top \("SKILL\.md", "skill\.md"\)/);
    expect(() => packageFromFiles('p', files(['SKILL.md', 'scripts/a', 'scripts/a/b']))).toThrow(/"scripts\/a" is a file and a folder of "scripts\/a\/b"/);
  });
  it('two SKILL.md files at the package’s top', () => {
    expect(() => packageFromFiles('p', [{ path: 'a/SKILL.md', bytes: strToU8(skill) }, { path: 'b/SKILL.md', bytes: strToU8(skill) }])).toThrow(
      /2 SKILL\.md files at its top \("a\/SKILL\.md", "b\/SKILL\.md"\)/,
    );
  });
});

/** A zip whose headers (local and central) say `name` unpacks to `size` bytes. */
function declaredSize(zip: Uint8Array, name: string, size: number): Uint8Array {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const nameAt = (at: number, length: number) => strFromU8(zip.subarray(at, at + length));
  for (let i = 0; i + 4 <= zip.length; i++) {
    const sig = view.getUint32(i, true);
    if (sig === 0x04034b50 && nameAt(i + 30, view.getUint16(i + 26, true)) === name) view.setUint32(i + 22, size, true);
    if (sig === 0x02014b50 && nameAt(i + 46, view.getUint16(i + 28, true)) === name) view.setUint32(i + 24, size, true);
  }
  return zip;
}
