/**
 * An agent CLI as the target (issue #31): each rollout runs the real agent once, in a fresh
 * temporary workspace holding the item's own files when it has a `workspace` (issue #42 item 4)
 * and the skill where the agent reads skills (AGENTS.md, or a SKILL.md package under its skills
 * folder), with the task on standard input or as an argument — the item's `check` runs there
 * after it and scores the row; its final answer comes from standard output or a file, its
 * transcript (when it writes one) becomes the row's trajectory. Transient failures (empty output, a timeout, a crash) are asked again and
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
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
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
import { describeBody, formatSkillFile, skillName, type SkillMeta } from '../core/skill/skill-file';
import { hopelessEvent, readHarnessStream, type HarnessRun } from '../core/agent/harness-streams';
import type { TrajectoryEntry } from '../core/agent/trajectory';
import type { AgentCliOptions } from '../service/target';
import { isSectionPath } from '../core/skill/package-paths';
import { LlmError } from '../engine/ports';
import type { AgentHarness, HarnessAnswer } from '../engine/target/harness';
import type { CheckOutcome, CheckSpec } from '../core/agent/workspace-task';
import { copyWorkspace, findWorkspace } from './workspace-copy';
import { CheckStartError, runCheck } from './workspace-check';

/** Output kept of a run, for the answer and the messages (a runaway agent is cut, not stored whole). */
const MAX_OUTPUT = 1_000_000;
/** 128 KiB less its NUL and the space a task starting with "-" gets. */
const MAX_ARGUMENT_BYTES = 128 * 1024 - 2;

interface Attempt {
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  /** The harness's words for why it cannot succeed, seen mid-run (it was stopped there). */
  hopeless?: string;
}

/**
 * Write the skill where the agent reads it: a package's references beside its SKILL.md — only
 * `references/….md` inside the skill's folder, whatever a section's marker says (issue #39 H4).
 */
export function installSkill(ws: string, skillFile: string, skill: string, meta: Partial<SkillMeta> = {}): void {
  const path = join(ws, skillFileOf(skillFile, skill, meta));
  mkdirSync(dirname(path), { recursive: true });
  // A workspace's own context file (its project's AGENTS.md) is kept: the skill follows it.
  if (basename(skillFile) !== 'SKILL.md') return writeFileSync(path, withOwnContext(path, skill));
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
  // Agents find a skill by its front matter — its description says when to load it: a bundle's
  // body has none, so it gets the package's own (its name is its folder's, as Agent Skills ask).
  const name = basename(dirname(path)) || 'skill';
  writeFileSync(path, main.startsWith('---\n') ? main : formatSkillFile(main, 'skill_md', { ...meta, name }));
  for (const f of files) {
    const p = join(dirname(path), f.path);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, f.text);
  }
}

/** The skill after the workspace's own file at its path (a project's AGENTS.md), if it brought one. */
function withOwnContext(path: string, skill: string): string {
  if (!existsSync(path)) return skill;
  const own = readFileSync(path, 'utf8').trimEnd();
  return own ? `${own}\n\n${skill}` : skill;
}

/** The skill file's path in the workspace, a preset's `{name}` the skill's name (else one from its first line). */
export function skillFileOf(skillFile: string, skill: string, meta: Partial<SkillMeta>): string {
  if (!skillFile.includes('{name}')) return skillFile;
  return skillFile.replaceAll('{name}', skillName(meta.name || describeBody(splitBundle(skill).main)));
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

/**
 * The agent's environment: the basic variables and those `passEnv` names, a preset's own (its
 * `{workspace}` the item's folder), and the target's key in the one variable its harness reads.
 */
function environmentFor(cmd: AgentCommand, ws: string, key: string | undefined): Record<string, string> {
  // The agent runs commands a model chooses: it gets no key or token of the runner's (issue #39 M2).
  const env = agentEnvironment(process.env, cmd.passEnv);
  for (const [k, v] of Object.entries(cmd.env ?? {})) env[k] = v.replaceAll('{workspace}', ws);
  if (cmd.keyEnv && key) env[cmd.keyEnv] = key;
  return env;
}

function run(
  cmd: AgentCommand,
  ws: string,
  task: string,
  o: { timeoutMs: number; key?: string },
  signal?: AbortSignal,
): Promise<Attempt> {
  const stream = cmd.stream;
  const timeoutMs = o.timeoutMs;
  return new Promise((resolve, reject) => {
    // A task that starts with "-" would be read as an option (issue #39 L3): a space keeps it the task.
    const asArgument = task.startsWith('-') ? ` ${task}` : task;
    const args = cmd.command.slice(1).map((a) => (cmd.task === 'argument' && a === '{task}' ? asArgument : a));
    const env = environmentFor(cmd, ws, o.key);
    const child = spawn(cmd.command[0], args, { cwd: ws, env, stdio: ['pipe', 'pipe', 'pipe'], detached: OWN_GROUP });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    let settled = false;
    let hopeless: string | undefined;
    let seen = 0;
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
      resolve({ code, stdout, stderr, timedOut, ...(hopeless ? { hopeless } : {}) });
    };
    // A harness's stream is watched as it comes: an event that means it cannot succeed stops it.
    const watch = () => {
      const end = stdout.lastIndexOf('\n');
      if (!stream || hopeless || end < seen) return;
      for (const line of stdout.slice(seen, end).split('\n')) hopeless ??= hopelessEvent(stream, line) ?? undefined;
      seen = end + 1;
      if (hopeless) killGroup(child);
    };
    child.stdout.on('data', (d: Buffer) => {
      stdout = (stdout + d.toString()).slice(0, MAX_OUTPUT);
      watch();
    });
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

/** What one attempt came to: an answer, a fatal failure (thrown), or why it is asked again. */
type Outcome = { answer: HarnessAnswer } | { retry: string };

/** A harness's stream without its last turn when that turn is the final answer (the port adds it). */
function withoutAnswer(entries: TrajectoryEntry[], answer: string): TrajectoryEntry[] {
  const last = entries.at(-1);
  const isAnswer = last?.kind === 'assistant' && !last.toolCalls?.length && last.content === answer;
  return isAnswer ? entries.slice(0, -1) : entries;
}

/** Stop at once on a fatal kind in the agent's own words; anything else is asked again. */
function failed(words: string, shown: string, fallback: string): { retry: string } {
  const kind = classifyAgentFailure(words);
  if (kind !== 'transient')
    throw new LlmError(kind, `The agent CLI stopped: ${errorLines(shown) || fallback}`, { role: 'target' });
  return { retry: errorLines(shown) ? `${fallback}: ${errorLines(shown)}` : fallback };
}

/**
 * An attempt read from the harness's JSON event stream (a preset's `stream`): the errors the
 * harness reported are the failure — pi and Qwen Code exit 0 with a refused key — its final
 * answer the answer, its turns the trajectory, its tokens the usage.
 */
function fromStream(r: Attempt, stream: HarnessRun, estimate: () => HarnessAnswer['usage'], quiet = false): Outcome {
  if (stream.errors.length) {
    const said = stream.errors.join('\n');
    return failed(`${r.stderr}\n${said}`, said, r.code ? `exit code ${r.code}` : 'the harness reported an error');
  }
  const answer = stream.answer?.trim() ?? '';
  if (r.code !== 0 || (!answer && !quiet)) {
    const output = `${r.stderr}\n${r.stdout}`;
    return r.code !== 0 ? failed(output, output, `exit code ${r.code}`) : { retry: 'it gave no answer' };
  }
  const transcript = withoutAnswer(stream.entries, stream.answer ?? '');
  return {
    answer: {
      text: answer,
      ...(stream.usage
        ? {
            usage: {
              promptTokens: stream.usage.inputTokens,
              completionTokens: stream.usage.outputTokens,
              reasoningTokens: 0,
              // Its own figure (pi, Claude Code, OpenCode report one): billed when the role has no price.
              ...(stream.usage.costUsd ? { reportedUsd: stream.usage.costUsd } : {}),
            },
          }
        : { usage: estimate(), usageEstimated: true }),
      ...(transcript.length ? { transcript } : {}),
    },
  };
}

/** An attempt read from plain output: its answer on standard output (or a file), its transcript from a file. */
function fromOutput(
  r: Attempt,
  cmd: AgentCommand,
  ws: string,
  estimate: (a: string) => HarnessAnswer['usage'],
  quiet = false,
): Outcome {
  const output = `${r.stderr}\n${r.stdout}`;
  const answer = (cmd.answerFile ? (workspaceFile(ws, cmd.answerFile) ?? '') : r.stdout).trim();
  if (r.code !== 0) return failed(output, output, `exit code ${r.code}`);
  if (!answer && !quiet) {
    const kind = classifyAgentFailure(output);
    if (kind !== 'transient') return failed(output, output, 'it gave no answer');
    return { retry: 'it gave no answer' };
  }
  const written = cmd.transcriptFile ? workspaceFile(ws, cmd.transcriptFile) : null;
  const transcript = written ? readAgentTranscript(written) : [];
  return {
    answer: {
      text: answer,
      usage: estimate(answer),
      usageEstimated: true,
      ...(transcript.length ? { transcript } : {}),
    },
  };
}

/** Write a preset's configuration files into the workspace (inside it only: their paths are checked on reading). */
function writeFiles(ws: string, files: readonly { path: string; text: string }[] = []): void {
  for (const f of files) {
    const path = join(ws, f.path);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, f.text);
  }
}

/** The item's workspace, found inside the dataset's folder; a problem stops the run naming the item. */
function workspaceSource(itemId: string, path: string, root: string | undefined): string {
  const refuse = (why: string) =>
    new LlmError('bad_request', `Item "${itemId}", field "workspace": ${why}. Nothing was run.`, { role: 'target' });
  if (!root)
    throw refuse(
      `the runner does not know the dataset's folder to find it in (name the dataset: --data, or "data" in the config given with --config)`,
    );
  const found = findWorkspace(root, path);
  if ('problem' in found) throw refuse(found.problem);
  return found.path;
}

function copyItemWorkspace(itemId: string, source: string, ws: string): void {
  try {
    copyWorkspace(source, ws);
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    throw new LlmError('bad_request', `Item "${itemId}", field "workspace": ${why}. Nothing was run.`, {
      role: 'target',
    });
  }
}

/** The item's check in the agent's folder, with the agent's environment (no key); one that cannot start stops the run. */
async function checkItem(
  cmd: AgentCommand,
  itemId: string,
  check: CheckSpec,
  ws: string,
  signal?: AbortSignal,
): Promise<CheckOutcome> {
  try {
    const outcome = await runCheck(check, ws, agentEnvironment(process.env, cmd.passEnv), { itemId, signal });
    if (signal?.aborted) throw new LlmError('aborted', 'The call was cancelled.', { role: 'target' });
    return outcome;
  } catch (e) {
    if (e instanceof CheckStartError) throw new LlmError('bad_request', e.message, { role: 'target' });
    throw e;
  }
}

/** An agent CLI as the engine's agent harness (engine/target/harness.ts): `solve` runs the agent on one task. */
export function agentCliTarget(
  cmd: AgentCommand,
  o: AgentCliOptions & { backoffMs?: number; workspaceRoot?: string },
): AgentHarness {
  return {
    label: `agent CLI ${basename(cmd.command[0])}`,
    workspaces: true,
    async solve(req): Promise<HarnessAnswer> {
      const { skill, prompt: task, item } = req;
      const source = item?.workspace ? workspaceSource(item.id, item.workspace, o.workspaceRoot) : null;
      // An item with a check is done when its check says so: the agent may work and say nothing.
      const quiet = Boolean(item?.check);
      // No program takes a NUL in an argument (issue #39 L2): this item is an error row, the run goes on.
      if (cmd.task === 'argument' && task.includes('\0'))
        throw new LlmError(
          'server',
          'The task holds a NUL character, which no program can take as an argument: this item was not run (give the agent its task on standard input: "task": "stdin").',
          { role: 'target' },
        );
      // Linux takes one argument of at most 128 KiB (MAX_ARG_STRLEN): a longer task fails to start.
      const bytes = Buffer.byteLength(task);
      if (cmd.task === 'argument' && bytes > MAX_ARGUMENT_BYTES)
        throw new LlmError(
          'server',
          `The task is ${Math.ceil(bytes / 1024)} KiB, longer than one program argument may be (128 KiB): this item was not run (give the agent its task on standard input: "task": "stdin").`,
          { role: 'target' },
        );
      const estimate = (answer: string) => ({
        promptTokens: tokens(skill.length + task.length),
        completionTokens: tokens(answer.length),
        reasoningTokens: 0,
      });
      let last = '';
      for (let attempt = 1; attempt <= o.maxRetries + 1; attempt++) {
        if (req.signal?.aborted) throw new LlmError('aborted', 'The call was cancelled.', { role: 'target' });
        const ws = mkdtempSync(join(tmpdir(), 'skillwright-agent-'));
        try {
          if (source) copyItemWorkspace(item!.id, source, ws);
          writeFiles(ws, cmd.files);
          // The optimizer's task holds the skill it works on: no skill file is its to load.
          if (o.role !== 'optimizer') installSkill(ws, cmd.skillFile, skill, o.skill);
          const r = await run(cmd, ws, task, o, req.signal);
          if (req.signal?.aborted) throw new LlmError('aborted', 'The call was cancelled.', { role: 'target' });
          // Claude Code retries a refused key for minutes: its first retry of one is the answer.
          if (r.hopeless)
            throw new LlmError(
              'auth',
              `The agent CLI stopped: its key was refused (${r.hopeless}); it would only retry.`,
              {
                role: 'target',
              },
            );
          if (r.timedOut) last = `it did not finish within ${Math.round(o.timeoutMs / 1000)} s`;
          else {
            const got = cmd.stream
              ? fromStream(r, readHarnessStream(cmd.stream, r.stdout), () => estimate(r.stdout), quiet)
              : fromOutput(r, cmd, ws, estimate, quiet);
            if ('answer' in got) {
              if (!item?.check) return got.answer;
              // The check runs where the agent worked, before the folder is removed; it scores the row.
              return { ...got.answer, check: await checkItem(cmd, item.id, item.check, ws, req.signal) };
            }
            last = got.retry;
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
