// An agent's skill trained in the page (issue #30): the parts-desk example (a dataset that declares
// its lookup tool), the trajectory inspector turn by turn, in both themes and at phone width.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { appSession, skip } from './support/session';
import { connect, knob, setKnobs, trainToCompletion, uploadDataset, waitForStatus } from './support/app';
import { strToU8, zipSync } from 'fflate';
import { startLlmServer, type LlmTestServer } from '../support/llm-server';
import { LOOKUP, NUMBER, DOUBLE, UNITS, UNITS_REFERENCE, toolWorldItems, toolWorldOptimizer, toolWorldPolicy } from '../support/tool-world';

/** A catalogue that knows parts by number only, as an environment module with state and a score. */
const CATALOGUE = `
const NAMES = ['Amber bolt', 'Basalt nut', 'Cobalt gear', 'Dune washer', 'Ember spring', 'Fjord pin'];
export default {
  name: 'catalogue',
  tools: [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object', properties: { code: { type: 'string' } } } } }],
  reset() { return { lookups: 0 }; },
  call(name, args, state) {
    state.lookups++;
    if (!/^\\d+$/.test(String(args.code))) return 'no part with that code';
    const n = Number(args.code);
    return NAMES[(n - 100) % 6] + '; weight ' + (((n - 100) % 7) + 1) + ' kg';
  },
  score({ state }) { return state.lookups <= 2 ? { hard: 1 } : { hard: 0, soft: 0.5, failReason: 'looked up ' + state.lookups + ' times' }; },
};
`;


describe.skipIf(Boolean(skip))('an agent with tools, in Chromium', () => {
  let srv: LlmTestServer;
  // Errors, warnings and uncaught page errors are collected; each test checks none came.
  const session = appSession();
  let page: Page;
  const problems = session.consoleProblems;

  beforeAll(async () => {
    page = session.page;
    srv = await startLlmServer({ latencyMs: 5, agentPolicy: toolWorldPolicy, optimizerHook: toolWorldOptimizer });
  });

  afterAll(async () => {
    await srv?.close();
  });

  it('trains the parts-desk example: the agent stops looping, looks parts up by number, and the inspector shows each turn', async () => {
    await connect(page, srv.url, 'sk-e2e-key');
    await page.getByRole('link', { name: 'Data' }).click();
    await page.getByLabel('Example').selectOption('parts-desk');
    await page.getByRole('button', { name: 'Load example' }).click();
    await page.getByText(/parts-desk\.json/).first().waitFor();
    await page.getByText(/\d+ train · \d+ validation · \d+ test/).waitFor();
    await page.getByRole('button', { name: 'Use this dataset' }).click();
    await page.getByText(/Training will use/).waitFor();
    await page.getByRole('link', { name: 'Train' }).click();
    await setKnobs(page, { Epochs: '2', 'Batch size': '12' });
    const run = await trainToCompletion(page);
    await waitForStatus(page, 'Completed');
    const best = run.state!.gate.bestSkill;
    expect(best).toContain(LOOKUP);
    expect(best).toContain(NUMBER);
    expect(best).not.toContain(DOUBLE);
    expect(run.state!.gate.bestScore).toBe(1);

    await page.getByRole('link', { name: 'Runs' }).click();
    await page.getByText('Test report').waitFor();
    // Step 1 ran the starting skill's loop: its items ran out of turns.
    await page.getByRole('button', { name: 'Inspect step 1', exact: true }).click();
    await page.getByText(/^Step 1 — /).waitFor();
    const table = page.getByRole('region', { name: 'Rollouts of this step' });
    await table.waitFor();
    await table.getByRole('button', { name: /^Trajectory of / }).first().click();
    const trajectory = page.getByRole('region', { name: /^Trajectory of / });
    await trajectory.waitFor();
    const text = await trajectory.innerText();
    expect(text).toMatch(/8 turns/);
    expect(text).toMatch(/ran out of turns \(8 turns; last: turn 8 called lookup/);
    expect(text).toMatch(/→ lookup\(\{"code":"[A-Z]{3}-\d+"\}\)/);
    expect(text).toMatch(/← lookup: no result for these arguments/);
    await trajectory.scrollIntoViewIfNeeded();
    await page.screenshot({ path: 'test-results/runs-trajectory-light.png' });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: 'test-results/runs-trajectory-dark.png' });
    await page.setViewportSize({ width: 390, height: 844 });
    await trajectory.scrollIntoViewIfNeeded();
    await page.screenshot({ path: 'test-results/runs-trajectory-phone-dark.png' });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.emulateMedia({ colorScheme: 'light' });
    expect(problems).toEqual([]);
  }, 180_000);

  it('trains with an environment module opened on the Data screen: its tools, its state and its score', async () => {
    await page.getByRole('link', { name: 'Data' }).click();
    // A module that breaks the contract is named, and nothing is kept.
    await page.getByLabel('Open environment module').setInputFiles({ name: 'broken.mjs', mimeType: 'text/javascript', buffer: Buffer.from('export default { name: "x" };') });
    await page.getByRole('alert').filter({ hasText: 'The environment module broken.mjs cannot be used' }).waitFor();
    await page.getByLabel('Open environment module').setInputFiles({ name: 'catalogue.mjs', mimeType: 'text/javascript', buffer: Buffer.from(CATALOGUE) });
    const card = page.getByLabel('Environment module', { exact: true });
    await card.waitFor();
    expect(await card.innerText()).toMatch(/catalogue \(catalogue\.mjs\) offers lookup and scores each trajectory/);
    const envCard = page.locator('section.card', { has: page.getByRole('heading', { name: 'Agent’s tools' }) });
    await envCard.screenshot({ path: 'test-results/data-environment-light.png' });
    await page.emulateMedia({ colorScheme: 'dark' });
    await envCard.screenshot({ path: 'test-results/data-environment-dark.png' });
    await page.setViewportSize({ width: 390, height: 844 });
    await envCard.screenshot({ path: 'test-results/data-environment-phone-dark.png' });
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.emulateMedia({ colorScheme: 'light' });
    // Items without tools of their own: the module's lookup is what the agent calls.
    const items = toolWorldItems(60).map(({ tool_results: _r, expected_tool_calls: _e, ...rest }) => rest);
    await uploadDataset(page, 'catalogue-items.json', JSON.stringify(items));
    await page.getByText(/\d+ train · \d+ validation · \d+ test/).waitFor();
    await page.getByRole('button', { name: 'Use this dataset' }).click();
    await page.getByText(/Training will use/).waitFor();
    await page.getByRole('link', { name: 'Skill' }).click();
    await page.getByLabel('Open skill file').setInputFiles({ name: 'parts.md', mimeType: 'text/markdown', buffer: Buffer.from(`# Parts\n\nWeights in the catalogue are in kg: grams = kg × 1000.\n\n${LOOKUP}\n${DOUBLE}\n`) });
    await page.getByRole('link', { name: 'Train' }).click();
    await setKnobs(page, { Epochs: '1', 'Batch size': '12', 'Maximum turns': '4' });
    const run = await trainToCompletion(page);
    await waitForStatus(page, 'Completed');
    expect(run.state!.gate.bestSkill).toContain(NUMBER);
    expect(run.state!.gate.bestSkill).not.toContain(DOUBLE);
    await page.getByRole('link', { name: 'Runs' }).click();
    await page.getByText('Test report').waitFor();
    await page.getByRole('button', { name: 'Inspect step 1', exact: true }).click();
    const table = page.getByRole('region', { name: 'Rollouts of this step' });
    await table.getByRole('button', { name: /^Trajectory of / }).first().click();
    const text = await page.getByRole('region', { name: /^Trajectory of / }).innerText();
    expect(text).toMatch(/looked up 4 times/);
    expect(text).toMatch(/← lookup: no part with that code/);
    await page.getByRole('link', { name: 'Data' }).click();
    await page.getByRole('button', { name: 'Remove module' }).click();
    expect(problems).toEqual([]);
  }, 180_000);

  it('reads a package’s references on demand: SKILL.md in the prompt, the reference through read_file', async () => {
    const zip = zipSync({
      'parts/SKILL.md': strToU8(`---\nname: parts\ndescription: Parts desk.\n---\n# Parts\n\n${LOOKUP}\n${NUMBER}\n`),
      'parts/references/units.md': strToU8(UNITS_REFERENCE),
    });
    await page.getByRole('link', { name: 'Skill' }).click();
    await page.getByLabel('Open skill package', { exact: true }).setInputFiles({ name: 'parts.zip', mimeType: 'application/zip', buffer: Buffer.from(zip) });
    await page.getByRole('region', { name: 'Package files' }).getByText('references/units.md').waitFor();
    await page.getByRole('link', { name: 'Data' }).click();
    await page.getByLabel('Example').selectOption('parts-desk');
    await page.getByRole('button', { name: 'Load example' }).click();
    await page.getByText(/parts-desk\.json/).first().waitFor();
    await page.getByRole('button', { name: 'Use this dataset' }).click();
    await page.getByText(/Training will use/).waitFor();
    // The example brings its starter skill: the package goes back in.
    await page.getByRole('link', { name: 'Skill' }).click();
    await page.getByLabel('Open skill package', { exact: true }).setInputFiles({ name: 'parts.zip', mimeType: 'application/zip', buffer: Buffer.from(zip) });
    await page.getByRole('region', { name: 'Package files' }).getByText('references/units.md').waitFor();
    await page.getByRole('link', { name: 'Train' }).click();
    await (await knob(page, 'References on demand')).check();
    await setKnobs(page, { Epochs: '1', 'Batch size': '12' });
    const run = await trainToCompletion(page);
    await waitForStatus(page, 'Completed');
    // Weight questions need the reference: the optimizer learned to make the agent read it.
    expect(run.state!.gate.bestSkill).toContain(UNITS);
    // The agent read the reference of the version it ran with, through read_file.
    const reads = await page.evaluate(
      (runId) =>
        new Promise<string[]>((resolve) => {
          const open = indexedDB.open('skillwright');
          open.onsuccess = () => {
            const req = open.result.transaction('rollouts').objectStore('rollouts').getAll();
            req.onsuccess = () => {
              const rows = req.result as { runId: string; trajectory?: { kind: string; name?: string; result?: string }[] }[];
              resolve(rows.filter((r) => r.runId === runId).flatMap((r) => (r.trajectory ?? []).filter((e) => e.kind === 'tool' && e.name === 'read_file').map((e) => e.result ?? '')));
              open.result.close();
            };
          };
        }),
      run.id,
    );
    expect(reads.length).toBeGreaterThan(0);
    expect(reads[0]).toBe(UNITS_REFERENCE);
    expect(problems).toEqual([]);
  }, 180_000);
});
