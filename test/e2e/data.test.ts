// The Data screen in Chromium: a bad dataset's every problem named, and a bundled example.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startLlmServer, type LlmTestServer } from '../support/llm-server';
import { countStore, uploadDataset } from './support/app';
import { shootThemes } from './support/shots';
import { appSession, skip, chooseWorld } from './support/session';

describe.skipIf(Boolean(skip))('datasets in Chromium', () => {
  let srv: LlmTestServer;
  const app = appSession(() => [srv], { quiet: true });
  let page: Page;
  beforeAll(() => {
    ({ page } = app);
  });

  beforeAll(async () => {
    srv = await startLlmServer({ latencyMs: 20 });
    // A dataset already stored and chosen, as a user has when a bad file comes along.
    await chooseWorld(page, srv);
  });
  afterAll(async () => {
    await srv?.close();
  });

  it('lists every problem of a bad dataset and stores nothing', async () => {
    const before = await countStore(page, 'datasets');
    const bad = JSON.stringify([{ question: 'fine', answer: 'yes' }, { question: '', answer: 'x' }, { id: 7, question: 'no answer' }, { question: 'dup', answer: 'a', id: 'd' }, { question: 'dup2', answer: 'b', id: 'd' }]);
    await uploadDataset(page, 'bad.json', bad);
    const alert = page.getByRole('alert').filter({ hasText: 'bad.json was not loaded' });
    await alert.waitFor();
    const text = await alert.innerText();
    expect(text).toContain('Row 2, field "question": the question is missing or empty');
    expect(text).toContain('Row 3, field "answer": the expected answer is missing');
    expect(text).toContain('Row 5, field "id": duplicate id "d" (also used by row 4)');
    expect(text).toContain('Nothing was stored');
    expect(await page.getByRole('button', { name: 'Use this dataset' }).count()).toBe(0);
    expect(await countStore(page, 'datasets')).toBe(before);
    await page.screenshot({ path: 'test-results/data-errors-light.png', fullPage: true });
  });

  it('says that workspace tasks need the headless runner, instead of scoring them here (issue #42 item 4)', async () => {
    const rows = ['ada', 'bob', 'cy'].map((id) => ({ id, question: `Make ${id}'s greeting test pass.`, workspace: 'tasks/greet', check: `node check.mjs ${id}` }));
    await uploadDataset(page, 'workspace-tasks.json', JSON.stringify(rows));
    const warning = page.getByText(/3 item\(s\) carry a workspace or a check command: only the headless runner \(skillwright\) with an agent CLI target can run them/);
    await warning.waitFor();
    await shootThemes(page, warning, 'data-workspace-tasks');
  });

  it('loads a bundled example with its starter skill', async () => {
    await page.getByRole('link', { name: 'Data' }).click();
    await page.getByLabel('Example').selectOption('capitals');
    await page.getByRole('button', { name: 'Load example' }).click();
    await page.getByText(/capitals-mcq\.json/).first().waitFor();
    await page.getByText(/\d+ train · \d+ validation · \d+ test/).waitFor();
    expect(await page.getByLabel('Scorer').inputValue()).toBe('mcq');
  });
});
