/**
 * The agentic world's simulated analyst (issue #30; test/support/agentic-optimizer.ts), pure, on
 * prompts built the way the engine builds them (its renderTrajectory and prompt templates): from
 * whole trajectories it names exactly what each failure lacked; from final answers alone it
 * guesses among the causes the answer allows, decoys included; it slips at the hard world's rates.
 */
import { describe, expect, it } from 'vitest';
import { runEpisode, type EpisodeSetting } from '../support/agentic-episode';
import { trajectoriesIn } from '../support/agentic-evidence';
import { FORMAT_RULE } from '../support/agentic-fixes';
import { agenticOptimizerAnswer } from '../support/agentic-optimizer';
import { AGENTIC_INITIAL_SKILL, BROAD, BROAD_STOP, DECOYS, HARM, RULES, UNITS_PATH, archiveRule, makeAgenticItems, type Kind } from '../support/agentic-world';
import { agenticDataset } from '../support/bench-agentic';
import { loadPrompts } from '../support/prompts';
import type { SimEdit } from '../support/sim-text';
import { extractAnswer } from '../../src/core/scoring/answer-extraction';
import type { DatasetItem } from '../../src/core/dataset/dataset-types';
import { applyPatch, type Edit } from '../../src/core/skill/edits';
import { renderTemplate } from '../../src/core/config/templates';
import { renderTrajectory } from '../../src/engine/trajectory';
import type { RolloutRow } from '../../src/engine/types';

const data = agenticDataset();
const prompts = loadPrompts();
const kindOf = new Map(makeAgenticItems().map((i) => [i.id, i.kind]));
const setting: EpisodeSetting = { template: prompts['rollout-qa'], tools: data.tools ?? [], maxTurns: 8, referencesOnDemand: true };
const itemsOf = (kind: Kind, split?: 'train' | 'test') => data.items.filter((i) => kindOf.get(i.id) === kind && (!split || data.splits[split].includes(i.id)));

/** An item's row as the engine stores it, rolled out with a skill (no noise). */
function rowOf(skill: string, item: DatasetItem, act?: Parameters<typeof runEpisode>[3]): RolloutRow {
  const ep = runEpisode(skill, item, setting, act);
  return {
    ...{ runId: 'r', phase: 's0001/rollout', order: 0, itemId: item.id, skillHash: '', cacheKey: '', status: 'ok' as const },
    response: ep.answer ?? '',
    predicted: ep.answer === null ? '' : extractAnswer(ep.answer),
    hard: ep.hard,
    soft: ep.soft,
    ...(ep.failReason ? { failReason: ep.failReason } : {}),
    usage: { promptTokens: 0, completionTokens: 0, reasoningTokens: 0 },
    latencyMs: 0,
    cached: false,
    trajectory: ep.entries,
    turns: ep.turns,
  };
}

/** The failure analyst's prompt for these items' failures, as engine/step/reflect.ts renders it. */
function analystPrompt(skill: string, items: readonly DatasetItem[], full = true, budget = 8, rows = items.map((i) => rowOf(skill, i))) {
  const failed = rows.filter((r) => r.hard < 1);
  const view = { full, resultChars: 400, onDemandFiles: [UNITS_PATH] };
  const trajectories = failed
    .map((r, j) => renderTrajectory(j + 1, r, data.items.find((i) => i.id === r.itemId)!, skill, prompts['rollout-qa'], 6000, view))
    .join('\n\n---\n\n');
  const values = { skill, budget: String(budget), buffer: '', meta: '', count: String(failed.length), trajectories, failure: 'yes', package: 'yes', package_files: `SKILL.md, ${UNITS_PATH}`, agent: 'yes' };
  return { system: renderTemplate(prompts.reflect_failure.system, values), user: renderTemplate(prompts.reflect_failure.user, values), failed: failed.length };
}

function reflect(skill: string, items: readonly DatasetItem[], o: { full?: boolean; noise?: number; budget?: number } = {}): SimEdit[] {
  const p = analystPrompt(skill, items, o.full ?? true, o.budget);
  const reply = agenticOptimizerAnswer('reflect_failure', p.system, p.user, { noise: o.noise ?? 0 }) as { patch: { edits: SimEdit[] } };
  return reply.patch.edits;
}
const summary = (edits: readonly SimEdit[]) => edits.map((e) => `${e.op}${e.file === UNITS_PATH ? ' units.md' : ''}: ${e.content || e.target}`).sort();

describe("the agentic world's analyst (issue #30)", () => {
  it('reads the calls, their arguments and results back out of the engine’s rendered trajectories', () => {
    const [ev] = trajectoriesIn(analystPrompt(AGENTIC_INITIAL_SKILL, [itemsOf('status')[0]]).user);
    expect(ev.task.kind).toBe('status');
    expect(ev.calls).toHaveLength(8); // one search a turn until the turns run out
    expect(ev.calls?.[0]).toMatchObject({ turn: 1, name: 'search_orders', args: { customer: 'Dana Reyes' }, result: expect.stringContaining('(latest)\n- ') });
    expect(ev.reason).toMatch(/^ran out of turns/);
    const [hidden] = trajectoriesIn(analystPrompt(AGENTIC_INITIAL_SKILL, [itemsOf('status')[0]], false).user);
    expect(hidden.calls).toBeNull();
    expect(hidden.reason).toBe('no final answer');
  });

  it('names from a trajectory exactly what the skill lacked, in the file where it belongs', () => {
    const s = AGENTIC_INITIAL_SKILL;
    const strip = `replace: ${RULES.strip.text}`;
    expect(summary(reflect(s, [itemsOf('name')[0]]))).toEqual([`append: ${RULES.lookup.text}`, strip].sort());
    const ember = itemsOf('archive').find((i) => i.question.includes('EMB-'))!;
    expect(summary(reflect(s, [ember]))).toEqual([`append: ${RULES.lookup.text}`, `append: ${RULES.emberArchive.text}`, strip].sort());
    const pounds = itemsOf('weight').find((i) => i.question.includes('pounds'))!;
    expect(summary(reflect(s, [pounds]))).toEqual([`append: ${RULES.units.text}`, 'replace units.md: - pounds: lb'].sort());
    expect(summary(reflect(s, [itemsOf('status')[0]]))).toEqual([`append: ${RULES.stop.text}`]);
    const upset = itemsOf('refund').find((i) => i.question.startsWith('An upset'))!;
    expect(summary(reflect(s, [upset]))).toEqual([`append: ${RULES.search.text}`, `delete: ${HARM.text}`].sort());
    const calm = itemsOf('over').find((i) => !i.question.startsWith('An upset'))!;
    expect(summary(reflect(s, [calm]))).toEqual([`append: ${RULES.limit.text}`, `append: ${RULES.search.text}`].sort());
    // An agent that gave up although the skill says what to do slipped: the skill is not to blame.
    const solved = s.replace(BROAD.text, `${RULES.lookup.text}\n${RULES.strip.text}`);
    const gaveUp = rowOf(solved, itemsOf('name')[0], () => ({ answer: 'unknown' }));
    const p = analystPrompt(solved, [], true, 8, [gaveUp]);
    expect(p.failed).toBe(1);
    expect((agenticOptimizerAnswer('reflect_failure', p.system, p.user, { noise: 0 }) as { patch: { edits: unknown[] } }).patch.edits).toEqual([]);
  });

  it('reaches the solved skill when its diagnoses are applied round after round (no gate, no budget)', () => {
    let skill = AGENTIC_INITIAL_SKILL;
    const train = data.items.filter((i) => data.splits.train.includes(i.id));
    for (let round = 0; round < 4; round++) skill = applyPatch(skill, reflect(skill, train, { budget: 50 }) as Edit[]).skill;
    const test = data.items.filter((i) => data.splits.test.includes(i.id));
    expect(test.filter((i) => runEpisode(skill, i, setting).hard === 1).length).toBe(test.length);
  });

  it('guesses from final answers alone among the causes the answer allows, wrong ones included', () => {
    const s = `${AGENTIC_INITIAL_SKILL.split('<!--')[0].replace(HARM.text, '')}`;
    const seen = new Set<string>();
    for (const item of itemsOf('name')) for (const e of reflect(s, [item], { full: false })) seen.add(e.content || `${e.op} ${e.target}`);
    const allowed = [RULES.lookup.text, RULES.strip.text, DECOYS.archiveAll.text, FORMAT_RULE, ...['amber', 'basalt', 'cobalt', 'dune'].map((f) => archiveRule(f).text)];
    expect([...seen].every((x) => allowed.includes(x))).toBe(true);
    expect(seen.has(RULES.lookup.text) && seen.has(RULES.strip.text)).toBe(true); // it can learn the pair…
    expect(seen.has(DECOYS.archiveAll.text)).toBe(true); // …and it can be wrong, as the answer alone allows
    // From the trajectory the same failures name the pair and nothing else.
    const informed = new Set(itemsOf('name').flatMap((i) => reflect(s, [i]).map((e) => e.content)));
    expect([...informed].sort()).toEqual([RULES.lookup.text, RULES.strip.text].sort());
  });

  it('slips at the hard world’s rates: harmful and over-broad rules, empty edits', () => {
    const s = AGENTIC_INITIAL_SKILL.replace(`${HARM.text}\n`, '');
    const prompts = itemsOf('name').concat(itemsOf('stock'), itemsOf('weight'), itemsOf('status'), itemsOf('over'));
    const share = (f: (e: SimEdit) => boolean) => prompts.filter((i) => reflect(s, [i], { noise: 1 }).some(f)).length / prompts.length;
    for (const [what, f] of [
      ['harmful', (e: SimEdit) => e.content === HARM.text],
      ['broad', (e: SimEdit) => e.content === BROAD_STOP.text],
    ] as const) {
      const x = share(f);
      expect(x, what).toBeGreaterThan(0.04);
      expect(x, what).toBeLessThan(0.3);
    }
    expect(share((e) => e.content === '' && e.op === 'append')).toBeLessThan(0.25);
    expect(prompts.every((i) => reflect(s, [i], { noise: 0 }).every((e) => e.content !== HARM.text && e.content !== BROAD_STOP.text))).toBe(true);
  });

  it('repairs: blames a bad rule in the bundle alone, else a decoy that broke tasks of its kind, and restores what regressed', () => {
    const candidate = AGENTIC_INITIAL_SKILL.replace(BROAD.text, RULES.strip.text);
    const line = (i: number, op: string, content: string, target = '') => `[${i}] op=${op}  target=${JSON.stringify(target)}  content=${JSON.stringify(content)}  support=1`;
    const task = (item: DatasetItem) => `### Task ${item.id}\nQuestion: ${item.question}\nExpected answer: ${item.answers[0]}\nAnswer with the current skill: ${item.answers[0]}\nAnswer with the candidate: unknown`;
    const regressed = [itemsOf('name')[0], itemsOf('length')[0]].map(task).join('\n\n');
    const repair = (edits: string[]) => {
      const user = `## Current Skill\n${AGENTIC_INITIAL_SKILL}\n\n## Candidate Edits (${edits.length} edits)\n${edits.join('\n')}\n\n## Candidate Skill\n${candidate}\n\n## Regressed Items (passed before, fail with the candidate)\n${regressed}`;
      return agenticOptimizerAnswer('repair_edits', '', user, { noise: 0 }) as { drop_indices: number[]; add_edits: SimEdit[] };
    };
    const fix = line(0, 'replace', RULES.strip.text, BROAD.text);
    const decoy = line(1, 'append', DECOYS.archiveAll.text);
    // The over-broad rule explains every regression: it alone is dropped.
    expect(repair([fix, decoy, line(2, 'append', BROAD_STOP.text)]).drop_indices).toEqual([2]);
    // Without one, the decoy that touched the regressed part lookup is.
    const reply = repair([fix, decoy]);
    expect(reply.drop_indices).toEqual([1]);
    const allowed = [RULES.lookup.text, RULES.units.text, FORMAT_RULE, '- inches: in', '- centimetres: cm', '- miles: mi'];
    expect(reply.add_edits.length).toBeGreaterThan(0);
    expect(reply.add_edits.every((e) => allowed.includes(e.content))).toBe(true);
  });
});
