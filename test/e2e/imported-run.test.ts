// Runs that arrive as someone else's bundle (issue #39), in Chromium: figures a crafted bundle filled
// with text are refused at import or left out of the learning curve, and a run that still cannot be
// shown is a message with "Delete this run" — the app stays usable (finding M7). The code a bundle
// carries is named and runs only after the person read it and chose "Run this module" (H2); the MCP
// servers it asks for are shown, and binding takes the person's own settings for them (H3).
import { readFileSync } from 'node:fs';
import { contentId } from '../../src/core/basics/hash';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { appSession, demoRun, skip } from './support/session';
import { readRuns } from './support/app';
import { shootThemes } from './support/shots';

type Bundle = {
  run: {
    id: string;
    name: string;
    status: string;
    state: Record<string, unknown> & { baselineMark?: { spend: Record<string, unknown> } };
    environment?: unknown;
  };
  steps: Record<string, unknown>[];
};

/** Import a bundle file on the Runs screen. */
async function importBundle(page: Page, name: string, bundle: unknown): Promise<void> {
  await page.getByRole('link', { name: 'Runs' }).click();
  await page.getByLabel('Import run file').setInputFiles({ name, mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(bundle)) });
}

/** The page shows its navigation and a heading: it did not go blank. */
async function usable(page: Page): Promise<void> {
  for (const link of ['Connect', 'Data', 'Skill', 'Train', 'Runs']) expect(await page.getByRole('link', { name: link }).isVisible()).toBe(true);
  expect((await page.locator('main').innerText()).length).toBeGreaterThan(100);
}

describe.skipIf(Boolean(skip))('runs imported from someone else’s bundle, in Chromium', () => {
  const session = appSession(() => [], { start: demoRun });
  let page: Page;
  /** The demo run, exported: the bundles below are crafted from it. */
  let exported: Bundle;
  const crafted = (change: (b: Bundle) => void): Bundle => {
    const b = structuredClone(exported);
    b.run.id = `${b.run.id}-${Math.random().toString(36).slice(2, 8)}`;
    for (const s of b.steps) s.runId = b.run.id;
    change(b);
    return b;
  };

  beforeAll(async () => {
    page = session.page;
    page.on('dialog', (d) => void d.accept());
    await page.getByRole('link', { name: 'Runs' }).click();
    await page.getByRole('button', { name: 'Export run' }).waitFor();
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export run' }).click();
    exported = JSON.parse(readFileSync(await (await download).path(), 'utf8')) as Bundle;
    // Rows that name their run are re-pointed when crafted; the others must not name it.
    for (const k of ['skills', 'rollouts', 'calls', 'artifacts'] as const) (exported as unknown as Record<string, unknown[]>)[k] = [];
  });

  it('refuses step figures that are not numbers, naming the field; the app stays usable', async () => {
    const markup = '<img src=x onerror=alert(1)>';
    await importBundle(page, 'figures.json', crafted((b) => {
      b.steps[0].candidateGateScore = markup;
      b.steps[0].spend = { targetCalls: 1, costUsd: markup };
    }));
    await page.getByRole('alert').filter({ hasText: /figures\.json was not imported: .*steps\.0\.candidateGateScore/ }).waitFor();
    await usable(page);
  });

  it('leaves a learning-curve point that is not made of numbers out of the curve', async () => {
    const runs = (await readRuns(page)).length;
    await importBundle(page, 'curve.json', crafted((b) => {
      b.run.name = 'poisoned curve';
      b.run.state.baselineMark!.spend.costUsd = '<b>free</b>';
    }));
    await page.getByText('Run imported.').waitFor();
    expect(await readRuns(page)).toHaveLength(runs + 1);
    const curve = page.getByRole('figure', { name: 'Learning curve' });
    await curve.waitFor();
    // Every step is drawn (the table, folded, holds every point); the baseline, whose spend is text, is not.
    const table = (await curve.textContent()) ?? '';
    expect(table).not.toMatch(/Baseline/);
    expect(table).toMatch(/Step 1/);
    await usable(page);
    await page.reload();
    await page.getByRole('figure', { name: 'Learning curve' }).waitFor();
    await usable(page);
  });

  it('shows the lift under each target of a runner’s run that confirmed its skills, the flip first (issue #42 item 5)', async () => {
    const lift = (measured: number, interval: [number, number]) => ({
      against: 'initial',
      measured,
      estimate: measured,
      interval,
      level: 0.95,
      n: 12,
      uncertain: false,
      noise: { miss: 0, guess: 0, flipRate: 0, repeatedSamples: 8 },
      repeats: 1,
    });
    const tests = (initial: number, best: number) => [
      { skill: 'initial', hard: initial, n: 12 },
      { skill: 'best', hard: best, n: 12 },
    ];
    await importBundle(page, 'transfer.json', crafted((b) => {
      b.run.name = 'confirmed elsewhere';
      b.run.state.summary = {
        ...(b.run.state.summary as object),
        transfer: {
          targets: [
            { label: 'simulated-target', trained: true, tests: tests(0.25, 0.75), lift: lift(0.5, [0.3, 0.7]) },
            { label: 'sim-contrarian', trained: false, tests: tests(1, 0.25), lift: lift(-0.75, [-1, -0.5]) },
            { label: '<img src=x onerror=alert(1)>', trained: false, tests: [], lift: { ...lift(0, [0, 0]), measured: '<b>x</b>' } },
          ],
          verdict: { flipped: false, words: 'stored words are not shown' },
        },
      };
    }));
    await page.getByText('Run imported.').waitFor();
    const lines = page.getByRole('list', { name: 'Lift under each target' });
    await lines.waitFor();
    expect(await lines.innerText()).toMatch(
      /Under simulated-target \(trained on\): \+50\.0 points, 95% interval \+30\.0 points to \+70\.0 points\s*a real gain\s*Under sim-contrarian: −75\.0 points, 95% interval −100\.0 points to −50\.0 points\s*a real loss/,
    );
    // What is not made of numbers is left out; the verdict is made from the numbers, not taken from the file.
    expect(await lines.innerText()).not.toContain('img');
    const note = page.getByRole('note', { name: 'Transfer' });
    expect(await note.innerText()).toContain('Ranking flip: the best skill scores below the starting skill on sim-contrarian');
    expect(await page.getByText('stored words are not shown').count()).toBe(0);
    await usable(page);
    await shootThemes(page, lines, 'runs-transfer');
  });

  it('shows a run that cannot be shown as a message with "Delete this run", and the other runs stay', async () => {
    await importBundle(page, 'broken.json', crafted((b) => {
      b.run.name = 'cannot be shown';
      b.run.state.epochStats = 'not a list';
      b.run.state.summary = { ...(b.run.state.summary as object), totalCostUsd: '<b>free</b>' };
    }));
    await page.getByText('Run imported.').waitFor();
    // The runs list shows no figure it cannot read.
    expect(await page.getByRole('row', { name: /cannot be shown/ }).innerText()).toMatch(/\t—\t/);
    const alert = page.getByRole('alert').filter({ hasText: 'This run could not be shown.' });
    await alert.waitFor();
    await usable(page);
    await shootThemes(page, alert, 'runs-cannot-show');
    // The list still lists every run, and another run opens.
    await page.getByRole('button', { name: 'poisoned curve' }).click();
    await page.getByRole('figure', { name: 'Learning curve' }).waitFor();
    await page.getByRole('button', { name: 'cannot be shown' }).click();
    await alert.waitFor();
    const before = (await readRuns(page)).length;
    await alert.getByRole('button', { name: 'Delete this run' }).click();
    await expect.poll(async () => (await readRuns(page)).length).toBe(before - 1);
    expect((await readRuns(page)).map((r) => r.name)).not.toContain('cannot be shown');
    await page.getByRole('button', { name: 'poisoned curve' }).waitFor();
    await usable(page);
  });

  it('names the code a run carries, shows its source, and runs it only after "Run this module"', async () => {
    const source = `// A module someone sent.\nthrow new Error('the bundled module ran');\nexport default {};\n`;
    await importBundle(page, 'with-code.json', crafted((b) => {
      b.run.name = 'carries code';
      b.run.status = 'paused';
      b.run.state.status = 'paused';
      b.run.environment = { module: { name: 'catalogue', fileName: 'catalogue.mjs', source, hash: contentId(source) } };
    }));
    await page.getByText('Run imported.').waitFor();
    const code = page.getByRole('note', { name: 'Code in this run' });
    await code.waitFor();
    expect(await code.innerText()).toContain(
      `This run carries code: the environment module catalogue (catalogue.mjs, ${source.length} bytes, hash ${contentId(source)}). It came with the file and has not run in this browser.`,
    );
    await page.getByRole('button', { name: 'Use my connection for this run' }).click();
    await page.getByText(/This run now uses your connection/).waitFor();
    // Bound, it still does not resume: the module has not been read and chosen.
    expect(await page.getByRole('button', { name: /^Resume/ }).count()).toBe(0);
    await code.getByRole('button', { name: 'Read the module' }).click();
    expect(await code.getByLabel('Source of catalogue.mjs').textContent()).toBe(source);
    await shootThemes(page, code, 'runs-module-consent');
    await code.getByRole('button', { name: 'Run this module' }).click();
    await page.getByText('catalogue.mjs will run in this page’s sandbox when the run resumes.').waitFor();
    await expect.poll(() => code.count(), { timeout: 15_000 }).toBe(0);
    // Now it runs: this one throws as it loads, and the run pauses saying so, having run nothing.
    await page.getByRole('button', { name: /^Resume/ }).click();
    await page.getByRole('alert').filter({ hasText: /^environment module catalogue\.mjs failed: loading it threw: the bundled module ran\. Nothing was run/ }).waitFor();
    await usable(page);
  });

  it('shows the MCP servers a run’s file asked for, and binds only to the person’s own settings for them', async () => {
    const url = 'http://127.0.0.1:9/mcp';
    await importBundle(page, 'with-mcp.json', crafted((b) => {
      b.run.name = 'calls MCP';
      b.run.environment = { mcp: { servers: [{ url, name: 'shop' }, { url: 'http://127.0.0.1:9/other', name: 'desk', tools: ['price'] }], toolConcurrency: 2, timeoutSeconds: 5 } };
    }));
    await page.getByText('Run imported.').waitFor();
    const servers = page.getByLabel('MCP servers of this run');
    await servers.waitFor();
    const said = await servers.innerText();
    expect(said).toContain(`shop (${url}): the file asked for every tool it lists; yours: not among your MCP servers`);
    expect(said).toContain('desk (http://127.0.0.1:9/other): the file asked for price; yours: not among your MCP servers');
    await shootThemes(page, page.getByRole('note').filter({ has: servers }), 'runs-imported-mcp');
    await page.getByRole('button', { name: 'Use my connection for this run' }).click();
    await page.getByRole('alert').filter({ hasText: `This run's agent calls MCP servers your settings do not name (${url}, http://127.0.0.1:9/other)` }).waitFor();
    expect(await page.getByRole('button', { name: 'Use my connection for this run' }).isVisible()).toBe(true);
  });
});
