// The Train screen's sticky actions bar never covers the setting the page brings into view: a
// problem's link opens the setting's folded section and focuses it above the bar, at 1280 px and at
// 390 px (where the bar, with the problem's message, is several lines tall); a knob focused from the
// keyboard stops above the bar too. Screenshots in both themes and at 390 px.
import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { appSession, skip } from './support/session';
import { knob } from './support/app';
import { shootThemes } from './support/shots';

/** How far the bar covers the focused element (0: not at all), and whether the element is the knob's control. */
async function coverage(page: Page, control: Locator): Promise<{ covered: number; focused: boolean }> {
  const focused = await control.evaluate((el) => el === document.activeElement);
  const covered = await page.evaluate(() => {
    const el = document.activeElement!.getBoundingClientRect();
    const bar = document.querySelector('.sticky-actions')!.getBoundingClientRect();
    return Math.max(0, el.bottom - bar.top);
  });
  return { covered, focused };
}

describe.skipIf(Boolean(skip))('the Train screen leaves room for its sticky actions bar', () => {
  const s = appSession(() => [], { quiet: true });

  it('brings a problem’s setting into view above the bar, and a knob focused from the keyboard', async () => {
    const { page } = s;
    await page.getByRole('link', { name: 'Train' }).click();
    // A setting out of range in the last folded section, at the bottom of the page.
    const rate = await knob(page, 'Maximum error rate');
    await rate.fill('2');
    const section = page.locator('details.knob-section').filter({ has: rate });
    await section.locator('summary').click(); // folded again: the link must open it
    expect(await rate.isVisible()).toBe(false);
    const link = page.getByRole('button', { name: '(show Maximum error rate)' });
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: width > 800 ? 800 : 844 });
      await page.evaluate(() => window.scrollTo(0, 0));
      await link.click();
      expect(await section.getAttribute('open')).not.toBeNull();
      expect(await coverage(page, rate), `at ${width} px`).toEqual({ covered: 0, focused: true });
      // Folded once more for the next width.
      await section.locator('summary').click();
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    await link.click();
    await shootThemes(page, page.locator('details.knob-section[open]').last(), 'train-show-setting');
    expect(await coverage(page, rate)).toEqual({ covered: 0, focused: true });

    // The keyboard: on a short window, a knob under the bar at the page's top, focused as a Tab would
    // focus it (the browser scrolls it out from under the bar).
    await page.setViewportSize({ width: 1280, height: 520 });
    await page.evaluate(() => window.scrollTo(0, 0));
    const found = await page.evaluate(() => {
      const bar = document.querySelector('.sticky-actions')!.getBoundingClientRect();
      const controls = [...document.querySelectorAll<HTMLInputElement>('[data-knob] input, [data-knob] select')];
      const under = controls.find((el) => {
        const r = el.getBoundingClientRect();
        return !el.disabled && el.checkVisibility() && r.bottom > bar.top && r.top < window.innerHeight;
      });
      under?.setAttribute('data-under-bar', '');
      return Boolean(under);
    });
    expect(found, 'a knob under the bar at the top of the page').toBe(true);
    const under = page.locator('[data-under-bar]');
    await under.evaluate((el) => el.focus());
    expect(await coverage(page, under)).toEqual({ covered: 0, focused: true });
  }, 60_000);
});
