import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { mkdirSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { launchBrowser } from './support/chromium';

const appUrl = inject('appUrl');
const skip = inject('e2eSkipReason');

describe.skipIf(Boolean(skip))('application shell in Chromium', () => {
  let ctx: BrowserContext;
  let page: Page;
  const consoleProblems: string[] = [];
  const foreignRequests: string[] = [];

  beforeAll(async () => {
    mkdirSync('test-results', { recursive: true });
    ctx = await launchBrowser();
    page = await ctx.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') consoleProblems.push(m.text());
    });
    page.on('pageerror', (e) => consoleProblems.push(e.message));
    page.on('request', (r) => {
      if (!r.url().startsWith(appUrl) && !r.url().startsWith('data:')) foreignRequests.push(r.url());
    });
    await page.goto(appUrl);
  });
  afterAll(async () => ctx?.close());

  it('shows the header, the run status and the five sections', async () => {
    await expect(page.getByText('Skillwright', { exact: true }).isVisible()).resolves.toBe(true);
    await expect(page.getByRole('status').textContent()).resolves.toContain('Idle');
    for (const name of ['Connect', 'Data', 'Skill', 'Train', 'Runs']) {
      await expect(page.getByRole('link', { name }).count()).resolves.toBe(1);
    }
    await page.getByRole('heading', { level: 1, name: 'Connect your endpoint' }).waitFor({ timeout: 5000 });
    await page.screenshot({ path: 'test-results/shell-connect-light.png' });
  });

  it('navigates between sections with links and the keyboard', async () => {
    await page.getByRole('link', { name: 'Data' }).click();
    await page.getByRole('heading', { level: 1, name: 'Load a dataset' }).waitFor({ timeout: 5000 });
    expect(page.url()).toMatch(/#\/data$/);
    await expect(page.getByRole('link', { name: 'Data' }).getAttribute('aria-current')).resolves.toBe('page');
    await page.getByRole('link', { name: 'Runs' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Runs and skill versions' }).waitFor({ timeout: 5000 });
  });

  it('opens the section named in the address', async () => {
    await page.goto(`${appUrl}#/train`);
    await page.getByRole('heading', { level: 1, name: 'Train the skill' }).waitFor({ timeout: 5000 });
  });

  it('follows a dark system theme and stays readable on a phone', async () => {
    const dark = await launchBrowser({ colorScheme: 'dark', viewport: { width: 390, height: 800 } });
    try {
      const p = await dark.newPage();
      await p.goto(`${appUrl}#/skill`);
      const bg = await p.evaluate(() => getComputedStyle(document.body.parentElement!).backgroundColor);
      expect(bg).toBe('rgb(18, 20, 23)');
      const overflow = await p.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await p.screenshot({ path: 'test-results/shell-skill-dark-phone.png' });
    } finally {
      await dark.close();
    }
  });

  it('has a Content-Security-Policy, no console errors and no requests to other hosts', async () => {
    const csp = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
    expect(csp).toContain("script-src 'self'");
    expect(consoleProblems).toEqual([]);
    expect(foreignRequests).toEqual([]);
  });
});
