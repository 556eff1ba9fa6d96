// The Connect screen in Chromium: what a failed connection test says, what each model accepts and
// its price, keys remembered only on request, and the zero-key demo setting the user's own drafts
// and keys aside.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { startLlmServer, type LlmTestServer } from '../support/llm-server';
import { launchBrowser } from './support/chromium';
import { connect, countStore } from './support/app';
import { appSession, appUrl, skip, startDemo } from './support/session';
import { shootThemes } from './support/shots';
import { seriousViolations } from './support/axe';

describe.skipIf(Boolean(skip))('connection diagnoses in Chromium', () => {
  let ctx: BrowserContext;
  let page: Page;
  let guarded: LlmTestServer;
  let noCors: LlmTestServer;
  let strictProxy: LlmTestServer;
  beforeAll(async () => {
    guarded = await startLlmServer({ apiKey: 'the-right-key' });
    noCors = await startLlmServer({ cors: 'none' });
    strictProxy = await startLlmServer({ cors: 'basic' });
    ctx = await launchBrowser();
    page = await ctx.newPage();
    await page.goto(appUrl);
  });
  afterAll(async () => {
    await ctx?.close();
    await guarded?.close();
    await noCors?.close();
    await strictProxy?.close();
  });

  it('says the key was rejected', async () => {
    await connect(page, guarded.url, 'sk-wrong-key');
    await page.getByRole('button', { name: 'Test connection' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'Connection test failed' });
    await alert.waitFor();
    expect(await alert.innerText()).toMatch(/target API key was rejected \(401\)/);
    await page.screenshot({ path: 'test-results/connect-error-light.png', fullPage: true });
  });

  it('says CORS blocks a server that does not allow this page, and what to change', async () => {
    await connect(page, noCors.url, 'sk-any');
    await page.getByRole('button', { name: 'Test connection' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'Connection test failed' });
    await alert.waitFor();
    const text = await alert.innerText();
    expect(text).toMatch(/does not allow requests from this page \(CORS\)/);
    expect(text).toMatch(/Access-Control-Allow-Origin/);
  });

  it('tests a separate judge endpoint with its own key', async () => {
    await connect(page, guarded.url, 'the-right-key');
    await page.getByLabel('Separate judge endpoint').check();
    await page.getByLabel('Judge base URL').fill(guarded.url);
    await page.getByLabel('Judge API key').fill('the-right-key');
    await page.getByLabel('Judge model').fill('sim-optimizer');
    await page.getByRole('button', { name: 'Test connection' }).click();
    const ok = page.getByText(/connected\.$/);
    await ok.waitFor();
    // The roles that answer in JSON say which structured output their endpoint keeps to (issue #23).
    const line = await ok.innerText();
    expect(line).toMatch(/^Target sim-target: \d+ ms · /);
    expect(line).toMatch(/ · Optimizer sim-optimizer: \d+ ms \(structured output: json schema\) · /);
    expect(line).toMatch(/ · Judge sim-optimizer: \d+ ms \(structured output: json schema\) — connected\.$/);
    await ok.screenshot({ path: 'test-results/connect-structured-output.png' });
    await page.getByLabel('Separate judge endpoint').uncheck();
  });

  it('finds a CORS preflight that refuses the SDK headers, and connects with minimal headers', async () => {
    await connect(page, strictProxy.url, 'sk-any');
    await page.getByRole('button', { name: 'Test connection' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'Connection test failed' });
    await alert.waitFor();
    expect(await alert.innerText()).toMatch(/refuses the extra x-stainless-\* headers the OpenAI SDK sends.*Tick “Minimal headers”/);
    await page.screenshot({ path: 'test-results/connect-doctor-light.png', fullPage: true });
    await page.getByText('Options: sampling, limits, prices').click();
    await page.getByLabel('Minimal headers').check();
    await page.getByRole('button', { name: 'Test connection' }).click();
    await page.getByText(/connected\.$/).waitFor();
    await page.getByLabel('Minimal headers').uncheck();
  });

  it('says nothing answers at an address where no server listens', async () => {
    const closed = await startLlmServer({});
    const url = closed.url;
    await closed.close();
    await connect(page, url, 'sk-any');
    await page.getByRole('button', { name: 'Test connection' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'Connection test failed' });
    await alert.waitFor();
    expect(await alert.innerText()).toMatch(/Nothing answers at 127\.0\.0\.1:\d+\. Is the local server running/);
  });
});

describe.skipIf(Boolean(skip))('what the models accept and what they cost, on Connect in Chromium (issue #44)', () => {
  let srv: LlmTestServer;
  const app = appSession(() => [srv], { quiet: true });
  let page: Page;
  const connection = () =>
    page.evaluate(() => JSON.parse(localStorage.getItem('skillwright-ui')!).state.connection as Record<string, { reasoningEffort?: string; capabilities?: Record<string, unknown> }>);
  const effortChoices = (role: string) =>
    page.getByLabel(`${role} reasoning effort`).evaluate((s) => [...(s as HTMLSelectElement).options].map((o) => o.value));
  beforeAll(async () => {
    // A model that reasons by default, as OpenAI's cheap one does: no temperature, efforts none…xhigh,
    // function tools on Chat Completions only with effort none.
    srv = await startLlmServer({ efforts: ['none', 'low', 'medium', 'high', 'xhigh'], toolsOnlyWithEffortNone: true, rejectsTemperature: true });
    ({ page } = app);
  });
  afterAll(async () => {
    await srv?.close();
  });

  it('Test connection names what each model accepts, keeps it, and offers only the efforts found; a chosen effort stays', async () => {
    await connect(page, srv.url, 'sk-e2e-key');
    await page.getByText('Options: sampling, limits, prices').click();
    // Before any test every effort is offered; the person chooses one the model will turn out not to take.
    expect(await effortChoices('Target')).toEqual(['', 'none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max']);
    await page.getByLabel('Target reasoning effort').selectOption('minimal');
    expect(await page.getByRole('region', { name: 'What the models accept' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Test connection' }).click();
    await page.getByText(/connected\.$/).waitFor();
    const found = page.getByRole('region', { name: 'What the models accept' });
    await found.waitFor();
    const text = await found.innerText();
    expect(text).toMatch(/Target · sim-target — tested \d{4}-\d\d-\d\d/);
    expect(text).toContain('temperature: refused (the model’s default is used)');
    expect(text).toContain('reasoning efforts: none, low, medium, high, xhigh');
    expect(text).toContain('function tools: only with reasoning effort none (agent turns are sent so)');
    expect(text).toContain('parallel_tool_calls: accepted');
    expect(text).toMatch(/Optimizer · sim-optimizer[^]*structured output: json_schema/);
    // Kept with the connection, where a run's requests are built from it.
    const kept = await connection();
    expect(kept.target.capabilities).toMatchObject({ baseURL: srv.url, model: 'sim-target', temperature: false, toolEfforts: ['none'] });
    expect(kept.optimizer.capabilities).toMatchObject({ model: 'sim-optimizer', jsonMode: 'json_schema' });
    // Only the efforts found are offered; the one chosen is not overwritten, and the hint says what is sent.
    expect(await effortChoices('Optimizer')).toEqual(['', 'none', 'low', 'medium', 'high', 'xhigh']);
    expect(await effortChoices('Target')).toEqual(['', 'none', 'low', 'medium', 'high', 'xhigh', 'minimal']);
    expect(kept.target.reasoningEffort).toBe('minimal');
    await page.getByText('The model does not accept minimal: low is sent.').waitFor();
    await shootThemes(page, found, 'connect-capabilities');
    // The findings, the effort hints and the price notes pass an accessibility scan in both themes.
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      expect(await seriousViolations(page), scheme).toEqual([]);
    }
    await page.emulateMedia({ colorScheme: 'light' });
    await page.getByLabel('Target reasoning effort').selectOption('');
    // After a reload the findings are still there; another model's are not shown as this one's.
    await page.reload();
    await page.getByRole('region', { name: 'What the models accept' }).waitFor();
    await page.getByLabel('Target model').fill('sim-other');
    await expect.poll(() => page.getByRole('region', { name: 'What the models accept' }).innerText()).not.toContain('Target ·');
    await page.getByLabel('Target model').fill('sim-target');
    await expect.poll(() => page.getByRole('region', { name: 'What the models accept' }).innerText()).toContain('Target · sim-target');
  });

  it('a model with no known price asks for one; a listed price says when it was checked; a retiring model is marked', async () => {
    await page.getByRole('link', { name: 'Connect' }).click();
    const options = page.locator('details.options');
    if (!(await options.getAttribute('open'))) await page.getByText('Options: sampling, limits, prices').click();
    const note = page.getByTestId('price-note-target');
    expect(await note.innerText()).toMatch(/no list price is known for sim-target — enter its prices/);
    expect(await page.getByLabel('Target input price (USD / 1M tokens)').inputValue()).toBe('');
    await shootThemes(page, note, 'connect-price-unknown');
    await page.getByLabel('Target model').fill('gpt-6-luna');
    await expect.poll(() => note.innerText()).toMatch(/list price of gpt-6-luna, checked 2026-11-27 \(https:\/\/developers\.openai\.com\//);
    expect(await page.getByLabel('Target input price (USD / 1M tokens)').inputValue()).toBe('0.1');
    expect(await page.getByLabel('Target cached input price (USD / 1M tokens)').inputValue()).toBe('0.01');
    expect(await page.getByLabel('Target output price (USD / 1M tokens)').inputValue()).toBe('0.5');
    await page.getByLabel('Target model').fill('gpt-4o-mini-2024-07-18');
    await expect.poll(() => note.innerText()).toMatch(/gpt-4o-mini-2024-07-18 (retires|was retired) on 2027-01-14 .*choose a current model/);
    await shootThemes(page, note, 'connect-price-retiring');
    // Prices typed for an unknown model are its prices: the note goes.
    await page.getByLabel('Target model').fill('sim-target');
    await page.getByLabel('Target input price (USD / 1M tokens)').fill('0.3');
    await page.getByLabel('Target output price (USD / 1M tokens)').fill('1.5');
    await expect.poll(() => note.count()).toBe(0);
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem('skillwright-ui')!).state.connection.prices.target)).toEqual({ input: 0.3, output: 1.5 });
  });
});

describe.skipIf(Boolean(skip))('keys in Chromium', () => {
  let srv: LlmTestServer;
  const app = appSession(() => [srv], { quiet: true });
  let page: Page;
  beforeAll(() => {
    ({ page } = app);
  });

  beforeAll(async () => {
    srv = await startLlmServer({ latencyMs: 20 });
  });
  afterAll(async () => {
    await srv?.close();
  });

  it('remembers keys only while asked to, and forgets them on request', async () => {
    const stored = () =>
      page.evaluate(
        () =>
          new Promise<string>((resolve, reject) => {
            const open = indexedDB.open('skillwright');
            open.onerror = () => reject(open.error);
            open.onsuccess = () => {
              const req = open.result.transaction('settings').objectStore('settings').getAll();
              req.onsuccess = () => {
                resolve(JSON.stringify(req.result));
                open.result.close();
              };
            };
          }),
      );
    await connect(page, srv.url, 'sk-remember-me-123');
    const remember = page.getByLabel('Remember on this device');
    await remember.check();
    await page.getByRole('button', { name: 'Test connection' }).click();
    await page.getByText(/connected\.$/).waitFor();
    expect(await stored()).toContain('sk-remember-me-123');
    await remember.uncheck();
    await expect.poll(stored).not.toContain('sk-remember-me-123');
    await remember.check();
    await page.getByRole('button', { name: 'Test connection' }).click();
    await expect.poll(stored).toContain('sk-remember-me-123');
    await page.getByRole('button', { name: 'Forget keys on this device' }).click();
    await page.getByText(/Keys forgotten/).waitFor();
    expect(await stored()).not.toContain('sk-remember-me-123');
    expect(await page.getByLabel('Target API key').inputValue()).toBe('');
    await remember.uncheck();
  });
});

describe.skipIf(Boolean(skip))('leaving the zero-key demo in Chromium', () => {
  const app = appSession(() => [], { start: startDemo });
  let page: Page;
  beforeAll(() => {
    ({ page } = app);
  });

  it('the demo sets the user’s own drafts and keys aside and puts them back; its dataset is stored once (issue #20 item 2)', async () => {
    const state = () => page.evaluate(() => JSON.parse(localStorage.getItem('skillwright-ui')!).state as { skill: string; connection: { target: { baseURL: string } }; parked: unknown });
    // Leave the demo this block started: the drafts from before it (the defaults here) return.
    await page.getByRole('button', { name: 'Leave the demo and restore my settings' }).click();
    expect((await state()).connection.target.baseURL).toBe('https://api.openai.com/v1');
    expect((await state()).parked).toBeNull();
    // The user's own work: a custom endpoint with a key held by the worker, and a skill draft.
    await page.getByRole('link', { name: 'Connect' }).click();
    await page.getByLabel('Provider').selectOption('custom');
    await page.getByLabel('Target base URL').fill('http://127.0.0.1:9/v1');
    await page.getByLabel('Target API key').fill('sk-my-own-key-123');
    await page.getByLabel('Target model').click();
    await expect.poll(() => page.getByLabel('Target API key').getAttribute('placeholder')).toMatch(/Key held/);
    await page.evaluate(() => {
      const raw = JSON.parse(localStorage.getItem('skillwright-ui')!);
      raw.state.skill = '# My own skill\n\n- A rule I wrote.\n';
      localStorage.setItem('skillwright-ui', JSON.stringify(raw));
    });
    await page.reload();
    await page.getByLabel('Target API key').fill('sk-my-own-key-123');
    await page.getByLabel('Target model').click();
    await expect.poll(() => page.getByLabel('Target API key').getAttribute('placeholder')).toMatch(/Key held/);
    const datasets = await countStore(page, 'datasets');
    await page.getByRole('button', { name: 'Try without a key' }).click();
    await page.getByRole('heading', { name: 'Train the skill' }).waitFor();
    expect((await state()).skill).not.toContain('A rule I wrote');
    // The demo's dataset is the one stored before: not another copy.
    expect(await countStore(page, 'datasets')).toBe(datasets);
    await page.getByRole('button', { name: 'Leave the demo and restore my settings' }).click();
    expect((await state()).skill).toBe('# My own skill\n\n- A rule I wrote.\n');
    expect((await state()).connection.target.baseURL).toBe('http://127.0.0.1:9/v1');
    // The key the worker held for the user's endpoint is still held.
    await page.getByRole('link', { name: 'Connect' }).click();
    expect(await page.getByLabel('Target API key').getAttribute('placeholder')).toMatch(/Key held/);
    await page.screenshot({ path: 'test-results/demo-left-light.png', fullPage: true });
  }, 60_000);
});
