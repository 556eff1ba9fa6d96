// An agent's skill trained headless (issue #30): the config's environment (a stateful module and
// tools), a run killed mid-trajectory and resumed by the same command to the same best skill, and
// a module that changed under a paused run refused. A bundle's module is never run (issue #39 H1).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLlmServer, type LlmTestServer } from '../support/llm-server';
import { DOUBLE, LOOKUP, NUMBER, toolWorldItems, toolWorldOptimizer, toolWorldPolicy } from '../support/tool-world';

const BIN = new URL('../../bin/skillwright.mjs', import.meta.url).pathname;
let srv: LlmTestServer;
let dir: string;

/** The catalogue as a module: it knows parts by number only, and counts each episode's lookups. */
const CATALOGUE = `
const NAMES = ['Amber bolt', 'Basalt nut', 'Cobalt gear', 'Dune washer', 'Ember spring', 'Fjord pin'];
export default {
  name: 'catalogue',
  tools: [{ type: 'function', function: { name: 'lookup', description: 'The catalogue entry of a part.',
    parameters: { type: 'object', properties: { code: { type: 'string' } }, required: ['code'] } } }],
  reset() { return { lookups: 0 }; },
  call(name, args, state) {
    state.lookups++;
    const n = Number(args.code);
    if (!/^\\d+$/.test(String(args.code))) return 'no part with that code';
    return NAMES[(n - 100) % 6] + '; weight ' + (((n - 100) % 7) + 1) + ' kg';
  },
  score({ state }) {
    return state.lookups <= 2 ? { hard: 1, soft: 1 } : { hard: 0, soft: 0.5, failReason: 'looked up ' + state.lookups + ' times' };
  },
};
`;

beforeAll(async () => {
  srv = await startLlmServer({ latencyMs: 10, agentPolicy: toolWorldPolicy, optimizerHook: toolWorldOptimizer });
  dir = mkdtempSync(join(tmpdir(), 'skillwright-cli-agent-'));
  const items = toolWorldItems(60).map(({ tool_results: _r, expected_tool_calls: _e, ...rest }) => rest);
  writeFileSync(join(dir, 'data.json'), JSON.stringify(items));
  writeFileSync(join(dir, 'catalogue.mjs'), CATALOGUE);
  writeFileSync(join(dir, 'skill.md'), `# Parts\n\nWeights in the catalogue are in kg: grams = kg × 1000.\n\n${LOOKUP}\n${DOUBLE}\n`);
  writeFileSync(
    join(dir, 'agent.json'),
    JSON.stringify({
      data: 'data.json',
      skill: 'skill.md',
      target: { baseURL: srv.url, model: 'sim-target', maxRetries: 2 },
      optimizer: { baseURL: srv.url, model: 'sim-optimizer', maxRetries: 2 },
      environment: { module: 'catalogue.mjs', maxTurns: 4 },
      run: { epochs: 1, batchSize: 12, minibatchSize: 4, mergeBatchSize: 3, slowUpdateSamples: 8, targetConcurrency: 3, optimizerConcurrency: 3 },
    }),
  );
});
afterAll(() => srv.close());

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Run the CLI; `killWhen` is asked as the run's store grows and SIGKILLs the runner when it says so. */
function cli(args: string[], killWhen?: (store: string) => boolean): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', SKILLWRIGHT_TARGET_API_KEY: 'sk-agent-key' },
    });
    let stdout = '';
    let stderr = '';
    const out = join(dir, args[args.indexOf('--out') + 1], 'run.jsonl');
    const watch = killWhen
      ? setInterval(() => {
          if (existsSync(out) && killWhen(readFileSync(out, 'utf8'))) child.kill('SIGKILL');
        }, 20)
      : undefined;
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => {
      clearInterval(watch);
      resolve({ code, stdout, stderr });
    });
  });
}

const best = (out: string) => readFileSync(join(dir, out, 'best-skill.md'), 'utf8');

describe('an agent trained by the runner (issue #30)', () => {
  let reference = '';

  it('trains with the config’s environment module: its tools, its state per trajectory, its score', async () => {
    const r = await cli(['train', '--config', 'agent.json', '--out', 'ref', '--json']);
    expect(r.stderr).not.toMatch(/Error|problem/);
    expect(r.code).toBe(0);
    reference = best('ref');
    expect(reference).toContain(NUMBER);
    expect(reference).not.toContain(DOUBLE);
    const bundle = JSON.parse(readFileSync(join(dir, 'ref', 'run-bundle.json'), 'utf8')) as {
      run: { environment?: { module?: { fileName: string; hash: string } } };
      rollouts: { trajectory?: { kind: string; name?: string; result?: string }[]; failReason?: string }[];
    };
    expect(bundle.run.environment?.module?.fileName).toBe('catalogue.mjs');
    const calls = bundle.rollouts.flatMap((r) => r.trajectory ?? []).filter((e) => e.kind === 'tool');
    expect(calls.some((c) => c.result === 'no part with that code')).toBe(true);
    expect(calls.some((c) => /^Cobalt gear; weight/.test(c.result ?? ''))).toBe(true);
    // The module's score is one of the checks: an agent that looped was told why.
    expect(bundle.rollouts.some((r) => r.failReason?.includes('looked up 4 times'))).toBe(true);
    expect(readFileSync(join(dir, 'ref', 'report.html'), 'utf8')).toContain('<h2>Agents: trajectories</h2>');
  }, 120_000);

  it('killed mid-trajectory, the same command resumes it to the same best skill', async () => {
    // Killed once the store holds a few trajectory checkpoints of the baseline, and no finished step.
    const dead = await cli(['train', '--config', 'agent.json', '--out', 'killed'], (store) => {
      const turns = store.split('\n').filter((l) => l.includes('"key":"trajectory/')).length;
      return turns >= 6;
    });
    expect(dead.code).toBeNull(); // killed
    const resumed = await cli(['train', '--config', 'agent.json', '--out', 'killed']);
    expect(resumed.stderr).toContain('Continuing the run');
    expect(resumed.code).toBe(0);
    expect(best('killed')).toBe(reference);
  }, 120_000);

  it('takes a bundle’s module in only when the person’s config names the same file', async () => {
    const { environment: _e, ...rest } = JSON.parse(readFileSync(join(dir, 'agent.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(join(dir, 'no-module.json'), JSON.stringify(rest));
    const refused = await cli(['resume', '--bundle', 'ref/run-bundle.json', '--config', 'no-module.json', '--out', 'sent']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/carries an environment module \(catalogue.mjs\)/);
    expect(existsSync(join(dir, 'sent', 'environment'))).toBe(false); // never written, never imported
    const taken = await cli(['resume', '--bundle', 'ref/run-bundle.json', '--config', 'agent.json', '--out', 'sent2']);
    expect(taken.stderr).not.toMatch(/carries an environment module/);
    expect(taken.code).toBe(0);
  }, 60_000);

  it('never runs the module a bundle carries: a source that is not its hash is refused, and a taken-in run needs --config', async () => {
    // A run paused by its cap at the start, so its bundle has sessions left to run.
    const agent = JSON.parse(readFileSync(join(dir, 'agent.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(join(dir, 'priced.json'), JSON.stringify({ ...agent, prices: { target: { input: 1, output: 4 }, optimizer: { input: 1, output: 4 } } }));
    const cap = ['--max-usd', '0.000001'];
    expect((await cli(['train', '--config', 'priced.json', '--out', 'capped', ...cap])).code).toBe(3);
    const pwned = join(dir, 'PWNED.txt');
    const bundle = JSON.parse(readFileSync(join(dir, 'capped', 'run-bundle.json'), 'utf8')) as { run: { environment: { module: { source: string } } } };
    // The hash stays the person's module's; the source is someone else's code.
    bundle.run.environment.module.source = `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(pwned)}, 'ran');\n${CATALOGUE}`;
    writeFileSync(join(dir, 'evil-bundle.json'), JSON.stringify(bundle));
    const evil = await cli(['resume', '--bundle', 'evil-bundle.json', '--config', 'priced.json', '--out', 'victim', ...cap]);
    expect(evil.code, evil.stderr).toBe(2);
    expect(evil.stderr).toMatch(/run\.environment\.module\.hash: is not the hash of the module source the bundle carries/);
    expect(existsSync(pwned)).toBe(false);

    // An honest bundle is taken in on the config's module; later sessions run that file only.
    const taken = await cli(['resume', '--bundle', 'capped/run-bundle.json', '--config', 'priced.json', '--out', 'taken', ...cap]);
    expect(taken.code, taken.stderr).toBe(3);
    const bare = await cli(['resume', '--out', 'taken']);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toMatch(/taken in from a run bundle: its environment module \(catalogue.mjs\) is code someone sent.*Give --config/);
    expect(existsSync(join(dir, 'taken', 'environment'))).toBe(false); // the bundle's copy never written
    const named = await cli(['resume', '--out', 'taken', '--config', 'priced.json']);
    expect(named.code, named.stderr).toBe(3); // paused by the cap again, on the config's module
    expect(named.stderr).not.toMatch(/error/);
  }, 150_000); // five runner processes

  it('refuses to continue a run whose module changed', async () => {
    writeFileSync(join(dir, 'catalogue.mjs'), CATALOGUE.replace("'Amber bolt'", "'Amber screw'"));
    const r = await cli(['train', '--config', 'agent.json', '--out', 'ref']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/the agents' environment module differ/);
    writeFileSync(join(dir, 'catalogue.mjs'), CATALOGUE);
  }, 60_000);
});
