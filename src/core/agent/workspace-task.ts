/**
 * An item's workspace task (issue #42 item 4): `workspace`, a folder or a .zip inside the
 * dataset's folder that is copied into the item's temporary working folder before the agent
 * runs, and `check`, a shell command run there after the agent within a time limit — exit 0
 * passes; otherwise the tail of its output is the failure reason the analysts read. Read and
 * validated here with the rest of the item (problems name the field); the runner copies, runs
 * and removes (cli/workspace-copy.ts, cli/workspace-check.ts). The page cannot run programs.
 */
/** A check command and its time limit. */
export interface CheckSpec {
  command: string;
  timeoutMs: number;
}

/** The raw field names, as datasets write them. */
export const WORKSPACE_FIELDS = { workspace: 'workspace', check: 'check' } as const;

export const DEFAULT_CHECK_TIMEOUT_S = 60;
export const MAX_CHECK_TIMEOUT_S = 3600;
/** The archives a workspace may be (a folder otherwise). */
export const WORKSPACE_ARCHIVES = ['.zip'] as const;
/** Archive kinds we do not unpack: named, so a person is told instead of getting a folder error. */
const OTHER_ARCHIVES = /\.(tar|tar\.gz|tgz|tar\.bz2|tar\.xz|gz|7z|rar)$/i;
/** The tail of a check's output a failure reason keeps (the end is where test runners say what failed). */
export const CHECK_OUTPUT_CHARS = 1500;

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const present = (v: unknown) => v !== undefined && v !== null && v !== '';

/**
 * Why a workspace path cannot be used, or null: it must be relative to the dataset's folder and
 * stay inside it (no absolute path, no `..` that climbs out), and be a folder or a .zip.
 */
export function workspacePathProblem(path: string): string | null {
  const shown = JSON.stringify(path.slice(0, 200));
  if (!path.trim()) return 'must be a path (a folder or a .zip beside the dataset)';
  if (CONTROL.test(path)) return `${shown} holds a control character`;
  if (/^([/\\]|[A-Za-z]:)/.test(path))
    return `${shown} is an absolute path: give it relative to the dataset's folder, inside it`;
  let depth = 0;
  for (const part of path.split(/[/\\]/)) {
    if (part === '..') depth--;
    else if (part && part !== '.') depth++;
    if (depth < 0) return `${shown} leads outside the dataset's folder: a workspace must be inside it`;
  }
  if (depth === 0) return `${shown} is the dataset's folder itself: name a folder or a .zip inside it`;
  if (OTHER_ARCHIVES.test(path)) return `${shown}: only .zip archives are unpacked (or give a folder)`;
  return null;
}

/** Whether the workspace is an archive to unpack (else a folder to copy). */
export const isWorkspaceArchive = (path: string): boolean =>
  WORKSPACE_ARCHIVES.some((ext) => path.toLowerCase().endsWith(ext));

/** An object given as JSON text (a CSV cell) is read as the object. */
function objectFromText(v: unknown): unknown {
  if (typeof v !== 'string' || !v.trim().startsWith('{')) return v;
  try {
    return JSON.parse(v) as unknown;
  } catch {
    return v;
  }
}

/** The item's `workspace` and `check`; `add(field, message)` is told of every problem. */
export function readWorkspaceFields(
  record: Record<string, unknown>,
  add: (field: string, message: string) => void,
  /** The host's own look at the path (the runner's: is it there, inside the dataset's folder?). */
  hostProblem?: (path: string) => string | null,
): { workspace?: string; check?: CheckSpec } {
  const F = WORKSPACE_FIELDS;
  const out: { workspace?: string; check?: CheckSpec } = {};
  const ws = record[F.workspace];
  if (present(ws)) {
    const problem =
      typeof ws === 'string' ? (workspacePathProblem(ws) ?? hostProblem?.(ws.trim()) ?? null) : 'must be a path (text)';
    if (problem) add(F.workspace, problem);
    else out.workspace = (ws as string).trim();
  }
  if (present(record[F.check])) {
    const check = readCheck(objectFromText(record[F.check]), (m) => add(F.check, m));
    if (check) out.check = check;
  }
  return out;
}

/** `check`: a command, or `{command, timeout_s}` (a stored one: `{command, timeoutMs}`). */
function readCheck(raw: unknown, add: (message: string) => void): CheckSpec | undefined {
  const spec = isRecord(raw) ? raw : { command: raw };
  const unknown = Object.keys(spec).filter((k) => !['command', 'timeout_s', 'timeoutMs'].includes(k));
  if (unknown.length) return void add(`"${unknown[0]}" is not a check setting (use command and timeout_s)`);
  const command = spec.command;
  if (typeof command !== 'string' || !command.trim())
    return void add('must be a shell command, or {"command": "…", "timeout_s": 60}');
  if (command.includes('\0')) return void add('the command holds a NUL character');
  let timeoutS = DEFAULT_CHECK_TIMEOUT_S;
  const given = spec.timeout_s ?? (typeof spec.timeoutMs === 'number' ? spec.timeoutMs / 1000 : undefined);
  if (given !== undefined) {
    const n = typeof given === 'number' ? given : Number(given);
    if (!Number.isFinite(n) || n <= 0 || n > MAX_CHECK_TIMEOUT_S)
      return void add(`timeout_s must be a number of seconds above 0, at most ${MAX_CHECK_TIMEOUT_S}`);
    timeoutS = n;
  }
  return { command: command.trim(), timeoutMs: Math.round(timeoutS * 1000) };
}

/** Whether an item needs a runner that starts programs: it has a workspace or a check. */
export const needsRunner = (spec: { workspace?: string; check?: CheckSpec } | undefined): boolean =>
  Boolean(spec?.workspace || spec?.check);

/** What a check came to, as the runner saw it. */
export interface CheckOutcome {
  command: string;
  /** Its exit code; null when it was stopped (timed out). */
  exitCode: number | null;
  timedOut: boolean;
  /** Its standard output and error, interleaved as they came, at most the tail kept. */
  output: string;
  timeoutMs: number;
}

/** The tail of a check's output, as a failure reason quotes it. */
export function outputTail(output: string, chars = CHECK_OUTPUT_CHARS): string {
  const t = output.trim();
  return t.length > chars ? `…${t.slice(-chars)}` : t;
}

/** The failure reasons of checks start so (answerPartOf keeps them: the analysts must see them). */
export const CHECK_FAILED = 'CHECK=0';

/** A check's outcome as one of the row's checks: pass on exit 0; else why, with its output's tail. */
export function checkResult(o: CheckOutcome): { hard: number; soft: number; failReason?: string } {
  if (!o.timedOut && o.exitCode === 0) return { hard: 1, soft: 1 };
  const how = o.timedOut
    ? `timed out after ${Math.round(o.timeoutMs / 1000)} s`
    : `failed with exit code ${o.exitCode ?? 'none'}`;
  const tail = outputTail(o.output);
  return { hard: 0, soft: 0, failReason: `${CHECK_FAILED}: \`${o.command}\` ${how}${tail ? `: ${tail}` : ''}` };
}
