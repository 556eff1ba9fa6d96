// Helpers for driving Skillwright in Chromium.
import type { Locator, Page } from 'playwright-core';

export async function connect(page: Page, url: string, key: string): Promise<void> {
  await page.getByRole('link', { name: 'Connect' }).click();
  await page.getByLabel('Provider').selectOption('custom');
  await page.getByLabel('Target base URL').fill(url);
  await page.getByLabel('Target API key').fill(key);
  await page.getByLabel('Target model').fill('sim-target');
  await page.getByLabel('Optimizer model').fill('sim-optimizer');
}

export async function uploadDataset(page: Page, name: string, text: string): Promise<void> {
  await page.getByRole('link', { name: 'Data' }).click();
  await page.getByLabel('Upload dataset').setInputFiles({ name, mimeType: 'application/json', buffer: Buffer.from(text) });
}

/** Set the split shares and store the dataset. */
export async function useDataset(page: Page, shares: [number, number, number]): Promise<void> {
  await page.getByLabel('Train share').fill(String(shares[0]));
  await page.getByLabel('Validation share').fill(String(shares[1]));
  await page.getByLabel('Test share').fill(String(shares[2]));
  await page.getByText(/\d+ train · \d+ validation/).waitFor();
  await page.waitForTimeout(300); // the last share's inspection
  await page.getByRole('button', { name: 'Use this dataset' }).click();
  await page.getByText(/Training will use/).waitFor();
}

/** A Train setting by its label, its section unfolded first (issue #33: the essentials show, the rest fold). */
export async function knob(page: Page, label: string): Promise<Locator> {
  const field = page.getByLabel(label, { exact: true });
  await field.waitFor({ state: 'attached' }); // the screen loads lazily
  if (!(await field.isVisible())) {
    await page.locator('details.knob-section').filter({ has: field }).locator('summary').click();
    await field.waitFor();
  }
  return field;
}

export async function setKnobs(page: Page, knobs: Record<string, string>): Promise<void> {
  for (const [label, value] of Object.entries(knobs)) await (await knob(page, label)).fill(value);
}

export async function waitForStatus(page: Page, word: RegExp | string, timeout = 120_000): Promise<void> {
  await page.getByRole('status').filter({ hasText: word }).waitFor({ timeout });
}

/**
 * Wait for a status text while the page's frame times are measured. A role locator computes ARIA
 * roles and visibility over the whole page on every DOM change (forced style and layout on the
 * page's own thread, 50–150 ms under load); this reads the status elements' text twice a second.
 */
export async function waitForStatusQuietly(page: Page, word: string, timeout = 120_000): Promise<void> {
  await page.waitForFunction(
    (w) => [...document.querySelectorAll('[role="status"]')].some((e) => e.textContent?.includes(w)),
    word,
    { polling: 500, timeout },
  );
}

/** The stored run records, read straight from the page's IndexedDB. */
export function readRuns(page: Page): Promise<
  {
    id: string;
    name: string;
    status: string;
    updatedAt: number;
    state?: {
      config: { updateMode?: string };
      gate: { bestSkill: string; currentSkill: string; bestScore: number };
      summary?: { tests: { skill: string; hard: number }[]; lift?: { estimate: number } };
      activation?: { description: string; initialDescription: string; epochs: { action: string }[] };
    };
  }[]
> {
  return page.evaluate(
    () =>
      new Promise((resolve, reject) => {
        const open = indexedDB.open('skillwright');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const req = db.transaction('runs').objectStore('runs').getAll();
          req.onsuccess = () => {
            resolve(req.result);
            db.close();
          };
          req.onerror = () => reject(req.error);
        };
      }),
  );
}

/**
 * Start training and wait for the run it made to complete, read from the store: a status line
 * reading "Completed" may still be the previous run's when the new one has not started yet.
 */
export async function trainToCompletion(page: Page, timeout = 180_000): Promise<Awaited<ReturnType<typeof readRuns>>[number]> {
  const before = new Set((await readRuns(page)).map((r) => r.id));
  await page.getByRole('button', { name: 'Start training' }).click();
  const deadline = Date.now() + timeout;
  for (;;) {
    const run = (await readRuns(page)).find((r) => !before.has(r.id));
    if (run?.status === 'completed' && run.state) return run;
    if (Date.now() > deadline) throw new Error(`The new run did not complete (status: ${run?.status ?? 'not created'}).`);
    await page.waitForTimeout(250); // a polling interval: the condition is the stored state
  }
}

export function countStore(page: Page, store: string): Promise<number> {
  return page.evaluate(
    (name) =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open('skillwright');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const req = db.transaction(name).objectStore(name).count();
          req.onsuccess = () => {
            resolve(req.result);
            db.close();
          };
        };
      }),
    store,
  );
}
