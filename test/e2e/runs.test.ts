// The Runs screen and its step inspector in Chromium: dropped edits, checks, repairs and tie-breaks;
// the no-regression gate rule; a stochastic target's verdicts and lift; why no step was accepted and
// a branch from a refused candidate; a run exported, deleted and imported; rewrite mode and the
// execution notes appendix; pass^k beside pass^1 on a noisy target (issue #43).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { readFileSync } from 'node:fs';
import { startLlmServer, type LlmTestServer } from '../support/llm-server';
import { BROAD_PAIRS_WORLD, BROAD_WORLD, HARD_INITIAL_SKILL, HARD_WORLD, makeHardWorldItems } from '../support/rule-world';
import { fallibleOptimizer, generatedSetup } from '../support/bench-generated';
import { generatedItems, generateWorld } from '../support/generated-world';
import { GUESSED, RIDER_SIZES, RIDER_SPEC, guessingOptimizer } from '../support/rider-world';
import { FLAKY_SIZES, FLAKY_SPEC, flakyServer } from '../support/flaky-world';
import { wrongRuleText } from '../support/rule-world';
import { shootThemes } from './support/shots';
import { CREDIT_SKILL, creditWorldItems } from '../support/credit-world';
import type { RunSectionCredit } from '../../src/engine/types';
import { connect, knob, readRuns, setKnobs, waitForStatus } from './support/app';
import { appSession, demoRun, KNOBS, skip, chooseHardWorld, chooseRuleWorld, chooseWorld } from './support/session';

describe.skipIf(Boolean(skip))('the Runs screen in Chromium', () => {
  let hardSrv: LlmTestServer;
  /** Servers a single test starts: their requests are ours too. */
  const extraServers: LlmTestServer[] = [];
  const app = appSession(() => [hardSrv, ...extraServers], { quiet: true });
  let page: Page;
  beforeAll(() => {
    ({ page } = app);
  });

  beforeAll(async () => {
    hardSrv = await startLlmServer({ world: 'hard', noise: 2 });
  });
  afterAll(async () => {
    await hardSrv?.close();
  });

  it('the step inspector shows edits dropped before ranking, the train check, a bundle repair and a validation tie-break', async () => {
    // The hard world with a noisy optimizer (rule-world.ts): seed 12 repairs bundles and weighs a tie (since the
    // verdicts stopped buying samples once decided, seed 3 no longer meets a tie; seed 7 learns the world first).
    await chooseHardWorld(page, hardSrv);
    // Found at the reference's edit budget (4); the default's 6 learns the world before a tie comes up.
    await setKnobs(page, { ...KNOBS, Seed: '12', 'Edit budget': '4' });
    for (const label of ['Screen edits before ranking', 'Train-batch check', 'Repair bundles', 'Validation tie-break']) expect(await page.getByLabel(label).isChecked(), label).toBe(true);
    expect(await page.getByLabel('Carry promising edits').isChecked()).toBe(false);
    await page.getByRole('button', { name: 'Start training' }).click();
    await waitForStatus(page, 'Completed');
    await page.getByRole('link', { name: 'Runs' }).click();
    await page.getByText('Test report').waitFor();
    const seen = new Set<string>();
    let droppedText = '';
    for (let step = 1; step <= 6; step++) {
      await page.getByRole('button', { name: `Inspect step ${step}`, exact: true }).click();
      await page.getByText(new RegExp(`^Step ${step} — `)).waitFor();
      for (const title of ['Dropped before ranking', 'Train-batch check', 'Bundle repaired', 'Validation tie-break']) {
        if (await page.getByRole('heading', { name: new RegExp(`^${title}`) }).count()) seen.add(title);
      }
      if (await page.getByRole('heading', { name: 'Bundle repaired' }).count()) {
        await page.getByRole('heading', { name: 'Bundle repaired' }).scrollIntoViewIfNeeded();
        await page.screenshot({ path: 'test-results/runs-step-repair-light.png', fullPage: true });
        const card = (title: string) => page.locator('section.card', { has: page.getByRole('heading', { name: new RegExp(`^${title}`) }) });
        await card('Dropped before ranking').screenshot({ path: 'test-results/runs-step-dropped-card.png' });
        await card('Bundle repaired').screenshot({ path: 'test-results/runs-step-repair-card.png' });
      }
      for (const t of await page.getByRole('table', { name: 'Edits dropped before ranking' }).all()) droppedText += await t.innerText();
    }
    expect([...seen].sort()).toEqual(['Bundle repaired', 'Dropped before ranking', 'Train-batch check', 'Validation tie-break']);
    expect(droppedText).toMatch(/target not in the skill/);
    expect(droppedText).toMatch(/the skill already says this/);
    // The tests after this one train the hard world at seed 7.
    await page.getByRole('link', { name: 'Train' }).click();
    await setKnobs(page, { ...KNOBS, Seed: '7' });
  }, 180_000);

  it('trains under the no-regression gate rule and shows its verdict in the step inspector', async () => {
    // The hard world from the previous test is still the chosen dataset, on the hard-world server.
    await page.getByRole('link', { name: 'Train' }).click();
    await (await knob(page, 'Gate rule')).selectOption('no_regression');
    expect(await page.getByLabel('Significance k').count()).toBe(0);
    await (await knob(page, 'Gate rule')).selectOption('significance');
    expect(await page.getByLabel('Significance k').inputValue()).toBe('1');
    await (await knob(page, 'Gate rule')).selectOption('no_regression');
    // The previous run also ended "Completed": wait for this run's own end.
    const completed = async () => (await readRuns(page)).filter((r) => r.status === 'completed').length;
    const before = await completed();
    await page.getByRole('button', { name: 'Start training' }).click();
    await expect.poll(completed, { timeout: 120_000 }).toBe(before + 1);
    await page.getByRole('link', { name: 'Runs' }).click();
    await page.getByText('Test report').waitFor();
    const verdicts: string[] = [];
    for (let step = 1; step <= 6; step++) {
      await page.getByRole('button', { name: `Inspect step ${step}`, exact: true }).click();
      await page.getByText(new RegExp(`^Step ${step} — `)).waitFor();
      for (const p of await page.getByText(/^Gate rule “Higher mean, no item regresses”/).all()) verdicts.push(await p.innerText());
    }
    expect(verdicts.length).toBeGreaterThan(0);
    for (const v of verdicts) expect(v).toMatch(/held — No item regresses over \d+ items\.|refused the candidate — \d+ items? that passed would fail/);
    await page.getByRole('link', { name: 'Train' }).click();
    await (await knob(page, 'Gate rule')).selectOption('mean');
  }, 180_000);

  it('trains through a stochastic target: the dashboard measures its noise, the inspector shows each verdict with its statistics, the lift card an interval', async () => {
    // The hard world (still the chosen dataset and skill) behind a target that misses 10% of the answers it knows and guesses 5%.
    const noisy = await startLlmServer({ world: 'hard', targetNoise: { miss: 0.1, guess: 0.05 }, noiseSeed: 1, latencyMs: 5 });
    extraServers.push(noisy);
    try {
      await connect(page, noisy.url, 'sk-e2e-key');
      await page.getByRole('link', { name: 'Train' }).click();
      const advice = page.getByRole('note', { name: 'What validation can tell apart' });
      await advice.waitFor();
      expect(await advice.innerText()).toMatch(/18 validation items: one item is 5\.6 points\..*cannot tell a gain below 3 items \(16\.7 points\) from noise/s);
      for (const label of ['Settle noisy verdicts', 'Leave-one-out blame']) expect(await page.getByLabel(label).isChecked(), label).toBe(true);
      expect(await page.getByLabel('Re-check a new best').isChecked()).toBe(false);
      await setKnobs(page, { ...KNOBS, Seed: '1' });
      await advice.screenshot({ path: 'test-results/train-noise-advice-light.png' });
      await page.getByRole('button', { name: 'Start training' }).click();
      const noise = page.getByLabel('Target noise');
      await noise.waitFor({ timeout: 60_000 });
      expect(await noise.innerText()).toMatch(/of \d+ repeated answers changed \(at most [\d.]+% at 90% confidence\)/);
      await waitForStatus(page, 'Completed');
      // Posterior verdicts (the default): each item's noise taken out, the doubtful side asked again, until sure.
    expect(await noise.innerText()).toMatch(
      /Verdicts take this noise out item by item and ask again \(the skill whose answers are in doubt\) where a change is plausible, until the candidate is better with 70% probability or cannot be\./,
    );
      await page.locator('section.dashboard').screenshot({ path: 'test-results/train-noise-light.png' });
      await page.getByRole('link', { name: 'Runs' }).click();
      const lift = page.locator('section.card', { has: page.getByRole('heading', { name: 'Lift on the test split' }) });
      await lift.waitFor();
      const liftText = await lift.innerText();
      expect(liftText).toMatch(/Over the starting skill \(training\): \+[\d.]+ points, 95% interval [+−][\d.]+ points to \+[\d.]+ points/);
      expect(liftText).toMatch(/a real gain/);
      expect(liftText).toMatch(/this target missed about \d+% of answers it knew and guessed about \d+% of the others/);
      await lift.screenshot({ path: 'test-results/runs-lift-noise-light.png' });
      let settled = '';
      let checked = '';
      for (let step = 1; step <= 6 && !(settled && checked); step++) {
        await page.getByRole('button', { name: `Inspect step ${step}`, exact: true }).click();
        await page.getByText(new RegExp(`^Step ${step} — `)).waitFor();
        const verdict = page.getByLabel('Gate verdict');
        if ((await verdict.count()) && /asked again where a change was plausible, until the verdict was sure/.test(await verdict.innerText())) settled = await verdict.innerText();
        const check = page.locator('section.card', { has: page.getByRole('heading', { name: 'Train-batch check' }) }).last();
        if ((await check.count()) && /weighed on more than one answer/.test(await check.innerText())) checked = await check.innerText();
      }
      expect(checked).toMatch(/\d+ items? weighed on more than one answer, the target’s noise taken out; \d+ calls asked again where a change was plausible, until the check was decided\./);
      expect(settled).toMatch(/Item by item, the target’s noise taken out: \d+ likely gained \d+ likely lost; the candidate is better with probability [01]\.\d{3}\. \d+ items? weighed on more than one answer .*\d+ calls? asked again/);
      await page.getByLabel('Gate verdict').scrollIntoViewIfNeeded();
      await page.locator('.inspector section.card').first().screenshot({ path: 'test-results/runs-step-verdict-light.png' });
    } finally {
      // The tests after this one train on the hard-world server.
      await connect(page, hardSrv.url, 'sk-e2e-key');
      await noisy.close();
    }
  }, 180_000);

  it('exports a run, deletes it, and imports it back', async () => {
    page.on('dialog', (d) => void d.accept());
    await page.getByRole('link', { name: 'Runs' }).click();
    await page.getByText('Runs in this browser').waitFor();
    const before = (await readRuns(page)).length;
    await page.getByRole('button', { name: /world\.json/ }).last().click();
    await page.getByRole('button', { name: 'Export run' }).waitFor();
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export run' }).click();
    const bundle = readFileSync(await (await download).path(), 'utf8');
    expect(bundle).not.toContain('sk-e2e-key');
    await page.getByRole('button', { name: 'Delete' }).click();
    // The runs list is the page's first clickable table (the selected run's steps follow it).
    await page.waitForFunction((n) => document.querySelector('.card table.clickable')!.querySelectorAll('tbody tr').length === n - 1, before);
    expect(await readRuns(page)).toHaveLength(before - 1);
    await page.getByLabel('Import run file').setInputFiles({ name: 'run.json', mimeType: 'application/json', buffer: Buffer.from(bundle) });
    await page.getByText('Run imported.').waitFor();
    expect(await readRuns(page)).toHaveLength(before);
    // Imported runs are read-only until bound to the user's own connection (issue #9).
    await page.getByRole('button', { name: /world\.json/ }).last().click();
    const note = page.getByRole('note').filter({ hasText: 'Imported from a file: read-only' });
    await note.waitFor();
    expect(await page.getByRole('button', { name: /^Resume/ }).count()).toBe(0);
    await note.screenshot({ path: 'test-results/runs-imported-note.png' });
    await page.getByRole('button', { name: 'Use my connection for this run' }).click();
    await page.getByText(/This run now uses your connection \(http:\/\/127\.0\.0\.1:\d+\)/).waitFor();
    expect(await note.count()).toBe(0);
    await page.getByLabel('Import run file').setInputFiles({ name: 'broken.json', mimeType: 'application/json', buffer: Buffer.from('{"format":"skillwright-run","version":1}') });
    await page.getByRole('alert').filter({ hasText: 'broken.json was not imported' }).waitFor();
    expect(await readRuns(page)).toHaveLength(before);
  });
  /** Train the chosen world to completion and look through the step inspector for a part; its step and text. */
  async function findInSteps(part: (step: number) => ReturnType<Page['locator']>): Promise<{ step: number; text: string } | null> {
    await page.getByRole('button', { name: 'Start training' }).click();
    await waitForStatus(page, 'Completed');
    await page.getByRole('link', { name: 'Runs' }).click();
    await page.getByText('Test report').waitFor();
    // Every step of the run: a busy machine's retries can move the draws, and with them the step that shows it.
    const steps = await page.getByRole('button', { name: /^Inspect step \d+$/ }).count();
    for (let step = 1; step <= steps; step++) {
      await page.getByRole('button', { name: `Inspect step ${step}`, exact: true }).click();
      await page.getByText(new RegExp(`^Step ${step} — `)).waitFor();
      if (await part(step).count()) return { step, text: await part(step).first().innerText() };
    }
    return null;
  }

  it('the step inspector says how a step escaped an over-broad start: a repair aimed at what the bundle broke', async () => {
    // The broad world with a repairer that restores nothing (issue #40): the old gate never left its start.
    const blind = await startLlmServer({ world: 'broad', repairSlip: 0.35, optimizerHook: fallibleOptimizer({ spec: BROAD_WORLD, slip: 1, repairSlip: 0.35, repairBlind: 1 }) });
    extraServers.push(blind);
    try {
      await chooseRuleWorld(page, blind, { name: 'broad-blind', skill: BROAD_WORLD.initialSkill, items: makeHardWorldItems(BROAD_WORLD), splits: '54 train · 18 validation · 48 test', seed: '1' });
      const card = () => page.locator('section.card', { has: page.getByRole('heading', { name: /^Escape: a repair aimed at what the bundle broke/ }) });
      const found = await findInSteps(card);
      expect(found).not.toBeNull();
      expect(found!.text).toMatch(/The repair left \d+ train items? broken: instead of rejecting, the failure analysts read those items/);
      expect(found!.text).toMatch(/\d+ edits? joined the bundle → \d+ fixed, \d+ broken on the train items → the extended bundle went on\./);
      await shootThemes(page, card(), 'runs-step-escape');
    } finally {
      // The tests after this one train the hard world at seed 1, as before it.
      await chooseHardWorld(page, hardSrv);
      await setKnobs(page, { ...KNOBS, Seed: '1' });
      await blind.close();
    }
  }, 240_000);

  it('the step inspector says how a step looked ahead from a plateau: the failures the candidate still answers wrong', async () => {
    // The locked start of issue #32: the first right step is neutral on train, its grade marks seen only once the prefix is right.
    const pairs = await startLlmServer({ world: 'broad', repairSlip: 0.35, spec: BROAD_PAIRS_WORLD });
    extraServers.push(pairs);
    try {
      await chooseRuleWorld(page, pairs, { name: 'broad-pairs', skill: BROAD_PAIRS_WORLD.initialSkill, items: makeHardWorldItems(BROAD_PAIRS_WORLD), splits: '54 train · 18 validation · 48 test', seed: '1' });
      const card = () => page.locator('section.card', { has: page.getByRole('heading', { name: 'Looked one step ahead' }) });
      const found = await findInSteps(card);
      expect(found).not.toBeNull();
      expect(found!.text).toMatch(/The candidate fixed and broke no train item, yet answered failures differently: the failure analysts read the \d+ train items? it still fails, as the next step would\./);
      expect(found!.text).toMatch(/\d+ edits? joined the bundle → \d+ fixed, \d+ broken on the train items( \(none sure on its own, about [\d.]+ gained in expectation\))? → the extended bundle went on\./);
      expect(found!.text).toMatch(/grade mark/);
      await shootThemes(page, card(), 'runs-step-ahead');
    } finally {
      await chooseHardWorld(page, hardSrv);
      await setKnobs(page, { ...KNOBS, Seed: '1' });
      await pairs.close();
    }
  }, 240_000);

  it('the step inspector says when a look ahead went on with no train item sure on its own', async () => {
    // A generated world (issue #40) with a steady target: at its fourth step the look ahead answers four more
    // train items right, each only 0.47 likely gained — about two in expectation, none sure on its own.
    const w = generateWorld(1241053228, 'plateau');
    const setup = generatedSetup(w);
    const steady = await startLlmServer({ ...setup.server, noiseSeed: w.seed });
    extraServers.push(steady);
    try {
      const splits = `${w.sizes.train} train · ${w.sizes.val} validation · ${w.sizes.test} test`;
      await chooseRuleWorld(page, steady, { name: 'plateau', skill: w.spec.initialSkill, items: generatedItems(w), splits, seed: String(w.seed) });
      // Found at the reference's edit budget (4), as in test/engine/plateau.test.ts.
      await setKnobs(page, { 'Edit budget': '4' });
      const card = () => page.locator('section.card', { has: page.getByRole('heading', { name: 'Looked one step ahead' }) });
      const found = await findInSteps(() => card().filter({ hasText: 'none sure on its own' }));
      expect(found).not.toBeNull();
      expect(found!.text).toMatch(/→ 0 fixed, 0 broken on the train items \(none sure on its own, about [12]\.\d gained in expectation\) → the extended bundle went on\./);
      await shootThemes(page, card().filter({ hasText: 'none sure on its own' }), 'runs-step-ahead-expected');
    } finally {
      await chooseHardWorld(page, hardSrv);
      await setKnobs(page, { ...KNOBS, Seed: '1' });
      await steady.close();
    }
  }, 240_000);

  it('the step inspector says which edit carried no gain and was left out before the gate (riders, issue #43)', async () => {
    // The rider world: the first step's analysts guess basalt's rule wrong beside the right rules of the others.
    const srv = await startLlmServer({ world: 'hard', spec: RIDER_SPEC, noise: 0, optimizerHook: guessingOptimizer });
    extraServers.push(srv);
    try {
      const splits = `${RIDER_SIZES.train} train · ${RIDER_SIZES.val} validation · ${RIDER_SIZES.test} test`;
      await chooseRuleWorld(page, srv, { name: 'rider', skill: RIDER_SPEC.initialSkill, items: generatedItems({ spec: RIDER_SPEC, sizes: RIDER_SIZES }), splits, seed: '1' });
      await (await knob(page, 'Drop riders')).check();
      const card = () => page.locator('section.card', { has: page.getByRole('heading', { name: 'What each edit carried' }) }).filter({ hasText: 'left out before the gate' });
      const found = await findInSteps(card);
      expect(found).not.toBeNull();
      // Edits that name a gained item carry it by their own evidence (not probed); the others are left out in turn.
      expect(found!.text).toMatch(
        /(\d+ edits? named a gained item and carried it by its own evidence; the other|Each of the bundle’s) \d+ edits? (was|were) left out in turn on the \d+ train items? it gained: \d+ carried a gain, 1 none \(a rider\) → 1 rider left out before the gate\./,
      );
      expect(found!.text).toContain(wrongRuleText(GUESSED));
      await shootThemes(page, card(), 'runs-step-riders');
    } finally {
      await page.getByRole('link', { name: 'Train' }).click();
      await (await knob(page, 'Drop riders')).uncheck();
      await chooseHardWorld(page, hardSrv);
      await setKnobs(page, { ...KNOBS, Seed: '1' });
      await srv.close();
    }
  }, 240_000);

  it('the step inspector shows the gate refusing a candidate whose pass^k fell (stability, issue #43)', async () => {
    // The flaky world: a "code book" right four times in five is better on average, less reliable than the start.
    const srv = await startLlmServer(flakyServer);
    extraServers.push(srv);
    try {
      const splits = `${FLAKY_SIZES.train} train · ${FLAKY_SIZES.val} validation · ${FLAKY_SIZES.test} test`;
      await chooseRuleWorld(page, srv, { name: 'flaky', skill: FLAKY_SPEC.initialSkill, items: generatedItems({ spec: FLAKY_SPEC, sizes: FLAKY_SIZES }), splits, seed: '1' });
      await setKnobs(page, { Epochs: '1', 'Test repeats': '4' });
      await (await knob(page, 'Stability (pass^k must not fall)')).check();
      const line = () => page.getByLabel('Stability');
      const found = await findInSteps(line);
      expect(found).not.toBeNull();
      expect(found!.text).toMatch(/^Stability \(pass4 must not fall\): on 40 validation items, tried up to 4 times where passed \(\d+ calls\), pass4 0\.500 → 0\.[0-4]\d\d → refused the candidate\.$/);
      await shootThemes(page, page.locator('section.card', { has: line() }), 'runs-step-stability');
    } finally {
      await page.getByRole('link', { name: 'Train' }).click();
      await (await knob(page, 'Stability (pass^k must not fall)')).uncheck();
      await setKnobs(page, { 'Test repeats': '0' });
      await chooseHardWorld(page, hardSrv);
      await setKnobs(page, { ...KNOBS, Seed: '1' });
      await srv.close();
    }
  }, 240_000);

  it('the step inspector says what an undecided gate asked for before deciding', async () => {
    // A start with no rule, a target that misses 20 % and guesses 10 %, analysts that are useless 40 % of the time.
    const cold = { ...HARD_WORLD, name: 'cold', initialSkill: '# Specimen codes\n\nAnswer with the specimen code.\n' };
    const noisy = await startLlmServer({ world: 'hard', spec: cold, targetNoise: { miss: 0.2, guess: 0.1 }, noiseSeed: 5, optimizerHook: fallibleOptimizer({ spec: cold, slip: 1, repairSlip: 0, useless: 0.4 }) });
    extraServers.push(noisy);
    try {
      await chooseRuleWorld(page, noisy, { name: 'cold', skill: cold.initialSkill, items: makeHardWorldItems(cold), splits: '54 train · 18 validation · 48 test', seed: '12' });
      const found = await findInSteps(() => page.getByLabel('Evidence bought'));
      expect(found).not.toBeNull();
      expect(found!.text).toMatch(/^Undecided on the run’s samples \(better with probability 0\.\d{3}, worse 0\.\d{3}\): instead of saying no, the gate asked again where a change was plausible, up to 6 answers per item \(\d+ calls?\) → better with probability [01]\.\d{3}\.$/);
      // The candidate was measured, not read from a cache, though the second look found its answers stored.
      expect(await page.locator('.inspector section.card').first().innerText()).not.toMatch(/cached answers/);
      await shootThemes(page, page.locator('.inspector section.card').first(), 'runs-step-evidence');
    } finally {
      await chooseHardWorld(page, hardSrv);
      await setKnobs(page, { ...KNOBS, Seed: '1' });
      await noisy.close();
    }
  }, 240_000);

  it('says why a run accepted no step, with the evidence, on Train and on Runs', async () => {
    await page.getByRole('link', { name: 'Train' }).click();
    await (await knob(page, 'Gate rule')).selectOption('significance');
    await (await knob(page, 'Significance k')).fill('10');
    const completed = async () => (await readRuns(page)).filter((r) => r.status === 'completed').length;
    const before = await completed();
    await page.getByRole('button', { name: 'Start training' }).click();
    await expect.poll(completed, { timeout: 120_000 }).toBe(before + 1);
    const card = page.locator('section.card', { has: page.getByRole('heading', { name: 'Why no step was accepted' }) });
    await card.waitFor();
    expect(await card.innerText()).toMatch(/No step was accepted\. In \d+ steps?, the candidate beat the mean but the gate rule refused it\./);
    expect(await card.innerText()).toMatch(/Refused by the gate rule \(steps? [\d, ]+\)/);
    await card.screenshot({ path: 'test-results/train-diagnosis-card.png' });
    await page.getByRole('link', { name: 'Runs' }).click();
    await page.getByRole('heading', { name: 'Why no step was accepted' }).waitFor();
    // Steering: branch a new run from a candidate the gate refused.
    await page.getByRole('button', { name: 'Inspect step 1', exact: true }).click();
    await page.getByText(/^Step 1 — reject/).waitFor();
    await page.getByRole('button', { name: 'New run from the refused candidate' }).click();
    await page.getByText(/from .*, step 1 candidate \(refused by the gate\)/).waitFor();
    const branched = await page.evaluate(() => JSON.parse(localStorage.getItem('skillwright-ui')!).state.skill as string);
    // The run accepted nothing, so its best skill is the starting one; the refused candidate carries its edits.
    expect(branched).not.toBe(HARD_INITIAL_SKILL);
    expect(branched).toContain('# Specimen codes');
    // The branch trains as a new run that names where it came from; the parent lists it.
    await page.getByRole('link', { name: 'Train' }).click();
    await (await knob(page, 'Gate rule')).selectOption('mean');
    const done = async () => (await readRuns(page)).filter((r) => r.status === 'completed').length;
    const doneBefore = await done();
    await page.getByRole('button', { name: 'Start training' }).click();
    await expect.poll(done, { timeout: 120_000 }).toBe(doneBefore + 1);
    await page.getByRole('link', { name: 'Runs' }).click();
    await page.getByRole('table').getByRole('button').first().click(); // the newest run: the branch
    await page.getByText(/^Branched from hard-world\.json · sim-target \(step 1 candidate \(refused by the gate\)\)\./).waitFor();
    await page.locator('.lineage').getByRole('button', { name: 'hard-world.json · sim-target' }).click();
    await page.getByText(/Branches: hard-world\.json · sim-target \(from step 1 candidate/).waitFor();
    await page.getByRole('link', { name: 'Train' }).click();
    await (await knob(page, 'Gate rule')).selectOption('mean');
  }, 180_000);

});

describe.skipIf(Boolean(skip))('the step inspector in the zero-key demo', () => {
  const app = appSession(() => [], { start: demoRun });
  let page: Page;
  beforeAll(() => {
    ({ page } = app);
  });

  it('trains in rewrite mode and shows the suggestions and the rewrite in the step inspector', async () => {
    await page.getByRole('link', { name: 'Train' }).click();
    await (await knob(page, 'Update mode')).selectOption('rewrite');
    const estimate = page.locator('table').filter({ hasText: 'Update (rewrite)' });
    await estimate.waitFor({ state: 'attached' }); // in the folded table per stage
    await page.getByRole('button', { name: 'Start training' }).click();
    await expect.poll(async () => (await readRuns(page)).filter((r) => r.status === 'completed').length, { timeout: 60_000 }).toBe(2);
    const runs = await readRuns(page);
    const latest = runs.find((r) => r.state?.config.updateMode === 'rewrite')!;
    expect(latest.state!.gate.bestScore).toBeGreaterThan(0.5);
    await page.getByRole('link', { name: 'Runs' }).click();
    await page.getByText('Test report').waitFor();
    await page.getByRole('button', { name: 'Inspect step 1', exact: true }).click();
    const card = page.locator('section.card').filter({ has: page.getByRole('heading', { name: 'Rewrite from suggestions' }) });
    await card.waitFor();
    expect(await card.innerText()).toMatch(/Suggestions \(\d+ of \d+ chosen for the rewrite\)/);
    expect(await card.innerText()).toMatch(/What the rewrite changed\s+added - /);
    await card.scrollIntoViewIfNeeded();
    await page.screenshot({ path: 'test-results/runs-rewrite-step-light.png' });
    await page.getByRole('link', { name: 'Train' }).click();
    await (await knob(page, 'Update mode')).selectOption('patch');
  }, 120_000);

  it('skill-aware reflection writes reminders into the appendix and shows the re-scored skill in the step inspector', async () => {
    await page.getByRole('link', { name: 'Train' }).click();
    expect(await page.getByLabel('Reminders from').count()).toBe(0);
    await (await knob(page, 'Skill-aware reflection')).check();
    expect(await page.getByLabel('Reminders from').inputValue()).toBe('failure_only');
    await (await knob(page, 'Compact reminders above')).fill('3');
    await page.getByRole('button', { name: 'Start training' }).click();
    await expect.poll(async () => (await readRuns(page)).filter((r) => r.status === 'completed').length, { timeout: 60_000 }).toBe(3);
    await page.getByRole('link', { name: 'Runs' }).click();
    await page.getByText('Test report').waitFor();
    await page.getByRole('button', { name: 'Inspect step 1', exact: true }).click();
    const card = page.locator('section.card').filter({ has: page.getByRole('heading', { name: 'Execution notes appendix' }) });
    await card.waitFor();
    const text = await card.innerText();
    expect(text).toMatch(/\d+ reminders? from the analysts · notes 0 → \d+ · compacted \d+ → \d+/);
    expect(text).toMatch(/scored again on validation: \d+\.\d% → \d+\.\d%/);
    await card.scrollIntoViewIfNeeded();
    await page.screenshot({ path: 'test-results/runs-appendix-step-light.png' });
    await page.getByRole('link', { name: 'Train' }).click();
    await (await knob(page, 'Skill-aware reflection')).uncheck();
  }, 120_000);
});

describe.skipIf(Boolean(skip))('pass^k on the Runs screen in Chromium (issue #43)', () => {
  let srv: LlmTestServer;
  const app = appSession(() => [srv], { quiet: true });
  beforeAll(async () => {
    // The rule world behind a target that misses a quarter of the answers it knows and guesses a tenth of the others.
    srv = await startLlmServer({ targetNoise: { miss: 0.25, guess: 0.1 }, noiseSeed: 2, latencyMs: 5 });
  });
  afterAll(async () => {
    await srv?.close();
  });

  it('shows each skill’s pass^3 beside its pass^1 and the items that flipped, as the run stored them', async () => {
    const { page } = app;
    await chooseWorld(page, srv);
    await setKnobs(page, { Epochs: '1', 'Test repeats': '3' });
    await page.getByRole('button', { name: 'Start training' }).click();
    await waitForStatus(page, 'Completed');
    const [run] = (await readRuns(page)) as unknown as { state: { summary: { tests: { skill: string; passK: { passAt1: number; passAtK: number; flipRate: number; items: number } }[] } } }[];
    const stored = (skill: string) => run.state.summary.tests.find((t) => t.skill === skill)!.passK;
    const pct = (v: number) => `${(v * 100).toFixed(1)}%`;
    const best = stored('best');
    expect(best.passAtK).toBeLessThan(best.passAt1);
    expect(best.flipRate).toBeGreaterThan(0);
    await page.getByRole('link', { name: 'Runs' }).click();
    const lift = page.locator('section.card', { has: page.getByRole('heading', { name: 'Lift on the test split' }) });
    await lift.waitFor();
    const lines = await lift.getByRole('list', { name: 'Every time: pass^k beside pass^1' }).innerText();
    for (const [label, skill] of [['Best skill', 'best'], ['Starting skill', 'initial']]) {
      const p = stored(skill);
      expect(lines).toContain(`${label}: pass3 ${pct(p.passAtK)} against pass1 ${pct(p.passAt1)} — ${pct(p.flipRate)} of ${p.items} test items passed on some tries and failed on others`);
    }
    expect(await lift.innerText()).toContain('each test item was tried 3 times with each skill');
    const report = page.locator('section.card', { has: page.getByRole('heading', { name: 'Test report' }) });
    const heads = await report.locator('th').allInnerTexts();
    expect(heads.slice(0, 5)).toEqual(['Skill', 'Test accuracy', 'pass1', 'pass3', 'Items flipped']);
    const row = await report.locator('tr', { hasText: 'Best (exported)' }).locator('td').allInnerTexts();
    expect(row.slice(2, 5)).toEqual([pct(best.passAt1), pct(best.passAtK), pct(best.flipRate)]);
    await shootThemes(page, lift, 'runs-pass-k-lift');
    await shootThemes(page, report, 'runs-pass-k-test-report');
  }, 240_000);
});

describe.skipIf(Boolean(skip))('section credit at the end of a run, on the Runs screen (issue #43 item 4)', () => {
  let srv: LlmTestServer;
  const app = appSession(() => [srv], { quiet: true });
  beforeAll(async () => {
    srv = await startLlmServer({ latencyMs: 5 });
    // The credit world: a helpful, a harmful and a neutral section, 24 validation items.
    await chooseRuleWorld(app.page, srv, {
      name: 'credit',
      skill: CREDIT_SKILL,
      items: creditWorldItems(24),
      splits: '4 train · 24 validation · 4 test',
      seed: '3',
    });
  });
  afterAll(async () => {
    await srv?.close();
  });

  it('prices the credit in the run-start estimate, and shows the best skill’s sections as the run stored them', async () => {
    const { page } = app;
    await setKnobs(page, { Epochs: '1', 'Batch size': '4', 'Section credit at the end (calls)': '300' });
    await page.getByText('Per stage (upper bound) and what the estimate assumes').click();
    const stage = page.locator('tr', { hasText: 'Section credit (masked sections)' });
    await stage.waitFor();
    expect((await stage.locator('td').allInnerTexts())[1]).toBe('300');
    await page.getByText(/section credit scores the best skill .* at most 300 calls/).waitFor();
    await page.getByRole('button', { name: 'Start training' }).click();
    await waitForStatus(page, 'Completed');
    const [run] = (await readRuns(page)) as unknown as { state: { summary: { sectionCredit: RunSectionCredit } } }[];
    const stored = run.state.summary.sectionCredit;
    if (!stored.ok) throw new Error(stored.reason);
    expect(stored.report.sections.map((s) => s.verdict)).toEqual(['helps', 'harms', 'nil']);
    await page.getByRole('link', { name: 'Runs' }).click();
    const card = page.locator('section.card', {
      has: page.getByRole('heading', { name: 'Section credit of the best skill' }),
    });
    await card.waitFor();
    const entries = await card
      .getByRole('list', { name: 'Section effects of the best skill' })
      .getByRole('listitem')
      .allInnerTexts();
    expect(entries[0]).toMatch(
      /Amber specimens[\s\S]*\+18\.8 points \[\+[\s\S]*helps: its whole interval is above zero/,
    );
    expect(entries[1]).toMatch(/When unsure[\s\S]*−43\.8 points[\s\S]*harms/);
    expect(entries[2]).toMatch(/Tone[\s\S]*no evidence it helps/);
    const tone = stored.report.sections[2];
    expect(entries[2]).toContain(`${Math.round(tone.tokens)} tokens per task`);
    const text = await card.innerText();
    expect(text).toContain(`The skill costs ${Math.round(stored.report.skillTokens)} prompt tokens per task`);
    expect(text).toContain('Worth dropping (harmful, or no evidence of help): When unsure, Tone.');
    expect(text).toContain(
      `${stored.masks} masks (random halves of the sections kept, each with its complement) on 24 validation items: ${stored.calls} calls of a budget of 300`,
    );
    await shootThemes(page, card, 'runs-section-credit');
  }, 240_000);
});
