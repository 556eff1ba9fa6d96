// The runner's config names a preset by situation (issue #33): its knobs, then the run settings
// given beside it; an unknown one is refused with the choices, and the schema offers them.
import { describe, expect, it } from 'vitest';
import { parseCliConfig } from '../../src/cli/config';
import { cliConfigSchema } from '../../src/cli/config-schema';
import { DEFAULT_RUN_CONFIG } from '../../src/core/config/run-config';

const base = { target: { baseURL: 'http://127.0.0.1:8787/v1', model: 'sim-target' }, optimizer: { baseURL: 'http://127.0.0.1:8787/v1', model: 'sim-optimizer' } };

describe('a preset in the runner’s config', () => {
  it('sets its knobs under the settings given beside it', () => {
    const { config, warnings } = parseCliConfig(JSON.stringify({ ...base, run: { preset: 'quick-look', seed: 5 } }));
    expect(warnings).toEqual([]);
    expect(config.run).toEqual({ ...DEFAULT_RUN_CONFIG, preset: 'quick-look', epochs: 1, repairRounds: 1, noiseProbe: 8, testNoSkill: false, seed: 5 });
    expect(parseCliConfig(JSON.stringify({ ...base, run: { preset: 'quick-look', epochs: 3 } })).config.run.epochs).toBe(3);
  });

  it('refuses an unknown preset, naming the choices', () => {
    expect(() => parseCliConfig(JSON.stringify({ ...base, run: { preset: 'fast' } }))).toThrow(/run\.preset: preset must be one of quick-look, standard, noisy, careful, agent/);
  });

  it('is offered by the JSON Schema', () => {
    const run = (cliConfigSchema().properties as Record<string, { properties: Record<string, { enum?: string[] }> }>).run;
    expect(run.properties.preset.enum).toEqual(['quick-look', 'standard', 'noisy', 'careful', 'agent']);
  });
});
