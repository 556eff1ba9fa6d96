// Every screen at once in Chromium: both themes and a phone's width, an accessibility scan, and the
// size of the JavaScript the page loads first.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { startLlmServer, type LlmTestServer } from '../support/llm-server';
import { seriousViolations } from './support/axe';
import { waitForStatus } from './support/app';
import { appSession, appUrl, demoRun, distDir, recordFigures, skip, chooseWorld } from './support/session';

describe.skipIf(Boolean(skip))('every screen in Chromium', () => {
  let srv: LlmTestServer;
  const app = appSession(() => [srv], { quiet: true });
  let page: Page;
  const { consoleProblems, foreign } = app;
  beforeAll(() => {
    ({ page } = app);
  });

  const figures: Record<string, unknown> = {};
  beforeAll(async () => {
    srv = await startLlmServer({ latencyMs: 20 });
    // A run trained on the test server: every screen has something to show.
    await chooseWorld(page, srv);
    await page.getByRole('button', { name: 'Start training' }).click();
    await waitForStatus(page, 'Completed');
  });
  afterAll(async () => {
    recordFigures(figures);
    await srv?.close();
  });

  it('every screen in light and dark, readable on a phone, no console errors, no other hosts', async () => {
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const section of ['connect', 'data', 'skill', 'train', 'runs']) {
        await page.goto(`${appUrl}#/${section}`);
        await page.getByRole('heading', { level: 1 }).waitFor();
        await page.waitForTimeout(section === 'skill' ? 1500 : 300);
        await page.screenshot({ path: `test-results/${section}-${scheme}.png`, fullPage: true });
      }
    }
    await page.setViewportSize({ width: 390, height: 844 });
    for (const section of ['connect', 'data', 'skill', 'train', 'runs']) {
      await page.goto(`${appUrl}#/${section}`);
      await page.getByRole('heading', { level: 1 }).waitFor();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, section).toBeLessThanOrEqual(0);
    }
    await page.screenshot({ path: 'test-results/runs-phone-dark.png', fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(consoleProblems).toEqual([]);
    expect(foreign).toEqual([]);
  }, 120_000);

  it('records the initial JavaScript size of the build', () => {
    const html = readFileSync(join(distDir, 'index.html'), 'utf8');
    const scripts = [...html.matchAll(/(?:src|href)="\.\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]);
    const gzip = scripts.reduce((a, f) => a + gzipSync(readFileSync(join(distDir, f)), { level: 9 }).length, 0);
    figures.initialJsFiles = scripts;
    figures.initialJsGzipBytes = gzip;
    figures.distJsFiles = readdirSync(join(distDir, 'assets')).filter((f) => f.endsWith('.js')).length;
    expect(gzip).toBeLessThan(150 * 1024);
  });
});

describe.skipIf(Boolean(skip))('accessibility after a run in the zero-key demo', () => {
  const app = appSession(() => [], { start: demoRun });
  let page: Page;
  beforeAll(() => {
    ({ page } = app);
  });

  it('every screen passes an accessibility scan in both themes after a run: no serious or critical violation (issue #33)', async () => {
    const found: string[] = [];
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const section of ['Connect', 'Data', 'Skill', 'Train', 'Runs']) {
        await page.getByRole('link', { name: section }).click();
        await page.getByRole('heading', { level: 1 }).waitFor();
        if (section === 'Train') {
          // Every folded part of Train opened: its settings are scanned too.
          const folded = page.locator('details:not([open]) > summary');
          while (await folded.count()) await folded.first().click();
        }
        if (section === 'Runs') await page.getByText('Test report').waitFor();
        found.push(...(await seriousViolations(page)).map((v) => `${section}, ${scheme}: ${v}`));
      }
    }
    await page.emulateMedia({ colorScheme: 'light' });
    expect(found).toEqual([]);
  }, 120_000);
});
