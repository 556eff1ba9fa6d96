// Shards of a scoring phase on other machines (issue #42 item 6): `eval --shard K/N --rollouts F`
// scores a stable part of a split; `--merge` brings the shards back, and the final evaluation asks
// the target nothing for them and reports exactly the unsharded score. Rows that are not this
// command's (another skill, another text of an item) are never reused; an errored row is never a
// score; a malformed line is named.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLlmServer, type LlmTestServer } from '../support/llm-server';
import { makeWorldItems, ruleText, TOPICS } from '../support/rule-world';
import { runCliIn } from '../support/cli-here';

const BIN = new URL('../../bin/skillwright.mjs', import.meta.url).pathname;
const ENV = { SKILLWRIGHT_TARGET_API_KEY: 'sk-any' };
let srv: LlmTestServer;
let dir: string;

beforeAll(async () => {
  srv = await startLlmServer({});
  dir = mkdtempSync(join(tmpdir(), 'skillwright-cli-shard-'));
  const items = makeWorldItems(40);
  writeFileSync(join(dir, 'data.json'), JSON.stringify(items));
  // Half the rules (the world asks about 8 topics): a score strictly between 0 and 1, so "the same score" says something.
  const rules = TOPICS.slice(0, 4).map((t) => ruleText(t)); // the world has 8 topics
  writeFileSync(join(dir, 'skill.md'), `# Skill\n\nAnswer with the code.\n\n${rules.join('\n')}\n`);
  writeFileSync(join(dir, 'other-skill.md'), '# Skill\n\nAnswer with the code, briefly.\n');
  writeFileSync(
    join(dir, 'c.json'),
    JSON.stringify({
      data: 'data.json',
      skill: 'skill.md',
      target: { baseURL: srv.url, model: 'sim-target', maxRetries: 2 },
      optimizer: { baseURL: srv.url, model: 'sim-optimizer', maxRetries: 2 },
      run: { targetConcurrency: 4 },
    }),
  );
});
afterAll(() => srv.close());

/** The runner as its own process, as each machine of a CI matrix runs it. */
function spawned(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: dir, env: { PATH: process.env.PATH ?? '', ...ENV } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}
const here = (args: string[]) => runCliIn(dir, args, ENV);
const targetCalls = () => srv.log.filter((e) => e.stage === 'target').length;
const lines = (f: string) => readFileSync(join(dir, f), 'utf8').trim().split('\n');
interface EvalJson {
  hard: number;
  soft: number;
  n: number;
  items?: string[];
  merged?: { used: number; notUsed: number; errored: number; otherItem: number };
}
const json = (r: { stdout: string }) => JSON.parse(r.stdout.trim().split('\n').at(-1)!) as EvalJson;

describe('shards of an evaluation (issue #42 item 6)', () => {
  let whole: EvalJson;
  let testIds: string[];

  it('scores two shards apart, and the merged evaluation asks the target nothing and scores as unsharded', async () => {
    const all = await here(['eval', '--config', 'c.json', '--json']);
    expect(all.code, all.stderr).toBe(0);
    whole = json(all);
    expect(whole.hard).toBeGreaterThan(0);
    expect(whole.hard).toBeLessThan(1);
    const [a, b] = await Promise.all([
      spawned(['eval', '--config', 'c.json', '--shard', '1/2', '--rollouts', 's1.jsonl', '--json']),
      spawned(['eval', '--config', 'c.json', '--shard', '2/2', '--rollouts', 's2.jsonl', '--json']),
    ]);
    expect(a.code, a.stderr).toBe(0);
    expect(b.code, b.stderr).toBe(0);
    // Each item in exactly one shard, and each shard file holds exactly its items.
    const [ia, ib] = [json(a).items!, json(b).items!];
    expect(ia.length).toBeGreaterThan(0);
    expect(ib.length).toBeGreaterThan(0);
    expect(ia.filter((id) => ib.includes(id))).toEqual([]);
    testIds = [...ia, ...ib];
    expect(testIds.length).toBe(whole.n);
    const inFile = (f: string) => lines(f).map((l) => (JSON.parse(l) as { row: { itemId: string } }).row.itemId);
    expect(inFile('s1.jsonl')).toEqual(ia);
    expect(inFile('s2.jsonl')).toEqual(ib);
    // The same shard again is the same items (a hash of the id, not a position or a clock).
    const again = await here([
      'eval',
      '--config',
      'c.json',
      '--shard',
      '1/2',
      '--rollouts',
      's1-again.jsonl',
      '--json',
    ]);
    expect(json(again).items).toEqual(ia);

    const before = targetCalls();
    const merged = await spawned(['eval', '--config', 'c.json', '--merge', 's1.jsonl', 's2.jsonl', '--json']);
    expect(merged.code, merged.stderr).toBe(0);
    expect(targetCalls()).toBe(before);
    const m = json(merged);
    expect(m.hard).toBe(whole.hard);
    expect(m.soft).toBe(whole.soft);
    expect(m.n).toBe(whole.n);
    expect(m.merged).toMatchObject({ used: whole.n, notUsed: 0, errored: 0 });
    expect(merged.stderr).toContain(`merged ${whole.n} rollout(s) from 2 shard file(s).`);
  }, 120_000);

  it('never reuses a shard made with another skill: every item is asked, and the rows are counted as not this one’s', async () => {
    const other = await here([
      'eval',
      '--config',
      'c.json',
      '--skill',
      'other-skill.md',
      '--shard',
      '1/2',
      '--rollouts',
      'other.jsonl',
    ]);
    expect(other.code, other.stderr).toBe(0);
    const before = targetCalls();
    const r = await here(['eval', '--config', 'c.json', '--merge', 'other.jsonl', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(targetCalls() - before).toBe(whole.n);
    expect(json(r).merged).toMatchObject({ used: 0, notUsed: lines('other.jsonl').length });
    expect(r.stderr).toContain(`${lines('other.jsonl').length} not this command's (another skill, target`);
    expect(json(r).hard).toBe(whole.hard);
  }, 60_000);

  it('never reuses a row made on another text of the same item id (the cache key holds only the id)', async () => {
    const items = JSON.parse(readFileSync(join(dir, 'data.json'), 'utf8')) as { id: string; question: string }[];
    const first = lines('s1.jsonl').map((l) => (JSON.parse(l) as { row: { itemId: string } }).row.itemId)[0];
    const edited = items.map((i) => (i.id === first ? { ...i, question: `${i.question} (reworded)` } : i));
    writeFileSync(join(dir, 'edited.json'), JSON.stringify(edited));
    const before = targetCalls();
    const r = await here([
      'eval',
      '--config',
      'c.json',
      '--data',
      'edited.json',
      '--merge',
      's1.jsonl',
      's2.jsonl',
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(targetCalls() - before).toBe(1);
    expect(json(r).merged).toMatchObject({ used: whole.n - 1, otherItem: 1 });
    expect(r.stderr).toContain('1 made on another text of the same item id: not used');
  }, 60_000);

  it('never merges an errored rollout as a score: that item is asked again', async () => {
    const rows = lines('s2.jsonl').map((l) => JSON.parse(l) as { row: Record<string, unknown> });
    rows[0].row = { ...rows[0].row, status: 'error', hard: 0, soft: 0, error: { kind: 'server', message: '500' } };
    writeFileSync(join(dir, 's2-errored.jsonl'), rows.map((r) => `${JSON.stringify(r)}\n`).join(''));
    const before = targetCalls();
    const r = await here(['eval', '--config', 'c.json', '--merge', 's1.jsonl', 's2-errored.jsonl', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(targetCalls() - before).toBe(1);
    expect(json(r).hard).toBe(whole.hard);
    expect(r.stderr).toContain('1 errored: never merged as a score');
  }, 60_000);

  it('brings val shards into a training run: its baseline asks the target nothing for them', async () => {
    const cfg = JSON.parse(readFileSync(join(dir, 'c.json'), 'utf8')) as { run: object };
    cfg.run = { ...cfg.run, epochs: 1, batchSize: 8, minibatchSize: 4, mergeBatchSize: 3, optimizerConcurrency: 4 };
    writeFileSync(join(dir, 't.json'), JSON.stringify(cfg));
    for (const k of [1, 2]) {
      const r = await here([
        'eval',
        '--config',
        't.json',
        '--split',
        'val',
        '--shard',
        `${k}/2`,
        '--rollouts',
        `v${k}.jsonl`,
      ]);
      expect(r.code, r.stderr).toBe(0);
    }
    const valN = lines('v1.jsonl').length + lines('v2.jsonl').length;
    const r = await here(['train', '--config', 't.json', '--out', 'run', '--merge', 'v1.jsonl', 'v2.jsonl', '--json']);
    expect([0, 100], r.stderr).toContain(r.code);
    const baseline = readFileSync(join(dir, 'run', 'run.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { t: string; v: { phase?: string; cached?: boolean; itemId?: string } })
      .filter((l) => l.t === 'rollout' && l.v.phase === 'baseline')
      .map((l) => l.v);
    expect(new Set(baseline.map((b) => b.itemId)).size).toBe(valN);
    expect(baseline.every((b) => b.cached)).toBe(true);
    expect(r.stderr).toMatch(/merged \d+ rollout\(s\) from 2 shard file\(s\)/);
  }, 120_000);

  it('brings test shards into a resumed run: the starting skill’s test tries each item once from them', async () => {
    let sent = false;
    const paused = await new Promise<{ code: number | null; stderr: string }>((done) => {
      const child = spawn(process.execPath, [BIN, 'train', '--config', 't.json', '--out', 'resumed'], {
        cwd: dir,
        env: { PATH: process.env.PATH ?? '', ...ENV },
      });
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => {
        stderr += d.toString();
        if (!sent && /Baseline:/.test(stderr)) child.kill('SIGINT');
        sent ||= /Baseline:/.test(stderr);
      });
      child.on('close', (code) => done({ code, stderr }));
    });
    expect(paused.code, paused.stderr).toBe(3);
    const r = await here(['resume', '--out', 'resumed', '--merge', 's1.jsonl', 's2.jsonl', '--json']);
    expect([0, 100], r.stderr).toContain(r.code);
    const rows = readFileSync(join(dir, 'resumed', 'run.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map(
        (l) =>
          JSON.parse(l) as { t: string; v: { phase?: string; cached?: boolean; itemId?: string; skillHash?: string } },
      )
      .filter((l) => l.t === 'rollout')
      .map((l) => l.v);
    const initial = rows.find((x) => x.phase === 'baseline')!.skillHash;
    // Each item's first try (the run may try some again, `test/initial/r1`…: those are its own).
    const tested = rows.filter((x) => x.phase === 'test/initial' && x.skillHash === initial);
    expect(new Set(tested.map((x) => x.itemId)).size).toBe(whole.n);
    expect(tested.every((x) => x.cached)).toBe(true);
    expect(r.stderr).toMatch(/merged \d+ rollout\(s\) from 2 shard file\(s\)/);
  }, 120_000);

  it('names a malformed line and its field, and a bad --shard, with exit code 2 and no call', async () => {
    const good = lines('s1.jsonl');
    writeFileSync(join(dir, 'torn.jsonl'), `${good[0]}\n{"format":\n`);
    const noKey = JSON.parse(good[0]) as { row: Record<string, unknown> };
    delete noKey.row.cacheKey;
    writeFileSync(join(dir, 'nokey.jsonl'), `${good[0]}\n${good[1]}\n${JSON.stringify(noKey)}\n`);
    const before = targetCalls();
    const torn = await here(['eval', '--config', 'c.json', '--merge', 'torn.jsonl']);
    expect(torn.code).toBe(2);
    expect(torn.stderr).toMatch(/torn\.jsonl, line 2: not JSON/);
    const missing = await here(['eval', '--config', 'c.json', '--merge', 'nokey.jsonl']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/nokey\.jsonl, line 3: "row\.cacheKey" is missing/);
    for (const bad of ['3/2', '0/2', 'half']) {
      const r = await here(['eval', '--config', 'c.json', '--shard', bad, '--rollouts', 'x.jsonl']);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('--shard must be K/N');
    }
    const noFile = await here(['eval', '--config', 'c.json', '--shard', '1/2']);
    expect(noFile.stderr).toContain('--shard needs --rollouts FILE');
    const over = await here(['eval', '--config', 'c.json', '--shard', '1/2', '--rollouts', 's1.jsonl']);
    expect(over.code).toBe(2);
    expect(over.stderr).toContain('s1.jsonl exists');
    expect(targetCalls()).toBe(before);
  }, 60_000);
});
