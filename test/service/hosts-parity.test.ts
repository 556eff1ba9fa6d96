// Issue #29: the page and the runner are two hosts of one run service, so for the same run they
// make the same files. A skill package is trained by the runner (its file store); its bundle is
// taken into the page (IndexedDB) and bound to the same endpoints; the page's report, evals file
// and bundle are then byte for byte the runner's report.html, evals.json and run-bundle.json.
// Before the service, the runner gathered its report and named its evals file its own way and
// wrote its bundle in the order its file held the rows.
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLlmServer, type LlmTestServer } from '../support/llm-server';
import { makeWorldItems } from '../support/rule-world';
import { TRIGGER_START_DESCRIPTION, triggerWorldQueries } from '../support/trigger-world';
import { openTab } from '../support/api-harness';
import { runCli } from '../../src/cli/main';

const KEY = 'sk-parity-key';
/** The runner's clock: a millisecond a reading, so the order of what it stores is the order it happened. */
let tick = Date.UTC(2026, 10, 26, 12, 0, 0);
let srv: LlmTestServer;
let dir: string;

beforeAll(async () => {
  srv = await startLlmServer({});
  dir = mkdtempSync(join(tmpdir(), 'skillwright-parity-'));
  const pkg = join(dir, 'specimen-codes');
  mkdirSync(join(pkg, 'evals'), { recursive: true });
  writeFileSync(join(pkg, 'SKILL.md'), `---\nname: specimen-codes\ndescription: ${TRIGGER_START_DESCRIPTION}\n---\n\n# Skill\n\nAnswer with the code.\n`);
  const items = makeWorldItems(60).map((w) => ({ id: w.id, prompt: w.question, expected_output: w.answers[0], files: [], assertions: [] }));
  writeFileSync(join(pkg, 'evals', 'evals.json'), JSON.stringify({ skill_name: 'specimen-codes', evals: items }));
  // The activation track too: its description and shares are in every file.
  const triggers = triggerWorldQueries().map((q) => ({ query: q.query, should_trigger: q.shouldTrigger }));
  writeFileSync(join(pkg, 'evals', 'trigger-evals.json'), JSON.stringify(triggers));
  writeFileSync(
    join(dir, 'skillwright.json'),
    JSON.stringify({
      target: { baseURL: srv.url, model: 'sim-target', maxRetries: 2 },
      optimizer: { baseURL: srv.url, model: 'sim-optimizer', maxRetries: 2 },
      prices: { target: { input: 1, output: 2 }, optimizer: { input: 3, output: 4 } },
      run: { epochs: 1, activationTrack: true, batchSize: 12, minibatchSize: 4, mergeBatchSize: 3, targetConcurrency: 4, optimizerConcurrency: 4 },
    }),
  );
});
afterAll(() => srv.close());

describe('the page and the runner make the same files for the same run', () => {
  it('report, evals file and bundle', async () => {
    let stderr = '';
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      const code = await runCli(['train', '--config', 'skillwright.json', '--skill', 'specimen-codes', '--out', 'out'], {
        env: { SKILLWRIGHT_TARGET_API_KEY: KEY },
        err: (t) => (stderr += `${t}\n`),
        out: () => {},
        rawErr: null,
        interrupted: new Promise(() => {}),
        promptsDir: new URL('../../prompts/', import.meta.url).pathname,
        now: () => tick++,
      });
      expect([0, 100], stderr).toContain(code);
    } finally {
      process.chdir(cwd);
    }
    const runner = (f: string) => readFileSync(join(dir, 'out', f), 'utf8');
    const bundle = runner('run-bundle.json');
    const run = JSON.parse(bundle).run as { id: string; endpoints: never; prices: never; status: string };
    expect(run.status).toBe('completed');

    const tab = await openTab();
    const taken = await tab.api.importRun(new Blob([bundle]));
    if (!taken.ok) throw new Error(taken.error.message);
    expect(taken.runId).toBe(run.id);
    // Bound to the endpoints and prices the runner's config named, as the runner bound its own.
    const bound = await tab.api.bindRun(run.id, run.endpoints, run.prices);
    expect(bound.ok).toBe(true);

    const report = await tab.api.exportReport(run.id);
    const evals = await tab.api.exportEvals(run.id);
    const exported = await tab.api.exportRun(run.id);
    if (!report.ok || !evals.ok || !exported.ok) throw new Error('an export failed');
    const html = await report.file.text();
    // The best skill's blame names the step each line came from, and why (the runner's said neither).
    expect(html).toMatch(/<td>Step \d+ \(accept[^<]*<\/td>/);
    expect(html).toMatch(/edit — The skill has no rule for/);
    expect(html).toBe(runner('report.html'));
    expect(await evals.file.text()).toBe(runner('evals.json'));
    expect(JSON.parse(await evals.file.text()).skill_name).toBe('specimen-codes');
    // The same records but for when each host exported the run and last wrote it (the page bound it).
    const hostTimes = (text: string) => {
      const x = JSON.parse(text);
      return { ...x, exportedAt: null, run: { ...x.run, updatedAt: null } };
    };
    expect(hostTimes(await exported.file.text())).toEqual(hostTimes(bundle));
    tab.close();
  }, 120_000);
});
