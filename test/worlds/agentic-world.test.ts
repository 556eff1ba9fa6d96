/**
 * The agentic world's data and its simulated agent (issue #30; test/support/agentic-*.ts), pure:
 * the agent does what the skill's rules say, turn by turn, and the world is built as promised —
 * rules that pay only in pairs, a harmful and an over-broad starting rule, a loop without "stop",
 * references read on demand, validation-blind kinds, and noise at the level of actions.
 */
import { describe, expect, it } from 'vitest';
import { agentAction, agentPolicy, oracleAction, type AgentRequest } from '../support/agentic-agent';
import { runEpisode, type EpisodeSetting } from '../support/agentic-episode';
import { agenticDataset } from '../support/bench-agentic';
import { loadPrompts } from '../support/prompts';
import {
  AGENTIC_INITIAL_SKILL,
  AGENTIC_SOLVED_SKILL,
  BLIND_KINDS,
  BROAD,
  DECOYS,
  HARM,
  KINDS,
  RULES,
  START_SKILL_MD,
  UNIT_CODES,
  UNITS_PATH,
  WRONG_CODES,
  makeAgenticItems,
  unitLine,
  type Kind,
} from '../support/agentic-world';
import { bundlePackage } from '../../src/core/skill/skill-package';

const data = agenticDataset();
const kindOf = new Map(makeAgenticItems().map((i) => [i.id, i.kind]));
const setting = (o: Partial<EpisodeSetting> = {}): EpisodeSetting => ({
  template: loadPrompts()['rollout-qa'],
  tools: data.tools ?? [],
  maxTurns: 8,
  referencesOnDemand: true,
  ...o,
});
const itemsOf = (kind: Kind) => data.items.filter((i) => kindOf.get(i.id) === kind);

/** A skill package: SKILL.md with these lines, units.md with these codes (the right ones by default). */
function skill(lines: readonly string[], codes: Record<string, string> = UNIT_CODES): string {
  const units = `# Unit codes\n\n${Object.entries(codes)
    .map(([w, c]) => unitLine(w, c))
    .join('\n')}\n`;
  return bundlePackage(`# Desk\n\n${lines.join('\n')}\n`, [{ path: UNITS_PATH, text: units }]);
}
const all = Object.values(RULES).map((r) => r.text);
const without = (...drop: string[]) => all.filter((l) => !drop.includes(l));
const wrongUnits = { ...UNIT_CODES, ...WRONG_CODES };

/** Share of a kind's items (all splits) the agent gets right with a skill, without noise. */
function passRate(s: string, kind: Kind, o: Partial<EpisodeSetting> = {}): number {
  const items = itemsOf(kind);
  return items.filter((i) => runEpisode(s, i, setting(o)).hard === 1).length / items.length;
}

describe('the agentic world (issue #30)', () => {
  it('has 120 items of 8 kinds with fixed splits, no validation items of the blind kinds, and dataset-level tools', () => {
    expect(data.items).toHaveLength(120);
    expect([data.splits.train.length, data.splits.val.length, data.splits.test.length]).toEqual([54, 18, 48]);
    for (const k of KINDS) expect(itemsOf(k)).toHaveLength(15);
    const val = new Set(data.splits.val);
    for (const k of BLIND_KINDS) expect(itemsOf(k).some((i) => val.has(i.id))).toBe(false);
    expect(data.tools?.map((t) => t.name)).toEqual(['lookup', 'convert', 'search_orders', 'refund']);
    expect(data.items.every((i) => i.agent?.toolResults?.length && i.agent.expectedToolCalls?.length)).toBe(true);
    expect(itemsOf('over').every((i) => i.agent?.forbiddenToolCalls?.includes('refund'))).toBe(true);
  });

  it('is solved by the solved skill, turn by turn, and starts with only the lengths the broad rule carries', () => {
    for (const k of KINDS) expect(passRate(AGENTIC_SOLVED_SKILL, k)).toBe(1);
    for (const k of KINDS) expect(passRate(AGENTIC_INITIAL_SKILL, k)).toBe(k === 'length' ? 1 : 0);
    const weight = runEpisode(AGENTIC_SOLVED_SKILL, itemsOf('weight')[0], setting());
    expect(weight.entries.filter((e) => e.kind === 'tool').map((e) => (e.kind === 'tool' ? e.name : ''))).toEqual(['read_file', 'convert']);
    expect(weight.turns).toBe(3);
  });

  it('pays for lookup rules only in pairs: lookup and the bare number, and for discontinued parts their family', () => {
    expect(passRate(skill([RULES.lookup.text]), 'name')).toBe(0);
    expect(passRate(skill([RULES.strip.text]), 'name')).toBe(0);
    expect(passRate(skill([RULES.lookup.text, RULES.strip.text]), 'name')).toBe(1);
    expect(passRate(skill([RULES.lookup.text, RULES.strip.text]), 'stock')).toBe(1);
    expect(passRate(skill([RULES.lookup.text, RULES.strip.text]), 'archive')).toBe(0);
    const one = passRate(skill([RULES.lookup.text, RULES.strip.text, RULES.emberArchive.text]), 'archive');
    expect(one).toBeGreaterThan(0.3);
    expect(one).toBeLessThan(0.7);
    expect(passRate(skill([RULES.lookup.text, RULES.strip.text, RULES.emberArchive.text, RULES.fjordArchive.text]), 'archive')).toBe(1);
    // The broad rule blocks the bare number while it is there.
    expect(passRate(skill([BROAD.text, RULES.lookup.text, RULES.strip.text]), 'name')).toBe(0);
  });

  it('converts only with units.md read and right: the rule and the file line pay together', () => {
    expect(passRate(skill(without(RULES.units.text)), 'weight')).toBe(0);
    expect(passRate(skill(all, wrongUnits), 'weight')).toBe(0);
    expect(passRate(skill(all, { ...UNIT_CODES, pounds: 'lbs' }), 'weight')).toBeCloseTo(7 / 15); // the ounces
    // The broad rule carries lengths (asked in codes); without it, lengths need the rule, and miles their line.
    expect(passRate(skill([BROAD.text]), 'length')).toBe(1);
    expect(passRate(skill([]), 'length')).toBe(0);
    expect(passRate(skill([RULES.units.text], wrongUnits), 'length')).toBeCloseTo(2 / 3);
    expect(passRate(skill([RULES.units.text]), 'length')).toBe(1);
  });

  it('reads the reference on demand, and from the prompt when it is inlined', () => {
    const item = itemsOf('length')[0];
    const inline = runEpisode(AGENTIC_SOLVED_SKILL, item, setting({ referencesOnDemand: false }));
    expect(inline.hard).toBe(1);
    expect(inline.entries.some((e) => e.kind === 'tool' && e.name === 'read_file')).toBe(false);
    const onDemand = runEpisode(AGENTIC_SOLVED_SKILL, item, setting());
    expect(onDemand.entries[1]).toMatchObject({ kind: 'tool', name: 'read_file', result: expect.stringContaining('- miles: mi') });
  });

  it('loops without "stop" until it runs out of turns, and refunds in order only with search, stop and the limit', () => {
    const status = runEpisode(skill(without(RULES.stop.text)), itemsOf('status')[0], setting());
    expect(status.turns).toBe(8);
    expect(status.failReason).toMatch(/^ran out of turns \(8 turns; last: turn 8 called search_orders/);
    expect(passRate(skill(without(RULES.stop.text)), 'refund')).toBe(0);
    expect(passRate(skill(without(RULES.search.text)), 'refund')).toBe(0);
    expect(passRate(skill(without(RULES.limit.text)), 'over')).toBe(0);
    expect(passRate(skill(without(RULES.search.text)), 'over')).toBe(0);
    const over = runEpisode(skill(without(RULES.limit.text)), itemsOf('over')[0], setting());
    expect(over.failReason).toMatch(/turn 2: called forbidden tool refund/);
  });

  it('has a harmful starting rule (an upset customer is refunded at once) and decoys that break other items', () => {
    const harmed = skill([...all, HARM.text]);
    expect(passRate(harmed, 'over')).toBeCloseTo(7 / 15); // 8 of 15 are upset
    expect(passRate(harmed, 'refund')).toBeCloseTo(7 / 15);
    expect(START_SKILL_MD).toContain(HARM.text);
    expect(passRate(skill([...all, DECOYS.archiveAll.text]), 'name')).toBe(0);
    expect(passRate(skill([...all, DECOYS.archiveAll.text]), 'archive')).toBe(1);
    expect(passRate(skill([...all, DECOYS.escalateAll.text]), 'refund')).toBe(0);
    expect(passRate(skill([...all, DECOYS.escalateAll.text]), 'over')).toBe(1);
    expect(passRate(skill([BROAD.text, DECOYS.unitWords.text]), 'length')).toBe(0);
  });

  it('misses and guesses at the level of actions, as the perfect skill would act', () => {
    const item = itemsOf('name')[0];
    const system = (lines: string[]) => `You are precise.\n\n## Skill\n${lines.join('\n')}`;
    const req = (lines: string[]): AgentRequest => ({ system: system(lines), user: item.question, tools: ['lookup'], history: [] });
    const knows = req([RULES.lookup.text, RULES.strip.text]);
    const noRules = req([]);
    const noise = { miss: 0.2, guess: 0.1 };
    expect(agentPolicy(knows)).toEqual(oracleAction(knows));
    expect(agentAction(knows, 0.1, noise)).toEqual({ answer: 'unknown' });
    expect(agentAction(knows, 0.5, noise)).toEqual(agentPolicy(knows));
    expect(agentAction(noRules, 0.05, noise)).toEqual(oracleAction(noRules));
    expect(agentAction(noRules, 0.15, noise)).toEqual({ answer: 'unknown' });
    expect(agentAction(knows, 0)).toEqual(agentPolicy(knows)); // without noise, never a slip
    // After a wrong lookup, a lucky guess is the right one: the perfect agent recovers.
    const failed = { ...req([RULES.lookup.text]), history: [{ name: 'lookup', args: { code: 'AMB-100' }, result: 'no result for these arguments' }] };
    expect(agentPolicy(failed)).toEqual({ answer: 'unknown' });
    expect(agentAction(failed, 0.05, noise)).toEqual({ calls: [{ name: 'lookup', args: { code: '100' } }] });
  });
});
