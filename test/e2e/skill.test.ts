// The Skill screen in Chromium: a SKILL.md opened with its frontmatter set aside, a diff closed
// mid-computation, edit blame of a run's version, and skill packages with references.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { readFileSync } from 'node:fs';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { startLlmServer, type LlmTestServer } from '../support/llm-server';
import { HARD_INITIAL_SKILL, makeWorldItems, ruleText } from '../support/rule-world';
import { TRIGGER_START_DESCRIPTION, triggerWorldQueries } from '../support/trigger-world';
import { withDescription } from '../../src/core/skill/skill-file';
import { launchBrowser } from './support/chromium';
import { connect, knob, readRuns, setKnobs, uploadDataset, useDataset } from './support/app';
import { appSession, appUrl, demoRun, KNOBS, skip, chooseHardWorld, chooseRuleWorld } from './support/session';
import { shootThemes } from './support/shots';
import { CREDIT_SKILL, creditWorldItems } from '../support/credit-world';

describe.skipIf(Boolean(skip))('the Skill screen in Chromium', () => {
  let srv: LlmTestServer;
  let hardSrv: LlmTestServer;
  const app = appSession(() => [srv, hardSrv], { quiet: true });
  let page: Page;
  const { consoleProblems } = app;
  beforeAll(() => {
    ({ page } = app);
  });

  beforeAll(async () => {
    srv = await startLlmServer({ latencyMs: 20 });
    hardSrv = await startLlmServer({ world: 'hard', noise: 2 });
    // The hard world on its server: the SKILL.md below trains on it.
    await chooseHardWorld(page, hardSrv);
  });
  afterAll(async () => {
    await srv?.close();
    await hardSrv?.close();
  });

  it('opens a SKILL.md, trains only its body, and exports SKILL.md and AGENTS.md from the Train screen', async () => {
    const front = '---\nname: specimen-codes\ndescription: "Answer: the specimen code."\n---\n\n';
    await page.getByRole('link', { name: 'Skill' }).click();
    await page.getByLabel('Open skill file').setInputFiles({ name: 'SKILL.md', mimeType: 'text/markdown', buffer: Buffer.from(front + HARD_INITIAL_SKILL) });
    // The frontmatter is set aside: the editor holds the body, the package fields the metadata.
    await page.waitForFunction((want) => JSON.parse(localStorage.getItem('skillwright-ui')!).state.skill === want, HARD_INITIAL_SKILL);
    expect(await page.getByLabel('Skill name').inputValue()).toBe('specimen-codes');
    expect(await page.getByLabel('Skill description').inputValue()).toBe('Answer: the specimen code.');
    await page.getByText('from SKILL.md (frontmatter set aside)').waitFor();
    await page.getByRole('link', { name: 'Train' }).click();
    const completed = async () => (await readRuns(page)).filter((r) => r.status === 'completed').length;
    const before = await completed();
    await page.getByRole('button', { name: 'Start training' }).click();
    // The previous run also ended "Completed": wait for this run's own end.
    await expect.poll(completed, { timeout: 120_000 }).toBe(before + 1);
    await page.getByText(/^Done: the best skill scored/).waitFor();
    const save = async (format: string) => {
      await page.getByLabel('Skill file format').selectOption(format);
      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Export best skill' }).click();
      const d = await download;
      return { name: d.suggestedFilename(), text: readFileSync(await d.path(), 'utf8') };
    };
    const skillMd = await save('skill_md');
    expect(skillMd.name).toBe('SKILL.md');
    expect(skillMd.text.startsWith(front)).toBe(true);
    const body = skillMd.text.slice(front.length);
    expect(body).not.toContain('---\nname:');
    expect(body).toContain('# Specimen codes');
    const agents = await save('agents_md');
    expect(agents).toEqual({ name: 'AGENTS.md', text: body });
    await page.screenshot({ path: 'test-results/train-done-export-light.png', fullPage: true });

    // Issue #23: the run's dataset as evals/evals.json, named after the skill, with its split and lift…
    const latest = (await readRuns(page)).sort((a, b) => b.updatedAt - a.updatedAt)[0];
    await page.getByRole('link', { name: 'Runs' }).click();
    await page.getByRole('button', { name: latest.name, exact: true }).first().click();
    const evalsDownload = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export evals.json' }).click();
    const evalsFile = await evalsDownload;
    expect(evalsFile.suggestedFilename()).toBe('evals.json');
    const evals = JSON.parse(readFileSync(await evalsFile.path(), 'utf8')) as {
      skill_name: string;
      evals: { id: string; prompt: string; expected_output: string }[];
      metadata: { run: string; splits: Record<string, string[]>; lift?: { estimate: number }; test?: Record<string, number> };
    };
    expect(evals.skill_name).toBe('specimen-codes');
    expect(evals.metadata.run).toBe(latest.name);
    const splitIds = Object.values(evals.metadata.splits).flat();
    expect(new Set(splitIds)).toEqual(new Set(evals.evals.map((e) => e.id)));
    expect(evals.metadata.lift?.estimate).toBe(latest.state!.summary!.lift!.estimate);
    expect(evals.metadata.test?.best).toBe(latest.state!.summary!.tests.find((t) => t.skill === 'best')!.hard);
    // …which imports as a dataset of the same items and trains (then the previous dataset is chosen again).
    const datasetId = () => page.evaluate(() => JSON.parse(localStorage.getItem('skillwright-ui')!).state.datasetId as string);
    const previousDataset = await datasetId();
    await uploadDataset(page, 'evals.json', JSON.stringify(evals));
    await useDataset(page, [2, 1, 2]);
    await page.getByText(/Training will use evals/).waitFor();
    await page.getByRole('link', { name: 'Train' }).click();
    const done = await completed();
    await page.getByRole('button', { name: 'Start training' }).click();
    await expect.poll(completed, { timeout: 120_000 }).toBe(done + 1);
    const evalRun = (await readRuns(page)).sort((a, b) => b.updatedAt - a.updatedAt)[0];
    expect(evalRun.state!.summary!.tests.find((t) => t.skill === 'best')!.hard).toBeGreaterThan(0);
    await page.getByRole('link', { name: 'Data' }).click();
    const rows = page.locator('ul.list li');
    for (let i = 0; i < (await rows.count()) && (await datasetId()) !== previousDataset; i++) await rows.nth(i).getByRole('radio').check();
    expect(await datasetId()).toBe(previousDataset);
  }, 240_000);

  // Issue #28 "Also": Monaco's diff editor reported "no diff result available" when a diff it was
  // still computing lost its models — a diff closed while Monaco's worker was still starting (as on
  // a freshly loaded page), with another editor on the page (which keeps the worker going). The
  // worker's script is held back until the diff has been closed: no timing is guessed.
  it('a diff closed while it is still being computed logs no error', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let asked!: () => void;
    const requested = new Promise<void>((r) => (asked = r));
    const workerScript = /editor\.worker-[^/]*\.js$/;
    await page.route(workerScript, async (route) => {
      asked();
      await held;
      await route.continue().catch(() => {}); // a page that moved on no longer wants it
    });
    const propose = async () => {
      await page.getByLabel('Your feedback').fill('Answers carry extra words.\n- Give the code alone, nothing else.');
      await page.getByRole('button', { name: 'Improve with my feedback' }).click();
      await page.getByTestId('skill-diff').waitFor({ timeout: 20_000 });
    };
    try {
      // A freshly loaded page: Monaco's worker starts with the first editor.
      await page.goto(`${appUrl}#/connect`);
      await page.reload();
      await connect(page, srv.url, 'sk-e2e-key');
      await page.getByRole('link', { name: 'Skill' }).click();
      await page.locator('.monaco-editor').first().waitFor({ timeout: 20_000 });
      await requested; // the skill's editor asked for the worker: it is starting
      await propose();
      await page.getByRole('button', { name: 'Discard' }).click();
      await page.getByTestId('skill-diff').waitFor({ state: 'detached' });
    } finally {
      release();
    }
    await page.unroute(workerScript);
    // A new proposal, until its diff is drawn: the worker answers in order, so the closed diff's answer is in.
    await propose();
    await page.locator('[data-testid="skill-diff"] .char-insert, [data-testid="skill-diff"] .line-insert').first().waitFor({ timeout: 20_000 });
    await page.getByRole('button', { name: 'Discard' }).click();
    expect(consoleProblems.filter((p) => /diff/i.test(p))).toEqual([]);
  }, 120_000);

  it('editors and diffs follow a colour scheme switched while the page is open', async () => {
    await page.emulateMedia({ colorScheme: 'light' });
    await page.getByRole('link', { name: 'Skill' }).click();
    await page.getByLabel('Your feedback').fill('Answers carry extra words.\n- Give the code alone, nothing else.');
    await page.getByRole('button', { name: 'Improve with my feedback' }).click();
    const diff = page.locator('[data-testid="skill-diff"] .monaco-editor:not(.gutter)').first();
    await diff.waitFor({ timeout: 20_000 });
    // The diff's gutter carries the class too, without a theme of its own.
    const editors = page.locator('.monaco-editor:not(.gutter)');
    const themed = (theme: string) => async () =>
      (await editors.evaluateAll((els) => els.map((e) => e.className))).every((c) => c.split(' ').includes(theme));
    await expect.poll(themed('vs'), { timeout: 15_000 }).toBe(true);
    try {
      await page.emulateMedia({ colorScheme: 'dark' });
      await expect.poll(themed('vs-dark'), { timeout: 15_000 }).toBe(true);
      await page.screenshot({ path: 'test-results/skill-diff-switched-dark.png', fullPage: true });
    } finally {
      await page.emulateMedia({ colorScheme: 'light' });
    }
    await expect.poll(themed('vs'), { timeout: 15_000 }).toBe(true);
    await page.getByRole('button', { name: 'Discard' }).click();
  }, 60_000);
});

describe.skipIf(Boolean(skip))('edit blame in the zero-key demo', () => {
  const app = appSession(() => [], { start: demoRun });
  let page: Page;
  beforeAll(() => {
    ({ page } = app);
  });

  it('edit blame: the Skill screen traces each line of a run version to its step, in the gutter, on hover and in a list', async () => {
    await page.getByRole('link', { name: 'Runs' }).click();
    await page.getByText('Test report').waitFor();
    const bestRow = page.getByRole('row').filter({ has: page.locator('.badge', { hasText: 'best' }) }).last();
    // On the Runs screen: any stored version, read-only, with its blame.
    await bestRow.getByRole('button', { name: 'Where lines came from' }).click();
    const versionList = page.locator('.version-blame').getByRole('list', { name: 'Edit blame' });
    await versionList.waitFor();
    expect((await versionList.getByRole('listitem').allInnerTexts()).some((e) => /· Step \d+ · accept/.test(e))).toBe(true);
    await expect.poll(() => page.locator('.version-blame .blame-step').count(), { timeout: 20_000 }).toBeGreaterThan(0);
    await page.locator('.version-blame').scrollIntoViewIfNeeded();
    await page.screenshot({ path: 'test-results/runs-version-blame-light.png' });
    await bestRow.getByRole('button', { name: 'New run from this version' }).click();
    await page.getByRole('heading', { name: 'Write the starting skill' }).waitFor();
    await page.getByLabel(/Show where each line came from/).check();
    const list = page.getByRole('list', { name: 'Edit blame' });
    await list.waitFor();
    const entries = await list.getByRole('listitem').allInnerTexts();
    expect(entries.some((e) => /^Lines? \d+(–\d+)? · Step \d+ · accept/.test(e))).toBe(true);
    expect(entries.join('\n')).toMatch(/Analyst: The skill has no rule for/);
    expect(entries.join('\n')).toMatch(/Failing train items: /);
    // The gutter marks each line; hovering a rule line names its step.
    await expect.poll(() => page.locator('[data-testid="skill-editor"] .blame-step').count(), { timeout: 20_000 }).toBeGreaterThan(0);
    const ruleLine = page.locator('[data-testid="skill-editor"] .view-line').filter({ hasText: 'specimens, use the prefix' }).first();
    await ruleLine.hover();
    await page.locator('.monaco-hover').filter({ hasText: /Step \d+/ }).first().waitFor({ timeout: 10_000 });
    await page.screenshot({ path: 'test-results/skill-blame-light.png', fullPage: true });
    await page.getByLabel(/Show where each line came from/).uncheck();
  }, 120_000);
});

describe.skipIf(Boolean(skip))('section credit on the Skill screen (issue #43 item 4)', () => {
  let srv: LlmTestServer;
  const app = appSession(() => [srv], { quiet: true });
  let page: Page;
  beforeAll(async () => {
    ({ page } = app);
    srv = await startLlmServer({});
    // The credit world: a helpful, a harmful and a neutral section, 24 validation items.
    await chooseRuleWorld(page, srv, { name: 'credit', skill: CREDIT_SKILL, items: creditWorldItems(24), splits: '4 train · 24 validation · 4 test', seed: '3' });
  });
  afterAll(() => srv?.close());

  it('credits each section beside it, and puts the drop of the harmful and idle sections to the gate', async () => {
    await page.getByRole('link', { name: 'Skill' }).click();
    await page.getByLabel('Call budget').fill('288');
    await page.getByRole('button', { name: 'Credit sections' }).click();
    const list = page.getByRole('list', { name: 'Section effects' });
    await list.waitFor({ timeout: 90_000 });
    const entries = await list.getByRole('listitem').allInnerTexts();
    expect(entries[0]).toMatch(/Amber specimens[\s\S]*\+\d+\.\d points \[\+[\s\S]*helps/);
    expect(entries[1]).toMatch(/When unsure[\s\S]*−\d+\.\d points[\s\S]*harms/);
    expect(entries[2]).toMatch(/Tone[\s\S]*no evidence it helps/);
    await page.getByText(/12 masks on 24 validation items: 288 calls of 288/).waitFor();
    // Beside the sections in the editor: a bar per section in the glyph margin, the effect after each heading.
    const editor = page.locator('[data-testid="skill-editor"]');
    await expect.poll(() => editor.locator('.credit-bar.credit-harms').count(), { timeout: 20_000 }).toBeGreaterThan(0);
    expect(await editor.locator('.credit-bar.credit-helps').count()).toBeGreaterThan(0);
    await editor.locator('.credit-label.credit-harms').first().waitFor();
    await shootThemes(page, editor, 'skill-section-credit-editor');
    await shootThemes(page, list, 'skill-section-credit');
    // The neutral section alone: its drop ties on validation, and is taken as no worse and cheaper.
    const harmful = page.getByRole('checkbox', { name: 'When unsure' });
    await harmful.uncheck();
    await page.getByRole('button', { name: 'Put the drop to the gate' }).click();
    const tie = page.getByText(/The gate accepts the drop: validation 50\.0 % → 50\.0 % \(\d+ calls\): no worse \(a \d+ % chance it knows fewer validation items \(at most 30 %\)\) and cheaper, 1\d prompt tokens per task fewer\./);
    await tie.waitFor({ timeout: 90_000 });
    await shootThemes(page, tie, 'skill-section-drop-tie');
    await page.getByRole('button', { name: 'Discard' }).click();
    await harmful.check();
    // Dropping is a candidate the gate judges, never done silently.
    await page.getByRole('button', { name: 'Put the drop to the gate' }).click();
    const verdict = page.getByText(/The gate accepts the drop: validation 50\.0 % → 100\.0 %/);
    await verdict.waitFor({ timeout: 90_000 });
    await shootThemes(page, verdict, 'skill-section-drop');
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem('skillwright-ui')!).state.skill)).toBe(CREDIT_SKILL);
    await page.getByRole('button', { name: 'Use this version' }).click();
    await page.waitForFunction(() => !JSON.parse(localStorage.getItem('skillwright-ui')!).state.skill.includes('When unsure'));
    await page.getByText('The skill changed since it was credited: credit it again.').waitFor();
    expect(await editor.locator('.credit-bar').count()).toBe(0);
  }, 240_000);
});

describe.skipIf(Boolean(skip))('skill packages in Chromium', () => {
  let srv: LlmTestServer;
  let ctx: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    srv = await startLlmServer({ latencyMs: 5, describerSlip: 0 });
    ctx = await launchBrowser();
    page = await ctx.newPage();
    await page.goto(appUrl);
  });
  afterAll(async () => {
    await ctx?.close();
    await srv?.close();
  });

  it('opens a skill package with two reference files, trains it (an edit to a reference file is applied and shown), and exports a zip whose layout round-trips (issue #23)', async () => {
    const topics = ['amber', 'basalt', 'cobalt', 'dune'];
    const code = (t: string) => ruleText(t).match(/prefix ([A-Z]{3}\d)/)![1];
    const wrong = (t: string) => `${code(t).slice(0, 3)}${(Number(code(t).slice(3)) + 1) % 10}`;
    const front = `---\nname: specimen-codes\ndescription: ${TRIGGER_START_DESCRIPTION}\nlicense: MIT\n---\n`;
    const triggers = triggerWorldQueries().map((q) => ({ query: q.query, should_trigger: q.shouldTrigger }));
    const codes = `# Codes\n\n${topics.map((t) => `- For ${t} specimens, use the prefix ${wrong(t)}: answer ${wrong(t)}-<specimen number>.`).join('\n')}\n`;
    const style = '# Style\n\nWrite the code in capitals.\n';
    const script = new Uint8Array([35, 33, 0, 255, 10]);
    const evals = makeWorldItems(60).map((w) => ({ id: w.id, prompt: w.question, expected_output: w.answers[0], files: [], assertions: [] }));
    const zip = zipSync({
      'specimen-codes/SKILL.md': strToU8(`${front}\n# Specimen codes\n\nAnswer with the specimen code only.\n`),
      'specimen-codes/references/codes.md': strToU8(codes),
      'specimen-codes/references/style.md': strToU8(style),
      'specimen-codes/scripts/check.sh': script,
      'specimen-codes/evals/evals.json': strToU8(JSON.stringify({ skill_name: 'specimen-codes', evals })),
      'specimen-codes/evals/trigger-evals.json': strToU8(JSON.stringify(triggers)),
    });
    await connect(page, srv.url, 'sk-e2e-key');
    await page.getByRole('link', { name: 'Skill' }).click();
    await page.getByLabel('Open skill package', { exact: true }).setInputFiles({ name: 'specimen-codes.zip', mimeType: 'application/zip', buffer: Buffer.from(zip) });
    const files = page.getByRole('region', { name: 'Package files' });
    await files.getByText('references/codes.md').waitFor();
    expect(await files.innerText()).toMatch(/scripts\/check\.sh\s*kept, read-only/);
    expect(await page.getByLabel('Skill name').inputValue()).toBe('specimen-codes');
    await page.getByText(/from specimen-codes\.zip \(package: SKILL\.md \+ 2 references, 3 other kept\)/).waitFor();
    // The package's trigger queries are the activation track's (issue #23 item 4).
    const triggerGroup = page.getByRole('group', { name: 'Trigger queries' });
    expect(await triggerGroup.innerText()).toMatch(/40 trigger queries from specimen-codes\/evals\/trigger-evals\.json: 16 should load the skill, 24 should not/);
    // A bad file is named with its row and field, and the queries already there stay.
    const bad = JSON.stringify([{ query: 'a', should_trigger: true }, { query: 'b', should_trigger: 'yes' }]);
    await page.getByLabel('Open trigger queries').setInputFiles({ name: 'bad-triggers.json', mimeType: 'application/json', buffer: Buffer.from(bad) });
    await page.getByText(/bad-triggers\.json holds no usable trigger queries: query 2, field "should_trigger": must be true or false/).waitFor();
    expect(await triggerGroup.innerText()).toMatch(/40 trigger queries from specimen-codes\/evals\/trigger-evals\.json/);
    await page.waitForTimeout(1000); // Monaco's first paint
    await page.screenshot({ path: 'test-results/skill-package-light.png', fullPage: true });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: 'test-results/skill-package-dark.png', fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: 'test-results/skill-package-phone-dark.png', fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.emulateMedia({ colorScheme: 'light' });

    // The package's own eval cases are the dataset.
    await page.getByRole('link', { name: 'Data' }).click();
    await page.getByRole('button', { name: 'Use the package’s evals/evals.json' }).click();
    await page.getByText('Preview — specimen-codes/evals/evals.json').waitFor();
    await page.screenshot({ path: 'test-results/data-package-evals.png', fullPage: true });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: 'test-results/data-package-evals-phone-dark.png', fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.emulateMedia({ colorScheme: 'light' });
    await useDataset(page, [2, 1, 2]);
    expect(await page.getByText(/Training will use/).innerText()).toContain('specimen-codes/evals/evals.json');

    await page.getByRole('link', { name: 'Train' }).click();
    await page.getByRole('radio', { name: 'Standard' }).check();
    await setKnobs(page, { ...KNOBS, Epochs: '1' });
    await (await knob(page, 'Train the description (activation track)')).check();
    const completed = async () => (await readRuns(page)).filter((r) => r.status === 'completed').length;
    const before = await completed();
    await page.getByRole('button', { name: 'Start training' }).click();
    await expect.poll(completed, { timeout: 120_000 }).toBe(before + 1);
    await page.getByText(/^Done: the best skill scored/).waitFor();
    // The export defaults to the package: the same layout, frontmatter and untrained files as they were.
    expect(await page.getByLabel('Skill file format').inputValue()).toBe('package');
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export best skill' }).click();
    const d = await download;
    expect(d.suggestedFilename()).toBe('specimen-codes.zip');
    const out = unzipSync(new Uint8Array(readFileSync(await d.path())));
    expect(Object.keys(out).sort()).toEqual([
      'specimen-codes/SKILL.md',
      'specimen-codes/evals/evals.json',
      'specimen-codes/evals/trigger-evals.json',
      'specimen-codes/references/codes.md',
      'specimen-codes/references/style.md',
      'specimen-codes/scripts/check.sh',
    ]);
    const skillMd = strFromU8(out['specimen-codes/SKILL.md']);
    // The activation track kept a new description: the frontmatter is as read but for that field.
    const trained = /^description: (.*)$/m.exec(skillMd)![1];
    expect(JSON.parse(trained)).toMatch(/^Gives the specimen code for .*Only for specimen codes/);
    expect(skillMd.startsWith(`${withDescription(front, JSON.parse(trained))}\n# Specimen codes`)).toBe(true);
    expect(skillMd).not.toContain('<!-- FILE:');
    const trainedCodes = strFromU8(out['specimen-codes/references/codes.md']);
    const fixed = topics.filter((t) => trainedCodes.includes(`prefix ${code(t)}`));
    expect(fixed.length).toBeGreaterThan(0);
    for (const t of fixed) expect(trainedCodes).not.toContain(`prefix ${wrong(t)}`);
    expect(strFromU8(out['specimen-codes/references/style.md'])).toBe(style);
    expect(out['specimen-codes/scripts/check.sh']).toEqual(script);

    // The Runs screen shows the description before and after, with how often each was decided right.
    await page.getByRole('link', { name: 'Runs' }).click();
    const activationCard = page.locator('section.card', { has: page.getByRole('heading', { name: 'Activation track — the description' }) });
    await activationCard.waitFor();
    expect(await page.getByTestId('activation-initial').innerText()).toBe(TRIGGER_START_DESCRIPTION);
    expect(await page.getByTestId('activation-best').innerText()).toBe(JSON.parse(trained));
    expect(await activationCard.innerText()).toMatch(/Kept a new description: decided right on \d+\.\d% of the validation queries/);
    await activationCard.scrollIntoViewIfNeeded();
    await page.screenshot({ path: 'test-results/runs-activation-light.png' });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.setViewportSize({ width: 390, height: 844 });
    await activationCard.scrollIntoViewIfNeeded();
    await page.screenshot({ path: 'test-results/runs-activation-phone-dark.png' });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.emulateMedia({ colorScheme: 'light' });
    // The step inspector names the file an accepted edit changed.
    await page.getByRole('button', { name: 'Inspect step 1' }).click();
    await page.getByText(/^Step 1 — /).waitFor();
    const changed = page.getByTestId('changed-files');
    await changed.waitFor({ timeout: 20_000 });
    expect(await changed.innerText()).toContain('references/codes.md');
    const report = page.locator('section.card', { has: page.getByRole('heading', { name: 'Edit-apply report' }) });
    expect(await report.getByRole('cell', { name: 'references/codes.md' }).count()).toBeGreaterThan(0);
    await page.getByTestId('skill-diff').waitFor({ timeout: 20_000 });
    await changed.scrollIntoViewIfNeeded();
    await page.screenshot({ path: 'test-results/runs-package-step-light.png' });

    // The best version's blame names the file each changed line lives in, and its line there.
    const bestRow = page.getByRole('row').filter({ has: page.locator('.badge', { hasText: 'best' }) }).last();
    await bestRow.getByRole('button', { name: 'Where lines came from' }).click();
    const blame = page.locator('.version-blame').getByRole('list', { name: 'Edit blame' });
    await blame.waitFor();
    await expect.poll(async () => (await blame.getByRole('listitem').allInnerTexts()).join('\n'), { timeout: 20_000 }).toMatch(/^references\/codes\.md, lines? \d+(–\d+)? · Step \d+ · accept/m);
    await page.locator('.version-blame').scrollIntoViewIfNeeded();
    await page.screenshot({ path: 'test-results/runs-package-blame-light.png' });
  }, 240_000);
});
