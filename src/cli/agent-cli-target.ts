/**
 * An agent CLI as the target (issue #31): each rollout runs the real agent once, in a fresh
 * temporary workspace holding the skill where the agent reads skills (AGENTS.md, or a SKILL.md
 * package under its skills folder), with the task on standard input or as an argument; its final
 * answer comes from standard output or a file, its transcript (when it writes one) becomes the
 * row's trajectory. Transient failures (empty output, a timeout, a crash) are asked again and
 * never scored; fatal ones (an expired login, a model the account cannot use, an outdated CLI)
 * stop the run at once with the agent's own words. The agent leads a process group of its own:
 * on a timeout, a cancel and after each item the whole group is killed, so nothing it started
 * outlives the item or holds the run. The workspace is removed after each item. This is the
 * process part of the Target port's harness adapter (engine/target/harness.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import {
  closeSync,
  constants,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { agentEnvironment, type AgentCommand } from '../core/agent/agent-command';
import { classifyAgentFailure, errorLines } from '../core/agent/agent-failure';
import { readAgentTranscript } from '../core/agent/agent-transcript';
import { splitBundle } from '../core/skill/skill-package';
import { isSectionPath } from '../core/skill/package-paths';
import { LlmError } from '../engine/ports';
import type { AgentHarness, HarnessAnswer } from '../engine/target/harness';

/** Output kept of a run, for the answer and the messages (a runaway agent is cut, not stored whole). */
const MAX_OUTPUT = 1_000_000;

interface Attempt {
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/**
 * Write the skill where the agent reads it: a package's references beside its SKILL.md — only
 * `references/….md` inside the skill's folder, whatever a section's marker says (issue #39 H4).
 */
export function installSkill(ws: string, skillFile: string, skill: string): void {
  const path = join(ws, skillFile);
  mkdirSync(dirname(path), { recursive: true });
  if (basename(skillFile) !== 'SKILL.md') return writeFileSync(path, skill);
  const { main, files } = splitBundle(skill);
  const folder = resolve(dirname(path));
  const outside = files.find((f) => {
    const rel = relative(folder, resolve(folder, f.path));
    return !isSectionPath(f.path) || rel.startsWith('..') || isAbsolute(rel);
  });
  if (outside)
    throw new LlmError(
      'bad_request',
      `The skill holds a file section ${JSON.stringify(outside.path.slice(0, 200))}, which is no reference file inside its package (references/….md): nothing was written or run.`,
      { role: 'target' },
    );
  // Agents find a skill by its frontmatter: a bundle's body has none, so it gets a plain one.
  const name = basename(dirname(path)) || 'skill';
  const body = main.startsWith('---\n')
    ? main
    : `---\nname: ${name}\ndescription: The skill being trained.\n---\n${main}`;
  writeFileSync(path, body);
  for (const f of files) {
    const p = join(dirname(path), f.path);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, f.text);
  }
}

/**
 * A file the agent wrote in its workspace, at most MAX_OUTPUT bytes of it (issue #39 L4); null
 * when it is absent, a link, or reached through one: the agent may not export files through it.
 */
export function workspaceFile(ws: string, file: string): string | null {
  const path = join(ws, file);
  try {
    const stat = lstatSync(path);
    if (!stat.isFile() || relative(realpathSync(ws), realpathSync(path)).startsWith('..')) return null;
    const fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
    try {
      const bytes = Buffer.alloc(Math.min(stat.size, MAX_OUTPUT));
      return bytes.subarray(0, readSync(fd, bytes, 0, bytes.length, 0)).toString('utf8');
    } finally {
      closeSync(fd);
    }
  } catch {
    return null;
  }
}

/** How long an agent's output pipes may stay open after it exited (a process it left holds them). */
const PIPE_GRACE_MS = 500;
/** Each agent leads a process group of its own, so it and all it started are stopped together. */
const OWN_GROUP = process.platform !== 'win32';

/** Kill the agent and every process it started (issue #39 M3); nothing when they are gone. */
function killGroup(child: ChildProcess): void {
  try {
    if (OWN_GROUP && child.pid) process.kill(-child.pid, 'SIGKILL');
    else child.kill('SIGKILL');
  } catch {
    // The group is gone already.
  }
}

function run(cmd: AgentCommand, ws: string, task: string, timeoutMs: number, signal?: AbortSignal): Promise<Attempt> {
  return new Promise((resolve, reject) => {
    // A task that starts with "-" would be read as an option (issue #39 L3): a space keeps it the task.
    const asArgument = task.startsWith('-') ? ` ${task}` : task;
    const args = cmd.command.slice(1).map((a) => (cmd.task === 'argument' && a === '{task}' ? asArgument : a));
    // The agent runs commands a model chooses: it gets no key or token of the runner's (issue #39 M2).
    const env = agentEnvironment(process.env, cmd.passEnv);
    const child = spawn(cmd.command[0], args, { cwd: ws, env, stdio: ['pipe', 'pipe', 'pipe'], detached: OWN_GROUP });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    let settled = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child);
    }, timeoutMs);
    const onAbort = () => killGroup(child);
    signal?.addEventListener('abort', onAbort, { once: true });
    let grace: ReturnType<typeof setTimeout> | undefined;
    // Settled once the agent's pipes close, or shortly after it exits: a process it left running
    // may hold them open for good. Whatever it left is killed with its group, every time.
    const settle = (code: number | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(grace);
      signal?.removeEventListener('abort', onAbort);
      killGroup(child);
      child.stdout.destroy();
      child.stderr.destroy();
      resolve({ code, stdout, stderr, timedOut });
    };
    child.stdout.on('data', (d: Buffer) => (stdout = (stdout + d.toString()).slice(0, MAX_OUTPUT)));
    child.stderr.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(0, MAX_OUTPUT)));
    child.on('error', (e) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      reject(
        new LlmError('bad_request', `The agent CLI "${cmd.command[0]}" cannot be started: ${e.message}`, {
          role: 'target',
        }),
      );
    });
    child.on('exit', (code) => (grace = setTimeout(() => settle(code), PIPE_GRACE_MS)));
    child.on('close', (code) => settle(code));
    child.stdin.on('error', () => undefined); // an agent that does not read its input
    child.stdin.end(cmd.task === 'stdin' ? task : '');
  });
}

const tokens = (chars: number) => Math.max(1, Math.ceil(chars / 4));

/** An agent CLI as the engine's agent harness (engine/target/harness.ts): `solve` runs the agent on one task. */
export function agentCliTarget(
  cmd: AgentCommand,
  o: { timeoutMs: number; maxRetries: number; backoffMs?: number },
): AgentHarness {
  return {
    label: `agent CLI ${basename(cmd.command[0])}`,
    async solve(req): Promise<HarnessAnswer> {
      const { skill, prompt: task } = req;
      // No program takes a NUL in an argument (issue #39 L2): this item is an error row, the run goes on.
      if (cmd.task === 'argument' && task.includes('\0'))
        throw new LlmError(
          'server',
          'The task holds a NUL character, which no program can take as an argument: this item was not run (give the agent its task on standard input: "task": "stdin").',
          { role: 'target' },
        );
      let last = '';
      for (let attempt = 1; attempt <= o.maxRetries + 1; attempt++) {
        if (req.signal?.aborted) throw new LlmError('aborted', 'The call was cancelled.', { role: 'target' });
        const ws = mkdtempSync(join(tmpdir(), 'skillwright-agent-'));
        try {
          installSkill(ws, cmd.skillFile, skill);
          const r = await run(cmd, ws, task, o.timeoutMs, req.signal);
          if (req.signal?.aborted) throw new LlmError('aborted', 'The call was cancelled.', { role: 'target' });
          const output = `${r.stderr}\n${r.stdout}`;
          const answer = (cmd.answerFile ? (workspaceFile(ws, cmd.answerFile) ?? '') : r.stdout).trim();
          if (r.timedOut) last = `it did not finish within ${Math.round(o.timeoutMs / 1000)} s`;
          else if (r.code !== 0 || !answer) {
            const kind = classifyAgentFailure(output);
            if (kind !== 'transient')
              throw new LlmError(kind, `The agent CLI stopped: ${errorLines(output) || `exit code ${r.code}`}`, {
                role: 'target',
              });
            last = r.code !== 0 ? `exit code ${r.code}: ${errorLines(output)}` : 'it gave no answer';
          } else {
            const written = cmd.transcriptFile ? workspaceFile(ws, cmd.transcriptFile) : null;
            const transcript = written ? readAgentTranscript(written) : [];
            return {
              text: answer,
              usage: {
                promptTokens: tokens(skill.length + task.length),
                completionTokens: tokens(answer.length),
                reasoningTokens: 0,
              },
              usageEstimated: true,
              ...(transcript.length ? { transcript } : {}),
            };
          }
        } finally {
          rmSync(ws, { recursive: true, force: true });
        }
        if (attempt <= o.maxRetries) await new Promise((r) => setTimeout(r, (o.backoffMs ?? 500) * attempt));
      }
      // Never a wrong answer: an error row, asked again when the run resumes.
      throw new LlmError(
        last.startsWith('it did not finish') ? 'timeout' : 'server',
        `The agent CLI failed ${o.maxRetries ? `${o.maxRetries + 1} times` : 'once'} (last: ${last}).`,
        { role: 'target' },
      );
    },
  };
}
