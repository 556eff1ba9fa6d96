/**
 * Published agent CLIs for the runner's tests (issue #42), installed once from npm into
 * `.cache/agent-clis/` (git-ignored; .ci/run fills it before the tests) at pinned versions.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = new URL('../../.cache/agent-clis/', import.meta.url).pathname;
/** The versions the streams in test/fixtures/agent-streams/ were recorded with. */
export const AGENT_CLI_VERSIONS = { '@mariozechner/pi-coding-agent': '0.73.1', '@qwen-code/qwen-code': '0.15.10' };

/** The path of an installed CLI's program, installing the pinned packages first when missing. */
export function agentCli(program: 'pi' | 'qwen'): string {
  const bin = join(ROOT, 'node_modules', '.bin', program);
  if (existsSync(bin)) return bin;
  mkdirSync(ROOT, { recursive: true });
  writeFileSync(join(ROOT, 'package.json'), '{"name":"agent-clis","private":true}\n');
  const specs = Object.entries(AGENT_CLI_VERSIONS).map(([name, v]) => `${name}@${v}`);
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--ignore-scripts', ...specs], {
    cwd: ROOT,
    stdio: 'ignore',
  });
  return bin;
}
