// Settings saved in localStorage by an older version gain the newer knobs' defaults (gate rule).
import { describe, expect, it } from 'vitest';
import { useApp, withSavedSettings } from '../../src/store/app-store';
import { DEFAULT_RUN_CONFIG, validateRunConfig } from '../../src/core/run-config';

describe('saved settings', () => {
  it('an older saved config without the gate rule takes its default and stays valid', () => {
    const { gateRule: _r, gateSignificanceK: _k, ...old } = { ...DEFAULT_RUN_CONFIG, epochs: 3 };
    const merged = withSavedSettings({ config: old }, useApp.getState());
    expect(merged.config).toMatchObject({ epochs: 3, gateRule: 'mean', gateSignificanceK: 1 });
    expect(validateRunConfig(merged.config)).toEqual([]);
  });
});
