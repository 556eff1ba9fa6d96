// Knob help texts live in a data file (core/config/knob-help.json), as the prompts do: every knob
// has one, and the file holds no help for a knob that is gone.
import { describe, expect, it } from 'vitest';
import HELP from '../../../src/core/config/knob-help.json';
import { KNOBS, knobValue } from '../../../src/core/config/knobs';
import { DEFAULT_RUN_CONFIG } from '../../../src/core/config/run-config';

describe('knob help', () => {
  it('is one text per knob, and none for a knob the table does not have', () => {
    expect(Object.keys(HELP).sort()).toEqual(KNOBS.map((k) => k.key).sort());
    for (const k of KNOBS) expect(k.help.trim().length, k.key).toBeGreaterThan(10);
  });
  it('reads a setting by its knob’s key', () => {
    expect(knobValue(DEFAULT_RUN_CONFIG, 'maxTurns')).toBe(8);
    expect(knobValue({}, 'epochs')).toBeUndefined();
  });
});
