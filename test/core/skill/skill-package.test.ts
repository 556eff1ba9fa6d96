import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  bundleLineFiles,
  bundlePackage,
  changedFiles,
  bundlePaths,
  fileSections,
  isTrainedPath,
  normalisePackagePath,
  splitBundle,
} from '../../../src/core/skill/skill-package';
import { applyEdit, applyPatch } from '../../../src/core/skill/edits';
import { injectEmptySlowUpdate, replaceSlowUpdateBlock } from '../../../src/core/skill/protected-regions';

const BODY = '# Specimens\n\nAnswer with the specimen code only.\n';
const REFS = [
  { path: 'references/codes.md', text: '# Codes\n\n- For amber specimens, use the prefix AMB1.\n' },
  { path: 'references/style.md', text: '# Style\n\nKeep answers short.\n' },
];
const bundle = bundlePackage(BODY, REFS);

describe('skill package bundles (issue #23 item 1)', () => {
  it('bundles SKILL.md first, then each reference between its markers, and splits back', () => {
    expect(bundle).toContain('<!-- FILE: references/codes.md -->\n# Codes');
    expect(bundlePaths(bundle)).toEqual(['SKILL.md', 'references/codes.md', 'references/style.md']);
    expect(splitBundle(bundle)).toEqual({ main: BODY, files: REFS });
    // A single file is a bundle without sections.
    expect(bundlePackage(BODY, [])).toBe(BODY);
    expect(splitBundle(BODY)).toEqual({ main: BODY, files: [] });
  });

  it('counts the blocks the machinery appends after the sections as SKILL.md text', () => {
    const trained = replaceSlowUpdateBlock(injectEmptySlowUpdate(bundle), '- Check the prefix.');
    const { main, files } = splitBundle(trained);
    expect(files).toEqual(REFS);
    expect(main).toMatch(/^# Specimens[\s\S]*<!-- SLOW_UPDATE_START -->\n- Check the prefix\.\n<!-- SLOW_UPDATE_END -->\n$/);
  });

  it('treats an open marker without its close marker as no section', () => {
    const broken = `${BODY}\n<!-- FILE: references/x.md -->\ntext\n`;
    expect(fileSections(broken)).toEqual([]);
    expect(splitBundle(broken).main).toBe(broken);
  });

  it('normalises paths and knows which files are trained', () => {
    expect(normalisePackagePath(' ./references\\api.md ')).toBe('references/api.md');
    expect(normalisePackagePath('/references/../api.md')).toBe('references/api.md');
    expect(isTrainedPath('references/api.md')).toBe(true);
    expect(isTrainedPath('references/deep/more.MD')).toBe(true);
    expect(isTrainedPath('scripts/run.py')).toBe(false);
    expect(isTrainedPath('SKILL.md')).toBe(false);
  });

});

describe('edits that name a package file', () => {
  it('changes only the file it names', () => {
    const r = applyEdit(bundle, {
      op: 'replace',
      file: 'references/codes.md',
      target: '- For amber specimens, use the prefix AMB1.',
      content: '- For amber specimens, use the prefix AMB9.',
    });
    expect(r.status).toBe('applied_replace');
    const { main, files } = splitBundle(r.skill);
    expect(main).toBe(BODY);
    expect(files[0].text).toContain('prefix AMB9');
    expect(files[1]).toEqual(REFS[1]);
  });

  it('appends to the end of the named file; without a file, to the end of SKILL.md before the sections', () => {
    const inRef = applyEdit(bundle, { op: 'append', file: './references/style.md', content: 'Never guess.' });
    expect(splitBundle(inRef.skill).files[1].text).toBe('# Style\n\nKeep answers short.\n\nNever guess.\n');
    const inMain = applyEdit(bundle, { op: 'append', content: '- A new rule.' });
    expect(inMain.status).toBe('applied_append_before_protected_region');
    expect(splitBundle(inMain.skill)).toEqual({ main: `${BODY}\n- A new rule.\n`, files: REFS });
    // "SKILL.md" names the instructions.
    expect(applyEdit(bundle, { op: 'append', file: 'SKILL.md', content: '- A new rule.' }).skill).toBe(inMain.skill);
  });

  it('finds a SKILL.md target outside the files, and refuses one only a file holds', () => {
    const both = bundlePackage('Keep answers short.\n', REFS);
    const r = applyEdit(both, { op: 'replace', target: 'Keep answers short.', content: 'Be brief.' });
    expect(splitBundle(r.skill)).toEqual({ main: 'Be brief.\n', files: REFS });
    const onlyRef = applyEdit(bundle, { op: 'delete', target: '- For amber specimens, use the prefix AMB1.' });
    expect(onlyRef).toMatchObject({ skill: bundle, status: 'skipped_delete_target_not_found' });
  });

  it('skips an edit naming a file the package does not have, and reports the file it named', () => {
    const r = applyPatch(bundle, [
      { op: 'append', file: 'references/missing.md', content: 'x' },
      { op: 'append', file: 'references/codes.md', content: 'y' },
    ]);
    expect(r.report.map((x) => [x.status, x.file])).toEqual([
      ['skipped_file_not_found', 'references/missing.md'],
      ['applied_append', 'references/codes.md'],
    ]);
  });

  it('property: no edit, whatever it targets or writes, changes a file it does not name or breaks a marker', () => {
    const pieces = ['Keep answers short.', '- For amber', 'AMB1', '<!-- FILE: references/codes.md -->', '<!-- END FILE: references/style.md -->', '\n', '# Codes', 'x'];
    const edit = fc.record({
      op: fc.constantFrom('append', 'insert_after', 'replace', 'delete'),
      target: fc.oneof(fc.constantFrom(...pieces), fc.string({ maxLength: 12 })),
      content: fc.oneof(fc.constantFrom(...pieces), fc.string({ maxLength: 12 })),
      file: fc.option(fc.constantFrom('SKILL.md', 'references/codes.md', 'references/style.md', 'nope.md'), { nil: undefined }),
    });
    fc.assert(
      fc.property(fc.array(edit, { maxLength: 6 }), (edits) => {
        let skill = bundle;
        for (const e of edits) {
          const before = splitBundle(skill);
          skill = applyEdit(skill, e).skill;
          const after = splitBundle(skill);
          expect(after.files.map((f) => f.path)).toEqual(REFS.map((f) => f.path));
          const named = e.file && e.file !== 'SKILL.md' ? e.file : 'SKILL.md';
          if (named !== 'SKILL.md') expect(after.main).toBe(before.main);
          for (const f of before.files) if (f.path !== named) expect(after.files.find((g) => g.path === f.path)).toEqual(f);
        }
      }),
      { numRuns: 150 },
    );
  });
});

describe('changed files', () => {
  it('names the files two bundles differ in, SKILL.md first; null for single files', () => {
    const edited = applyEdit(bundle, { op: 'append', file: 'references/style.md', content: 'x' }).skill;
    expect(changedFiles(bundle, edited)).toEqual(['references/style.md']);
    expect(changedFiles(bundle, applyEdit(edited, { op: 'append', content: 'y' }).skill)).toEqual(['SKILL.md', 'references/style.md']);
    expect(changedFiles(bundle, bundle)).toEqual([]);
    expect(changedFiles('a', 'b')).toBeNull();
  });
});

describe('bundle lines as lines of their files', () => {
  it('numbers SKILL.md over its own lines and each reference from the line after its marker', () => {
    const bundle = replaceSlowUpdateBlock(
      injectEmptySlowUpdate(bundlePackage('# Skill\n\nRule one.\n', [{ path: 'references/codes.md', text: '# Codes\n- AMB1\n' }])),
      'Keep codes short.',
    );
    const lines = bundle.split('\n');
    const at = bundleLineFiles(bundle);
    expect(at).toHaveLength(lines.length);
    const open = lines.indexOf('<!-- FILE: references/codes.md -->');
    expect(at.slice(0, 3)).toEqual([1, 2, 3].map((line) => ({ path: 'SKILL.md', line })));
    expect(at[open]).toEqual({ path: 'references/codes.md', line: 0 });
    expect(at[open + 1]).toEqual({ path: 'references/codes.md', line: 1 });
    expect(at[open + 2]).toEqual({ path: 'references/codes.md', line: 2 });
    expect(at[open + 3]).toEqual({ path: 'references/codes.md', line: 0 });
    // The slow-update block the machinery appended after the section is SKILL.md's.
    const block = lines.findIndex((l) => l.includes('SLOW_UPDATE_START'));
    expect(block).toBeGreaterThan(open);
    expect(at[block].path).toBe('SKILL.md');
    expect(at[block].line).toBe(at.slice(0, block).filter((a) => a.path === 'SKILL.md').length + 1);
  });

  it('is the text splitBundle gives each file, line for line (property)', () => {
    const line = fc.stringMatching(/^[a-z ]{0,12}$/);
    const text = fc.array(line, { minLength: 1, maxLength: 5 }).map((ls) => `${ls.join('\n').trim() || 'x'}\n`);
    fc.assert(
      fc.property(text, fc.array(text, { maxLength: 3 }), (main, refs) => {
        const bundle = bundlePackage(main, refs.map((t, i) => ({ path: `references/r${i}.md`, text: t })));
        const lines = bundle.split('\n');
        const at = bundleLineFiles(bundle);
        const { files } = splitBundle(bundle);
        for (const f of files) {
          const mine = lines.filter((_, i) => at[i].path === f.path && at[i].line > 0);
          expect(mine.join('\n').trim()).toBe(f.text.trim());
        }
        expect(at.filter((a) => a.path === 'SKILL.md').map((a) => a.line)).toEqual(
          at.filter((a) => a.path === 'SKILL.md').map((_, i) => i + 1),
        );
      }),
    );
  });
});
