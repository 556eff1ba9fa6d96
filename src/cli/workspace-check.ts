/**
 * An item's check (issue #42 item 4), the runner's part: its shell command run in the item's
 * working folder after the agent, with the agent's restricted environment (no key of the
 * runner's) and the item's time limit. Exit 0 passes; any other exit, or the time limit, fails
 * with the tail of its output as the reason. A command that cannot be started (no shell, or the
 * shell cannot find it: 126/127) is the dataset's problem, not a failed check: it names the item.
 * The check leads a process group of its own, killed whole when it ends or times out.
 */
import { spawn } from 'node:child_process';
import { outputTail, type CheckOutcome, type CheckSpec } from '../core/agent/workspace-task';

/** Output kept of a check: its tail is what a failure reason quotes. */
const KEEP = 64 * 1024;
const OWN_GROUP = process.platform !== 'win32';
/** How long its output pipes may stay open after it exited. */
const PIPE_GRACE_MS = 500;

/** The check could not be started: why, in words that name the item. */
export class CheckStartError extends Error {}

export function runCheck(
  check: CheckSpec,
  cwd: string,
  env: Record<string, string>,
  o: { itemId: string; signal?: AbortSignal },
): Promise<CheckOutcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(check.command, {
      cwd,
      env,
      shell: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: OWN_GROUP,
    });
    let output = '';
    let timedOut = false;
    let done = false;
    const kill = () => {
      try {
        if (OWN_GROUP && child.pid) process.kill(-child.pid, 'SIGKILL');
        else child.kill('SIGKILL');
      } catch {
        // The group is gone already.
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, check.timeoutMs);
    o.signal?.addEventListener('abort', kill, { once: true });
    const keep = (d: Buffer) => (output = (output + d.toString()).slice(-KEEP));
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const finish = (fn: () => void) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      o.signal?.removeEventListener('abort', kill);
      kill(); // whatever it left running
      fn();
    };
    const cannot = (why: string) =>
      new CheckStartError(`The check of item "${o.itemId}" (\`${check.command}\`) cannot be started: ${why}`);
    child.on('error', (e) => finish(() => reject(cannot(e.message))));
    const settle = (code: number | null) =>
      finish(() => {
        clearTimeout(grace);
        if (!timedOut && (code === 126 || code === 127))
          return reject(cannot(outputTail(output, 400) || `exit ${code}`));
        resolve({
          command: check.command,
          exitCode: timedOut ? null : code,
          timedOut,
          output,
          timeoutMs: check.timeoutMs,
        });
      });
    // Settled when its pipes close, or shortly after it exits: a process it left may hold them open.
    let grace: ReturnType<typeof setTimeout> | undefined;
    child.on('exit', (code) => (grace = setTimeout(() => settle(code), PIPE_GRACE_MS)));
    child.on('close', (code) => settle(code));
  });
}
