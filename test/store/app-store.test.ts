// Settings saved in localStorage by an older version gain the newer knobs' defaults (gate rule).
import { describe, expect, it } from 'vitest';
import { draftOfPackage, MAX_DRAFT_ASSET_CHARS, useApp, withSavedSettings } from '../../src/store/app-store';
import { DEFAULT_RUN_CONFIG, validateRunConfig } from '../../src/core/config/run-config';

describe('saved settings', () => {
  it('an older saved config without the gate rule takes its default and stays valid', () => {
    const { gateRule: _r, gateSignificanceK: _k, ...old } = { ...DEFAULT_RUN_CONFIG, epochs: 3 };
    const merged = withSavedSettings({ config: old }, useApp.getState());
    expect(merged.config).toMatchObject({ epochs: 3, gateRule: 'mean', gateSignificanceK: 1 });
    expect(validateRunConfig(merged.config)).toEqual([]);
  });
});

describe('a skill package in the drafts (issue #23)', () => {
  const shell = (size: number) => ({ name: 'p', frontmatter: '', assets: [{ path: 'assets/a.bin', data: 'x'.repeat(size) }] });
  it('keeps its untrained files while they fit, else says how many were left out, the same object each time', () => {
    const small = shell(10);
    expect(draftOfPackage(small)).toBe(small);
    const big = shell(MAX_DRAFT_ASSET_CHARS + 1);
    expect(draftOfPackage(big)).toEqual({ name: 'p', frontmatter: '', assets: [], assetsLeftOut: 1 });
    // The drafts are rewritten only when a field's identity changes (drafts-storage.ts).
    expect(draftOfPackage(big)).toBe(draftOfPackage(big));
    expect(draftOfPackage(null)).toBeNull();
  });
});
