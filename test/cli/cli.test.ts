// The headless runner as a spawned process (issue #22): exit codes, a Ctrl-C pause and a resume
// by the same command to the same best skill as an uninterrupted run, a run moved CLI → page → CLI,
// no key in any output, and a bad config or dataset named with exit code 2.
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLlmServer, type LlmTestServer } from '../support/llm-server';
import { makeWorldItems } from '../support/rule-world';
import { openSkillwrightDb } from '../../src/storage/open-db';
import { importBundle, parseBundle } from '../../src/storage/bundle';
import { exportRunFile } from '../support/bundle-file';
import { runCliIn } from '../support/cli-here';
import { readPackageZip } from '../../src/core/skill/package-zip';
import type { CurvePoint } from '../../src/core/report/learning-curve';
import { ruleText, topicCode, TOPICS } from '../support/rule-world';
import { TRIGGER_START_DESCRIPTION, triggerWorldQueries } from '../support/trigger-world';

const BIN = new URL('../../bin/skillwright.mjs', import.meta.url).pathname;
const KEY = 'sk-cli-secret-key-123';
let srv: LlmTestServer;
let dir: string;

beforeAll(async () => {
  srv = await startLlmServer({ latencyMs: 15 });
  dir = mkdtempSync(join(tmpdir(), 'skillwright-cli-'));
  writeFileSync(join(dir, 'data.json'), JSON.stringify(makeWorldItems(60)));
  writeFileSync(join(dir, 'skill.md'), '# Skill\n\nAnswer with the code.\n');
  writeFileSync(
    join(dir, 'skillwright.json'),
    JSON.stringify({
      data: 'data.json',
      skill: 'skill.md',
      target: { baseURL: srv.url, model: 'sim-target', maxRetries: 2 },
      optimizer: { baseURL: srv.url, model: 'sim-optimizer', maxRetries: 2 },
      run: { epochs: 2, batchSize: 12, minibatchSize: 4, mergeBatchSize: 3, slowUpdateSamples: 8, targetConcurrency: 4, optimizerConcurrency: 4 },
    }),
  );
});
afterAll(() => srv.close());

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Run the CLI; `onErr` sees standard error as it comes (to interrupt at a point). */
function cli(args: string[], o: { env?: Record<string, string>; onErr?: (text: string, kill: () => void) => void } = {}): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: dir, env: { PATH: process.env.PATH ?? '', SKILLWRIGHT_TARGET_API_KEY: KEY, ...o.env } });
    let stdout = '';
    let stderr = '';
    let sent = false;
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      o.onErr?.(stderr, () => {
        if (!sent) child.kill('SIGINT');
        sent = true;
      });
    });
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const best = (out: string) => readFileSync(join(dir, out, 'best-skill.md'), 'utf8');

/** The same CLI in this process (its config and data checks), where a spawn adds nothing. */
const cliHere = (args: string[], env: Record<string, string> = { SKILLWRIGHT_TARGET_API_KEY: KEY }) => runCliIn(dir, args, env);

describe('skillwright (the headless runner)', () => {
  let reference: string;
  let referenceCurve: CurvePoint[];

  it('trains to completion: exit 0, the best skill, the run bundle and one JSON line; no key in any output', async () => {
    const r = await cli(['train', '--config', 'skillwright.json', '--out', 'ref', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const summary = JSON.parse(r.stdout.trim()) as { status: string; accepted: number; lift: number; learningCurve: CurvePoint[] };
    expect(summary).toMatchObject({ status: 'completed' });
    // The learning curve: the baseline, every step (and a measured epoch boundary), calls growing, the best never falling.
    const curve = summary.learningCurve;
    const steps = r.stderr.match(/^Step \d+: /gm)!.length;
    expect(curve.map((p) => p.label).slice(0, steps + 1)).toEqual(['Baseline', ...Array.from({ length: steps }, (_, i) => `Step ${i + 1}`)]);
    expect(curve.length - steps - 1, 'measured epoch boundaries').toBeLessThanOrEqual(2);
    for (let i = 1; i < curve.length; i++) {
      expect(curve[i].targetCalls).toBeGreaterThan(curve[i - 1].targetCalls);
      expect(curve[i].best).toBeGreaterThanOrEqual(curve[i - 1].best);
    }
    expect(curve.filter((p) => p.score !== null).every((p) => p.low! <= p.score! && p.score! <= p.high!)).toBe(true);
    expect(curve.at(-1)!.best).toBeGreaterThan(curve[0].best);
    referenceCurve = curve;
    expect(summary.accepted).toBeGreaterThan(0);
    expect(summary.lift).toBeGreaterThan(0);
    reference = best('ref');
    expect(reference).not.toBe('# Skill\n\nAnswer with the code.\n');
    expect(parseBundle(readFileSync(join(dir, 'ref', 'run-bundle.json'), 'utf8')).ok).toBe(true);
    const html = readFileSync(join(dir, 'ref', 'report.html'), 'utf8');
    expect(html).toContain('<h2>Accepted edits</h2>');
    expect(html).toContain('<h2>Learning curve</h2>');
    expect(html).not.toMatch(/<script/i);
    expect(html).toMatch(/<td>Step \d+ \(accept/); // the blame names the step each line of the best skill came from
    for (const f of readdirSync(join(dir, 'ref'))) expect(readFileSync(join(dir, 'ref', f), 'utf8'), f).not.toContain(KEY);
    expect(r.stdout + r.stderr).not.toContain(KEY);
  }, 60_000);

  it('Ctrl-C pauses at a checkpoint with exit 3; the same command resumes to the same best skill', async () => {
    const args = ['train', '--config', 'skillwright.json', '--out', 'paused'];
    const first = await cli(args, { onErr: (text, kill) => /Step 1:/.test(text) && kill() });
    expect(first.code, first.stderr).toBe(3);
    expect(first.stderr).toMatch(/Pausing at the next checkpoint/);
    const again = await cli([...args, '--json']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(/Continuing the run/);
    expect(best('paused')).toBe(reference);
    // The paused and resumed run spent what the unbroken one did, point by point.
    expect((JSON.parse(again.stdout.trim()) as { learningCurve: CurvePoint[] }).learningCurve).toEqual(referenceCurve);
  }, 60_000);

  it('a paused run moves CLI → page → CLI and ends as the uninterrupted run', async () => {
    const paused = await cli(['train', '--config', 'skillwright.json', '--out', 'moving'], { onErr: (text, kill) => /Baseline:/.test(text) && kill() });
    expect(paused.code, paused.stderr).toBe(3);
    // The page imports the CLI's bundle, and exports it again.
    const db = await openSkillwrightDb(`cli-move-${Date.now()}`);
    const parsed = parseBundle(readFileSync(join(dir, 'moving', 'run-bundle.json'), 'utf8'));
    if (!parsed.ok) throw new Error(parsed.error);
    const imported = await importBundle(db, parsed.bundle, () => 'page-run');
    if (!imported.ok) throw new Error(imported.error);
    writeFileSync(join(dir, 'from-page.json'), await (await exportRunFile(db, imported.runId))!.text());
    db.close();
    // Continued by the CLI on the endpoints of its own config.
    const resumed = await cli(['resume', '--bundle', 'from-page.json', '--config', 'skillwright.json', '--out', 'moved']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(best('moved')).toBe(reference);
  }, 60_000);

  it('names a bad config or dataset and exits 2; refuses a key in the config and a missing key', async () => {
    writeFileSync(join(dir, 'bad-run.json'), JSON.stringify({ ...JSON.parse(readFileSync(join(dir, 'skillwright.json'), 'utf8')), run: { batchSize: 0 } }));
    const badRun = await cli(['train', '--config', 'bad-run.json', '--out', 'x1']); // spawned: the exit code reaches the shell
    expect(badRun.code).toBe(2);
    expect(badRun.stderr).toMatch(/run\.batchSize: batch size must be at least 1/);
    writeFileSync(join(dir, 'bad.json'), JSON.stringify([{ question: 'q', answer: 'a' }, { question: '', answer: 'b' }]));
    const badData = await cliHere(['train', '--config', 'skillwright.json', '--data', 'bad.json', '--out', 'x2']);
    expect(badData.code).toBe(2);
    expect(badData.stderr).toMatch(/Row 2, field "question"/);
    writeFileSync(join(dir, 'keyed.json'), JSON.stringify({ target: { baseURL: srv.url, model: 'm', apiKey: KEY }, optimizer: { baseURL: srv.url, model: 'm' } }));
    const keyed = await cliHere(['train', '--config', 'keyed.json', '--out', 'x3']);
    expect(keyed.code).toBe(2);
    expect(keyed.stderr).toMatch(/keys are never read from the config/);
    expect(keyed.stderr).not.toContain(KEY);
    const noKey = await cliHere(['train', '--config', 'skillwright.json', '--out', 'x4'], {});
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toMatch(/Set SKILLWRIGHT_TARGET_API_KEY/);
  }, 60_000);

  it('evaluates a skill on a split without training', async () => {
    const start = await cliHere(['eval', '--config', 'skillwright.json', '--json']);
    expect(start.code, start.stderr).toBe(0);
    const trained = await cliHere(['eval', '--config', 'skillwright.json', '--skill', 'ref/best-skill.md', '--split', 'test', '--json']);
    expect(trained.code, trained.stderr).toBe(0);
    const [a, b] = [start, trained].map((r) => JSON.parse(r.stdout.trim()) as { hard: number; n: number; split: string });
    expect(b).toMatchObject({ split: 'test' });
    expect(b.n).toBeGreaterThan(0);
    expect(b.hard).toBeGreaterThan(a.hard);
  }, 60_000);

  it('evaluates through the target’s batch API when the config names one, at half the estimated price', async () => {
    const config = JSON.parse(readFileSync(join(dir, 'skillwright.json'), 'utf8'));
    config.target = { ...config.target, batchApi: 'openai', batchPollMs: 10 };
    config.prices = { target: { input: 1, output: 4 }, optimizer: { input: 1, output: 4 } };
    writeFileSync(join(dir, 'batch.json'), JSON.stringify(config));
    writeFileSync(join(dir, 'priced.json'), JSON.stringify({ ...config, target: { ...config.target, batchApi: undefined } }));
    const before = srv.batches.length;
    const r = await cliHere(['eval', '--config', 'batch.json', '--split', 'test', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(srv.batches.length).toBe(before + 1);
    const live = await cliHere(['eval', '--config', 'skillwright.json', '--split', 'test', '--json']);
    expect(JSON.parse(r.stdout.trim()).hard).toBe(JSON.parse(live.stdout.trim()).hard);
    const withBatch = await cliHere(['estimate', '--config', 'batch.json', '--json']);
    const without = await cliHere(['estimate', '--config', 'priced.json', '--json']);
    const cost = (x: Ran) => JSON.parse(x.stdout.trim()) as { costUsd: number; stages: Record<string, { costUsd: number }> };
    expect(cost(without).stages.test.costUsd).toBeGreaterThan(0);
    expect(cost(withBatch).stages.test.costUsd).toBeCloseTo(cost(without).stages.test.costUsd / 2, 9);
    expect(cost(withBatch).stages.rollout.costUsd).toBeCloseTo(cost(without).stages.rollout.costUsd, 9);
  }, 60_000);

  it('exits 100 when no step is accepted, and estimates without calling anyone', async () => {
    const calls = srv.log.length;
    const est = await cliHere(['estimate', '--config', 'skillwright.json', '--json']);
    expect(est.code, est.stderr).toBe(0);
    expect(JSON.parse(est.stdout.trim()).calls).toBeGreaterThan(0);
    expect(srv.log.length).toBe(calls);
    const none = await cli(['train', '--config', 'skillwright.json', '--out', 'nolift', '--min-lift', '2']);
    expect(none.code, none.stderr).toBe(100);
  }, 60_000);

  it('trains a skill package (a folder with its own evals.json) and writes it back as a .zip and a folder', async () => {
    // A reference file that gives four families the wrong digit: the fix belongs there.
    const wrong = TOPICS.slice(0, 4);
    const wrongCode = (t: string) => `${topicCode(t).slice(0, 3)}${(Number(topicCode(t).slice(3)) + 1) % 10}`;
    const codes = `# Codes\n\n${wrong.map((t) => `- For ${t} specimens, use the prefix ${wrongCode(t)}.`).join('\n')}\n`;
    const skillMd = `---\nname: specimen-codes\ndescription: ${TRIGGER_START_DESCRIPTION}\n---\n\n# Specimen codes\n\nAnswer with the specimen code.\n`;
    const script = new Uint8Array([0, 1, 2, 255, 10]);
    const pkg = join(dir, 'specimen-codes');
    for (const sub of ['references', 'scripts', 'evals', '.git']) mkdirSync(join(pkg, sub), { recursive: true });
    writeFileSync(join(pkg, 'SKILL.md'), skillMd);
    writeFileSync(join(pkg, 'references', 'codes.md'), codes);
    writeFileSync(join(pkg, 'scripts', 'tool.bin'), script);
    writeFileSync(join(pkg, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    const evals = makeWorldItems(60).map((w) => ({ id: w.id, prompt: w.question, expected_output: w.answers[0], files: [], assertions: [] }));
    writeFileSync(join(pkg, 'evals', 'evals.json'), JSON.stringify({ skill_name: 'specimen-codes', evals }));
    // The activation track trains the description on the package's own trigger queries.
    const triggers = triggerWorldQueries().map((q) => ({ query: q.query, should_trigger: q.shouldTrigger }));
    writeFileSync(join(pkg, 'evals', 'trigger-evals.json'), JSON.stringify(triggers));
    srv.set({ describerSlip: 0 });
    const config = JSON.parse(readFileSync(join(dir, 'skillwright.json'), 'utf8'));
    delete config.data;
    delete config.skill;
    writeFileSync(join(dir, 'pkg.json'), JSON.stringify({ ...config, run: { ...config.run, epochs: 1, activationTrack: true } }));

    const r = await cli(['train', '--config', 'pkg.json', '--skill', 'specimen-codes', '--out', 'pkg-out', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`Dataset: ${join(pkg, 'evals', 'evals.json')} (the package's own evals)`);
    const out = join(dir, 'pkg-out');
    expect(readdirSync(out)).not.toContain('best-skill.md');
    const read = readPackageZip('best-skill.zip', readFileSync(join(out, 'best-skill.zip')));
    expect(read.name).toBe('specimen-codes');
    const summary = JSON.parse(r.stdout.trim());
    expect(summary.activation.initialDescription).toBe(TRIGGER_START_DESCRIPTION);
    expect(summary.activation.description).toMatch(/^Gives the specimen code for /);
    expect(summary.activation.test.best).toBeGreaterThan(summary.activation.test.initial);
    expect(read.skillMd.startsWith(`---\nname: specimen-codes\ndescription: ${JSON.stringify(summary.activation.description)}\n---\n`)).toBe(true);
    expect(read.references.map((f) => f.path)).toEqual(['references/codes.md']);
    const trained = read.references[0].text;
    expect(trained).not.toBe(codes);
    expect(wrong.some((t) => trained.includes(ruleText(t).slice(2)))).toBe(true); // fixed in the file that held it
    expect(read.assets.map((a) => a.path)).toEqual(['evals/evals.json', 'evals/trigger-evals.json', 'scripts/tool.bin']); // .git left out
    expect([...read.assets[2].bytes]).toEqual([...script]);
    // The unpacked folder is the same package.
    expect(readFileSync(join(out, 'best-skill', 'SKILL.md'), 'utf8')).toBe(read.skillMd);
    expect(readFileSync(join(out, 'best-skill', 'references', 'codes.md'), 'utf8')).toBe(trained);
    expect([...readFileSync(join(out, 'best-skill', 'scripts', 'tool.bin'))]).toEqual([...script]);
    // The cases travel beside it, with the lift as metadata.
    const exported = JSON.parse(readFileSync(join(out, 'evals.json'), 'utf8'));
    expect(exported.skill_name).toBe('specimen-codes');
    expect(exported.evals).toHaveLength(60);
    expect(exported.metadata.lift.estimate).toBeGreaterThan(0);
    // The exported zip is a starting skill again, and scores as trained.
    const ev = await cliHere(['eval', '--config', 'pkg.json', '--skill', 'pkg-out/best-skill.zip', '--json']);
    expect(ev.code, ev.stderr).toBe(0);
    expect(JSON.parse(ev.stdout.trim()).hard).toBeCloseTo(JSON.parse(r.stdout.trim()).testBest, 9);
  }, 60_000);

  it('names a package without SKILL.md, a damaged zip, and an activation track without a package, with exit code 2', async () => {
    mkdirSync(join(dir, 'no-skill', 'references'), { recursive: true });
    writeFileSync(join(dir, 'no-skill', 'references', 'a.md'), '# A\n');
    const none = await cliHere(['estimate', '--config', 'skillwright.json', '--skill', 'no-skill']);
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/no-skill: This package has no SKILL\.md/);
    writeFileSync(join(dir, 'broken.zip'), 'not a zip at all');
    const broken = await cliHere(['estimate', '--config', 'skillwright.json', '--skill', 'broken.zip']);
    expect(broken.code).toBe(2);
    expect(broken.stderr).toMatch(/broken\.zip: This file is not a readable \.zip/);
    const config = JSON.parse(readFileSync(join(dir, 'skillwright.json'), 'utf8'));
    writeFileSync(join(dir, 'track.json'), JSON.stringify({ ...config, run: { ...config.run, activationTrack: true } }));
    const noPackage = await cliHere(['estimate', '--config', 'track.json']);
    expect(noPackage.code).toBe(2);
    expect(noPackage.stderr).toMatch(/activationTrack trains a SKILL\.md description: give a skill package/);
  });
});
