// The learning curve (issue #32) in Debian's Chromium: a run on the test server draws one point per
// baseline, step and measured epoch boundary on the Train dashboard and on Runs, switches its x axis
// to cost, reads as a table, and is in the HTML report — screenshots in both themes and at 390 px.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { launchBrowser } from './support/chromium';
import { seriousViolations } from './support/axe';
import { connect, setKnobs, uploadDataset, useDataset, waitForStatus } from './support/app';
import { startLlmServer, type LlmTestServer } from '../support/llm-server';
import { makeWorldItems } from '../support/rule-world';

const appUrl = inject('appUrl');
const skip = inject('e2eSkipReason');
const KNOBS = { Epochs: '2', 'Batch size': '20', 'Minibatch size': '5', 'Merge batch size': '3', 'Target concurrency': '4', 'Optimizer concurrency': '4' };

/** Points the stored run holds: the baseline, each step, each epoch boundary that scored a slow update. */
function storedPointCount(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open('skillwright');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const tx = open.result.transaction(['runs', 'steps'], 'readonly');
          const runs = tx.objectStore('runs').getAll();
          const steps = tx.objectStore('steps').getAll();
          tx.oncomplete = () => {
            const state = (runs.result[0] as { state: { epochStats: { slowUpdate?: { gateScore?: number } }[] } }).state;
            const boundaries = state.epochStats.filter((e) => e.slowUpdate?.gateScore !== undefined).length;
            resolve(1 + steps.result.length + boundaries);
          };
        };
      }),
  );
}

/** The figure's marks: a circle per scored point, a tick per point without a validation score. */
async function drawnPoints(curve: Locator): Promise<number> {
  return (await curve.locator('svg circle').count()) + (await curve.locator('svg line.curve-tick').count());
}

async function shoot(page: Page, curve: Locator, name: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await curve.screenshot({ path: `test-results/${name}-${scheme}.png` });
  }
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), `${name} at 390 px`).toBeLessThanOrEqual(0);
  await curve.scrollIntoViewIfNeeded();
  await curve.screenshot({ path: `test-results/${name}-phone-dark.png` });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: 'light' });
}

describe.skipIf(Boolean(skip))('the learning curve in Chromium', () => {
  let srv: LlmTestServer;
  let ctx: BrowserContext;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    mkdirSync('test-results', { recursive: true });
    srv = await startLlmServer({ latencyMs: 5 });
    ctx = await launchBrowser();
    page = await ctx.newPage();
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    await page.goto(appUrl);
  });

  afterAll(async () => {
    await ctx?.close();
    await srv?.close();
  });

  it('draws a point per baseline, step and measured boundary, live and on Runs, and in the report', async () => {
    await connect(page, srv.url, 'sk-e2e-key');
    await page.getByText('Options: sampling, limits, prices').click();
    for (const label of ['Target input price (USD / 1M tokens)', 'Optimizer input price (USD / 1M tokens)'])
      await page.getByLabel(label).fill('2');
    for (const label of ['Target output price (USD / 1M tokens)', 'Optimizer output price (USD / 1M tokens)'])
      await page.getByLabel(label).fill('8');
    await uploadDataset(page, 'world.json', JSON.stringify(makeWorldItems(100)));
    await useDataset(page, [2, 1, 2]);
    await page.getByRole('link', { name: 'Train' }).click();
    await setKnobs(page, KNOBS);
    await page.getByRole('button', { name: 'Start training' }).click();

    // Live: the baseline's point comes before any step's.
    const live = page.locator('section.dashboard figure.learning-curve');
    await live.locator('svg circle').first().waitFor({ timeout: 60_000 });
    await waitForStatus(page, 'Completed');
    const expected = await storedPointCount(page);
    expect(expected).toBe(1 + 4 + 1); // 2 epochs of 2 steps; the second boundary scores its slow update
    expect(await drawnPoints(live)).toBe(expected);
    await live.getByText('The curve as a table').click();
    expect(await live.locator('tbody tr').count()).toBe(expected);
    const liveTable = await live.locator('tbody').innerText();
    expect(await live.locator('tbody tr').first().innerText()).toMatch(/^Baseline\t\d+\t\$0\.\d{4}\t0\.\d{3}\t0\.\d\d–[01]\.\d\d\tstart\t0\.\d{3}$/);
    await live.locator('details').screenshot({ path: 'test-results/curve-train-table-light.png' });
    await live.getByText('The curve as a table').click(); // folded again for the screenshots
    // Accessible: a described image, labelled axes, an x axis to choose.
    const described = await live.locator('svg').getAttribute('aria-labelledby');
    const summary = await page.locator(`[id="${described}"]`).innerText();
    expect(summary).toMatch(/^6 points, \d+ kept\. Validation 0\.\d{3} at \d+ target calls; best/);
    // The dashboard's best is the run's, an epoch boundary's slow update included (it is no step).
    const bestStat = await page.locator('section.dashboard .stats > div', { hasText: 'best' }).locator('.stat').innerText();
    expect(summary).toContain(`best ${bestStat}`);
    expect(await live.locator('svg text').allTextContents()).toEqual(expect.arrayContaining(['Training target calls', 'Validation score']));
    const calls = await live.locator('svg text').allTextContents();
    await live.getByRole('button', { name: 'Cost' }).click();
    expect(await live.getByRole('button', { name: 'Cost' }).getAttribute('aria-pressed')).toBe('true');
    expect(await live.locator('svg text').allTextContents()).toEqual(expect.arrayContaining(['Cost so far (USD)']));
    expect(await live.locator('svg text').allTextContents()).not.toEqual(calls);
    expect(await drawnPoints(live)).toBe(expected);
    await live.getByRole('button', { name: 'Target calls' }).click();
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, live, 'curve-train');
    await page.locator('section.dashboard').screenshot({ path: 'test-results/curve-train-dashboard-light.png' });

    // The Runs screen draws the same curve from the stored records.
    await page.getByRole('link', { name: 'Runs' }).click();
    const stored = page.locator('.run-detail figure.learning-curve');
    await stored.waitFor();
    expect(await drawnPoints(stored)).toBe(expected);
    await stored.getByText('The curve as a table').click();
    expect(await stored.locator('tbody').innerText()).toBe(liveTable);
    await stored.getByText('The curve as a table').click();
    await shoot(page, stored, 'curve-runs');

    // The HTML report: the same points, inline, with no script.
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export report' }).click();
    const reportPath = join(process.cwd(), 'test-results', 'curve-report.html');
    await (await download).saveAs(reportPath);
    const html = readFileSync(reportPath, 'utf8');
    expect(html).not.toMatch(/<script/i);
    const report = await ctx.newPage();
    await report.goto(`file://${reportPath}`);
    await report.getByRole('heading', { name: 'Learning curve' }).waitFor();
    const svg = report.locator('svg[aria-label^="Learning curve"]');
    expect((await svg.locator('circle').count()) + (await svg.locator('line.tick').count())).toBe(expected);
    await report.locator('details', { hasText: 'The curve as a table' }).locator('summary').click();
    await report.getByRole('heading', { name: 'Learning curve' }).scrollIntoViewIfNeeded();
    await report.screenshot({ path: 'test-results/curve-report-light.png' });
    await report.emulateMedia({ colorScheme: 'dark' });
    await report.screenshot({ path: 'test-results/curve-report-dark.png' });
    await report.setViewportSize({ width: 390, height: 844 });
    await report.getByRole('heading', { name: 'Learning curve' }).scrollIntoViewIfNeeded();
    await report.screenshot({ path: 'test-results/curve-report-phone-dark.png' });
    await report.close();
    expect(problems).toEqual([]);
  }, 240_000);
});
