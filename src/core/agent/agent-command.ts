/**
 * An agent CLI as the target (issue #31): the command a runner starts once per item, in a fresh
 * workspace holding the skill where that agent reads skills, and where its answer and transcript
 * are found. Only the headless runner can start processes; the page names the limit.
 */
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
}

/**
 * What every agent process gets from the runner's environment (issue #39 M2): where programs,
 * home and temporary files are, the locale, proxies and certificates — never the runner's
 * SKILLWRIGHT_* keys and MCP tokens, nor anything else unless the config's `passEnv` names it.
 */
const AGENT_BASE_ENV =
  /^(?:PATH|HOME|USER|LOGNAME|SHELL|LANG|LANGUAGE|TERM|TZ|TMPDIR|TMP|TEMP|LC_[A-Z_]+|XDG_[A-Z_]+|SYSTEMROOT|COMSPEC|PATHEXT|WINDIR|USERPROFILE|APPDATA|LOCALAPPDATA|PROGRAMDATA|PROGRAMFILES|HOMEDRIVE|HOMEPATH|HTTPS?_PROXY|NO_PROXY|ALL_PROXY|NODE_EXTRA_CA_CERTS|SSL_CERT_FILE|SSL_CERT_DIR)$/i;

/** A runner variable no agent is given, even when `passEnv` names it: the keys of the other roles and MCP tokens. */
const isRunnerSecret = (name: string) => /^SKILLWRIGHT_/i.test(name);

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
    !(Array.isArray(passEnv) && passEnv.every((n) => typeof n === 'string' && /^[A-Za-z_][A-Za-z0-9_]{0,127}$/.test(n)))
  )
    return { problem: '"passEnv" must be a list of environment variable names, e.g. ["CODEX_HOME"]' };
  const secret = (passEnv as string[] | undefined)?.find(isRunnerSecret);
  if (secret)
    return {
      problem: `"passEnv" names ${secret}: the runner's keys and MCP tokens are never given to the agent, which runs commands a model chooses`,
    };
  return {
    command: {
      command: c as string[],
      skillFile: skillFile as string,
      task,
      ...(typeof raw.answerFile === 'string' ? { answerFile: raw.answerFile } : {}),
      ...(typeof raw.transcriptFile === 'string' ? { transcriptFile: raw.transcriptFile } : {}),
      ...(passEnv ? { passEnv: passEnv as string[] } : {}),
    },
  };
}

/** Why an agent CLI failed, from its own words (issue #42: core/agent/agent-failure.ts). */
export { classifyAgentFailure } from './agent-failure';
