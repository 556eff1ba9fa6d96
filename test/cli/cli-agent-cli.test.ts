// An agent CLI as the target (issue #31 part 3): the runner starts a real process per item (a fake
// agent that follows the rule world, test/support/fake-agent.mjs) in a fresh workspace holding the
// skill where agents read skills. Success trains a skill package end to end and keeps the agent's
// transcript; a transient failure and a timeout are asked again, never scored; a fatal login error
// stops the run at once, naming it, with nothing scored; every workspace is removed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLlmServer, type LlmTestServer } from '../support/llm-server';
import { makeWorldItems, ruleText } from '../support/rule-world';

const BIN = new URL('../../bin/skillwright.mjs', import.meta.url).pathname;
const FAKE_AGENT = new URL('../support/fake-agent.mjs', import.meta.url).pathname;
let srv: LlmTestServer;
let dir: string;

const RUN = { batchSize: 8, minibatchSize: 4, mergeBatchSize: 2, slowUpdateSamples: 6, optimizerConcurrency: 3 };

/** A config whose target is the fake agent; `target` settings are laid over the package layout's. */
function config(name: string, target: Record<string, unknown> = {}, run: Record<string, unknown> = {}): string {
  writeFileSync(
    join(dir, name),
    JSON.stringify({
      data: 'data.json',
      skill: 'specimens',
      target: {
        command: [process.execPath, FAKE_AGENT],
        skillFile: '.agents/skills/specimens/SKILL.md',
        transcriptFile: '.agent/transcript.jsonl',
        passEnv: ['FAKE_AGENT_MODE', 'FAKE_AGENT_STATE', 'FAKE_AGENT_ORPHAN', 'AGENT_LOGIN'],
        model: 'fake-agent',
        ...target,
      },
      optimizer: { baseURL: srv.url, model: 'sim-optimizer', maxRetries: 2 },
      split: { ratio: [5, 3, 2], seed: 1 },
      run: { epochs: 2, targetConcurrency: 3, ...RUN, ...run },
    }),
  );
  return name;
}

beforeAll(async () => {
  srv = await startLlmServer({ latencyMs: 5 });
  dir = mkdtempSync(join(tmpdir(), 'skillwright-cli-agent-cli-'));
  writeFileSync(join(dir, 'data.json'), JSON.stringify(makeWorldItems(40, 4)));
  // A skill package: its one rule lives in a reference, which the agent opens when the skill names it.
  mkdirSync(join(dir, 'specimens', 'references'), { recursive: true });
  writeFileSync(
    join(dir, 'specimens', 'SKILL.md'),
    '---\nname: specimens\ndescription: Answers specimen code questions.\n---\n# Specimens\n\nAnswer with the code only. The amber codes are in references/codes.md.\n',
  );
  writeFileSync(join(dir, 'specimens', 'references', 'codes.md'), `# Codes\n\n${ruleText('amber')}\n`);
});
afterAll(() => srv.close());

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The temporary folder the runner (and its agents) used. */
  tmp: string;
}

/** Run the runner with its own temporary folder, so the test sees every workspace it made. */
function cli(args: string[], env: Record<string, string> = {}): Promise<Ran> {
  const tmp = mkdtempSync(join(dir, 'tmp-'));
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', TMPDIR: tmp, SKILLWRIGHT_OPTIMIZER_API_KEY: 'sk-optimizer', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr, tmp }));
  });
}

const attempts = (state: string) =>
  readFileSync(join(state, 'runs.log'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as string);
/** Whether a process still runs (a zombie waiting for its parent does not). */
function running(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0] !== 'Z';
  } catch {
    return false;
  }
}
const agentWorkspaces = (tmp: string) => readdirSync(tmp).filter((f) => f.startsWith('skillwright-agent-'));

describe('an agent CLI as the target (issue #31)', () => {
  let evaluated = '';

  it('trains a skill package end to end: the agent reads it where agents read skills, its transcript is kept', async () => {
    const r = await cli(['train', '--config', config('agent.json'), '--out', 'trained', '--json']);
    expect(r.stderr).not.toMatch(/Stopped|problem/);
    expect(r.code).toBe(0); // a lift was accepted
    const best = readFileSync(join(dir, 'trained', 'best-skill', 'SKILL.md'), 'utf8');
    expect(best).toMatch(/^---\nname: specimens\n/);
    expect(best).toContain(ruleText('basalt').slice(0, 30));
    // The reference the agent opened is still the package's own.
    expect(readFileSync(join(dir, 'trained', 'best-skill', 'references', 'codes.md'), 'utf8')).toContain(
      ruleText('amber'),
    );
    const bundle = JSON.parse(readFileSync(join(dir, 'trained', 'run-bundle.json'), 'utf8')) as {
      run: { endpoints: { target: Record<string, unknown> } };
      rollouts: { status: string; hard: number; trajectory?: { kind: string; name?: string; result?: string }[] }[];
    };
    expect(bundle.run.endpoints.target.agentCommand).toMatchObject({ skillFile: '.agents/skills/specimens/SKILL.md' });
    const reads = bundle.rollouts.flatMap((x) => x.trajectory ?? []).filter((e) => e.kind === 'tool');
    expect(reads.length).toBeGreaterThan(0);
    expect(reads.every((e) => e.name === 'read_file' && e.result?.includes(ruleText('amber')))).toBe(true);
    expect(bundle.rollouts.some((x) => x.status === 'ok' && x.hard === 1)).toBe(true);
    expect(readFileSync(join(dir, 'trained', 'report.html'), 'utf8')).toContain('<h2>Agents: trajectories</h2>');
    expect(agentWorkspaces(r.tmp)).toEqual([]);
  }, 180_000);

  it('never writes a file section outside the package: a starting .md or a bundle that tries is refused (issue #39 H4)', async () => {
    const escape = (name: string) => `${'../'.repeat(24)}${dir.slice(1)}/${name}`;
    const section = (path: string) => `<!-- FILE: ${path} -->\necho "written outside the agent workspace"\n<!-- END FILE: ${path} -->\n`;
    writeFileSync(join(dir, 'evil-skill.md'), `# Specimens\n\nAnswer with the code only.\n\n${section(escape('ESCAPED-by-skill.sh'))}`);
    const plain = await cli(['eval', '--config', 'agent.json', '--skill', 'evil-skill.md', '--split', 'val']);
    expect(plain.code, plain.stderr).toBe(2);
    expect(plain.stderr).toMatch(/evil-skill\.md: the file section ".*ESCAPED-by-skill\.sh" names no reference file inside the package/);
    const bundle = JSON.parse(readFileSync(join(dir, 'trained', 'run-bundle.json'), 'utf8')) as { run: { initialSkill: string; status: string } };
    bundle.run.initialSkill += section(escape('ESCAPED-by-bundle.sh'));
    bundle.run.status = 'paused';
    writeFileSync(join(dir, 'evil-bundle.json'), JSON.stringify(bundle));
    const taken = await cli(['resume', '--bundle', 'evil-bundle.json', '--config', 'agent.json', '--out', 'evil-taken']);
    expect(taken.code, taken.stderr).toBe(2);
    expect(taken.stderr).toMatch(/run\.initialSkill: the file section ".*ESCAPED-by-bundle\.sh" names no reference file/);
    expect(readdirSync(dir).filter((f) => f.startsWith('ESCAPED'))).toEqual([]);
  }, 120_000); // two runner processes: half a minute on a busy machine

  it('a run that learned nothing says whether the agent failed or the skill did', async () => {
    const r = await cli(['train', '--config', config('clueless.json', {}, { epochs: 1 }), '--out', 'clueless'], { FAKE_AGENT_MODE: 'clueless' });
    expect(r.code).toBe(100); // completed, no lift
    // The run's own diagnosis, as the page shows it: the agent answered, so the skill's edits are to blame.
    expect(r.stderr).toMatch(/No step was accepted\. In \d+ steps?, /);
    expect(r.stderr).not.toMatch(/rollouts failed with errors/);
    expect(r.stderr).toContain('report.html');
  }, 180_000);

  it('scores the same after a transient failure of every first attempt: asked again, never scored', async () => {
    const plain = await cli(['eval', '--config', config('eval.json'), '--split', 'val', '--json']);
    expect(plain.code).toBe(0);
    evaluated = plain.stdout.trim();
    expect(JSON.parse(evaluated)).toMatchObject({ errors: 0 });
    const state = join(dir, 'flaky-state');
    const r = await cli(['eval', '--config', 'eval.json', '--split', 'val', '--json'], {
      FAKE_AGENT_MODE: 'flaky',
      FAKE_AGENT_STATE: state,
      // The agent gets none of the runner's keys and tokens, nor what passEnv does not name (issue #39 M2).
      SKILLWRIGHT_JUDGE_API_KEY: 'sk-judge-secret',
      SKILLWRIGHT_MCP_SHOP_TOKEN: 'mcp-shop-secret',
      OPENAI_API_KEY: 'sk-not-passed',
      AGENT_LOGIN: 'agent-own-login',
    });
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe(evaluated);
    const tasks = attempts(state);
    expect(tasks.length).toBe(2 * new Set(tasks).size); // each task failed once, then answered
    expect(agentWorkspaces(r.tmp)).toEqual([]);
    const envs = readFileSync(join(state, 'env.log'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as string[]);
    expect(new Set(envs.map((e) => JSON.stringify(e.filter((n) => /KEY|TOKEN|SKILLWRIGHT|LOGIN/.test(n)))))).toEqual(
      new Set([JSON.stringify(['AGENT_LOGIN'])]),
    );
    expect(envs[0]).toContain('PATH');
  }, 120_000);

  it('asks again an agent that overran its time limit', async () => {
    const state = join(dir, 'slow-state');
    const r = await cli(['eval', '--config', config('slow.json', { timeoutMs: 5000 }, { targetConcurrency: 12 }), '--split', 'val', '--json'], {
      FAKE_AGENT_MODE: 'slow-once',
      FAKE_AGENT_STATE: state,
    });
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe(evaluated);
    expect(agentWorkspaces(r.tmp)).toEqual([]);
  }, 120_000);

  it('an agent that never finishes is an error, not a wrong answer: the evaluation pauses', async () => {
    const r = await cli(
      ['eval', '--config', config('hang.json', { timeoutMs: 1000, maxRetries: 0 }), '--split', 'val', '--json'],
      { FAKE_AGENT_MODE: 'hang' },
    );
    expect(r.code).toBe(3); // paused, nothing scored
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/did not finish within 1 s/);
    expect(r.stderr).toMatch(/not scored as wrong answers/);
    expect(agentWorkspaces(r.tmp)).toEqual([]);
  }, 120_000);

  it('kills what an agent started, after each item and at its time limit: a process holding its output holds nothing (issue #39 M3)', async () => {
    writeFileSync(join(dir, 'tiny.json'), JSON.stringify(makeWorldItems(8, 4)));
    const small = { batchSize: 2, minibatchSize: 2, mergeBatchSize: 2, slowUpdateSamples: 2 };
    const [state, hungState] = [join(dir, 'orphan-state'), join(dir, 'orphan-hang-state')];
    const done = await cli(
      ['eval', '--config', config('orphan.json', { timeoutMs: 30_000, maxRetries: 0 }, small), '--data', 'tiny.json', '--split', 'val', '--json'],
      { FAKE_AGENT_ORPHAN: '1', FAKE_AGENT_STATE: state },
    );
    expect(done.code, done.stderr).toBe(0);
    expect(JSON.parse(done.stdout.trim())).toMatchObject({ errors: 0 });
    const hung = await cli(
      ['eval', '--config', config('orphan-hang.json', { timeoutMs: 1000, maxRetries: 0 }, small), '--data', 'tiny.json', '--split', 'val'],
      { FAKE_AGENT_MODE: 'hang', FAKE_AGENT_ORPHAN: '1', FAKE_AGENT_STATE: hungState },
    );
    expect(hung.code).toBe(3);
    expect(hung.stderr).toMatch(/did not finish within 1 s/);
    const pids = [state, hungState].flatMap((s) => readFileSync(join(s, 'orphans.log'), 'utf8').trim().split('\n').map(Number));
    expect(pids.length).toBeGreaterThanOrEqual(2);
    expect(pids.filter(running)).toEqual([]);
  }, 120_000); // two runner processes: half a minute on a busy machine

  it('an expired login stops the run at once, naming it, with nothing scored', async () => {
    const state = join(dir, 'login-state');
    const r = await cli(['train', '--config', 'agent.json', '--out', 'logged-out'], {
      FAKE_AGENT_MODE: 'logged-out',
      FAKE_AGENT_STATE: state,
    });
    expect(r.code).toBe(3); // paused: the person must sign the agent in
    expect(r.stderr).toMatch(/Please log in again \(codex login\)/);
    // Only the calls already in flight ran: the run stopped at the first answer.
    expect(attempts(state).length).toBeLessThanOrEqual(3);
    const records = readFileSync(join(dir, 'logged-out', 'run.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { t: string; v: { reasonKind?: string } });
    expect(records.filter((x) => x.t === 'rollout')).toEqual([]); // nothing scored, not even as an error
    expect(records.filter((x) => x.t === 'state').at(-1)?.v.reasonKind).toBe('llm_fatal');
  }, 120_000);
});
