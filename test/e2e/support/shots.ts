// Screenshots of one part of a screen as a person sees it: light and dark at 1280 px, and dark at
// 390 px with nothing wider than the phone (the check fails the test).
import { expect } from 'vitest';
import type { Locator, Page } from 'playwright-core';

export async function shootThemes(page: Page, part: Locator, name: string): Promise<void> {
  await part.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `test-results/${name}-light.png` });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.screenshot({ path: `test-results/${name}-dark.png` });
  await page.setViewportSize({ width: 390, height: 844 });
  await part.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `test-results/${name}-phone-dark.png` });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: 'light' });
}
