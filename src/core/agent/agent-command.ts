/**
 * An agent CLI as the target (issue #31): the command a runner starts once per item, in a fresh
 * workspace holding the skill where that agent reads skills, and where its answer and transcript
 * are found. Only the headless runner can start processes; the page names the limit.
 */
import { HARNESSES, type HarnessName } from './harness-names';
export interface AgentCommand {
  /** argv; an argument "{task}" is replaced by the task when `task` is "argument". */
  command: string[];
  /** Where the skill is written in the workspace: "AGENTS.md", or a SKILL.md under the agent's skills folder. */
  skillFile: string;
  /** How the task reaches the agent. */
  task: 'stdin' | 'argument';
  /** A file in the workspace holding the final answer; else standard output. */
  answerFile?: string;
  /** A file in the workspace where the agent writes its transcript (JSON lines: core/agent/agent-transcript.ts). */
  transcriptFile?: string;
  /** Environment variables the agent needs beyond the basic ones (`AGENT_BASE_ENV`), e.g. its own login. */
  passEnv?: string[];
  /**
   * The harness whose JSON event stream its standard output is (issue #42, core/agent/harness-streams.ts):
   * the answer, the trajectory, the tokens and the harness's own error words are read from it.
   */
  stream?: HarnessName;
  /** Variables set for the agent (a preset's: where its config is); `{workspace}` is the item's folder. */
  env?: Record<string, string>;
  /** Files written in the workspace before the agent starts (a preset's configuration, never a key). */
  files?: { path: string; text: string }[];
  /** The variable the target's key is given in (SKILLWRIGHT_TARGET_API_KEY's value); only that one key. */
  keyEnv?: string;
}

/** The variable the runner puts the target's key in for harnesses whose config names a variable. */
export const AGENT_KEY_ENV = 'SKILLWRIGHT_AGENT_API_KEY';

/**
 * What every agent process gets from the runner's environment (issue #39 M2): where programs,
 * home and temporary files are, the locale, proxies and certificates — never the runner's
 * SKILLWRIGHT_* keys and MCP tokens, nor anything else unless the config's `passEnv` names it.
 */
const AGENT_BASE_ENV =
  /^(?:PATH|HOME|USER|LOGNAME|SHELL|LANG|LANGUAGE|TERM|TZ|TMPDIR|TMP|TEMP|LC_[A-Z_]+|XDG_[A-Z_]+|SYSTEMROOT|COMSPEC|PATHEXT|WINDIR|USERPROFILE|APPDATA|LOCALAPPDATA|PROGRAMDATA|PROGRAMFILES|HOMEDRIVE|HOMEPATH|HTTPS?_PROXY|NO_PROXY|ALL_PROXY|NODE_EXTRA_CA_CERTS|SSL_CERT_FILE|SSL_CERT_DIR)$/i;

/** A runner variable no agent is given, even when `passEnv` names it: the keys of the other roles and MCP tokens. */
const isRunnerSecret = (name: string) => /^SKILLWRIGHT_/i.test(name);
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The environment an agent process starts with: the basic variables and those `passEnv` names. */
export function agentEnvironment(
  env: Readonly<Record<string, string | undefined>>,
  passEnv: readonly string[] = [],
): Record<string, string> {
  const passed = new Set(passEnv);
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env))
    if (v !== undefined && !isRunnerSecret(k) && (AGENT_BASE_ENV.test(k) || passed.has(k))) out[k] = v;
  return out;
}

/** The pseudo-address an agent CLI target is stored under (no key is sent anywhere for it). */
export const AGENT_CLI_URL = 'agent-cli://local';

/** A path inside the workspace: relative, no "..". */
const inside = (p: unknown) =>
  typeof p === 'string' && p.trim() !== '' && !p.startsWith('/') && !p.split(/[\\/]/).includes('..');

/** The config's agent command, or the problem with it (named by its key). */
export function readAgentCommand(raw: Record<string, unknown>): { command: AgentCommand } | { problem: string } {
  const c = raw.command;
  if (!Array.isArray(c) || !c.length || !c.every((x) => typeof x === 'string' && x !== ''))
    return { problem: '"command" must be a list of the program and its arguments, e.g. ["codex", "exec"]' };
  const skillFile = raw.skillFile ?? 'AGENTS.md';
  if (!inside(skillFile)) return { problem: '"skillFile" must be a path inside the workspace, e.g. "AGENTS.md"' };
  const task = raw.task ?? 'stdin';
  if (task !== 'stdin' && task !== 'argument') return { problem: '"task" must be "stdin" or "argument"' };
  if (task === 'argument' && !c.includes('{task}'))
    return { problem: '"task": "argument" needs an argument "{task}" in "command"' };
  for (const k of ['answerFile', 'transcriptFile'] as const)
    if (raw[k] !== undefined && !inside(raw[k])) return { problem: `"${k}" must be a path inside the workspace` };
  const passEnv = raw.passEnv;
  if (
    passEnv !== undefined &&
    !(Array.isArray(passEnv) && passEnv.every((n) => typeof n === 'string' && ENV_NAME.test(n)))
  )
    return { problem: '"passEnv" must be a list of environment variable names, e.g. ["CODEX_HOME"]' };
  const secret = (passEnv as string[] | undefined)?.find(isRunnerSecret);
  if (secret)
    return {
      problem: `"passEnv" names ${secret}: the runner's keys and MCP tokens are never given to the agent, which runs commands a model chooses`,
    };
  const more = harnessParts(raw);
  if ('problem' in more) return more;
  return {
    command: {
      ...more.parts,
      command: c as string[],
      skillFile: skillFile as string,
      task,
      ...(typeof raw.answerFile === 'string' ? { answerFile: raw.answerFile } : {}),
      ...(typeof raw.transcriptFile === 'string' ? { transcriptFile: raw.transcriptFile } : {}),
      ...(passEnv ? { passEnv: passEnv as string[] } : {}),
    },
  };
}

/** A preset's parts of a command (core/agent/harness-presets.ts), or the problem with them. */
function harnessParts(
  raw: Record<string, unknown>,
): { parts: Pick<AgentCommand, 'stream' | 'env' | 'files' | 'keyEnv'> } | { problem: string } {
  const { stream, env, files, keyEnv } = raw;
  if (stream !== undefined && !(HARNESSES as readonly unknown[]).includes(stream))
    return { problem: `"stream" must be one of ${HARNESSES.join(', ')}` };
  if (env !== undefined) {
    if (!isRecord(env) || !Object.entries(env).every(([k, v]) => ENV_NAME.test(k) && typeof v === 'string'))
      return { problem: '"env" must map environment variable names to strings' };
    const secret = Object.keys(env).find(isRunnerSecret);
    if (secret) return { problem: `"env" sets ${secret}: the runner's variables are never the agent's` };
  }
  if (
    files !== undefined &&
    !(Array.isArray(files) && files.every((f) => isRecord(f) && inside(f.path) && typeof f.text === 'string'))
  )
    return { problem: '"files" must be a list of {path, text} inside the workspace' };
  // The one SKILLWRIGHT_* variable an agent may see is the one holding its own key (issue #39 M2).
  if (keyEnv !== undefined && !(typeof keyEnv === 'string' && ENV_NAME.test(keyEnv)))
    return { problem: '"keyEnv" must be an environment variable name' };
  if (typeof keyEnv === 'string' && isRunnerSecret(keyEnv) && keyEnv !== AGENT_KEY_ENV)
    return { problem: `"keyEnv" may name ${AGENT_KEY_ENV} or a variable of the agent's own, not ${keyEnv}` };
  return {
    parts: {
      ...(stream !== undefined ? { stream: stream as HarnessName } : {}),
      ...(env !== undefined ? { env: env as Record<string, string> } : {}),
      ...(files !== undefined
        ? { files: (files as { path: string; text: string }[]).map((f) => ({ path: f.path, text: f.text })) }
        : {}),
      ...(typeof keyEnv === 'string' ? { keyEnv } : {}),
    },
  };
}

/** Why an agent CLI failed, from its own words (issue #42: core/agent/agent-failure.ts). */
export { classifyAgentFailure } from './agent-failure';
