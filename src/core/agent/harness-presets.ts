/**
 * The agent harnesses people run, as presets (issue #42): `{"agent": "pi", "model"?, "args"?}`
 * expands to the command, its non-interactive and auto-approve flags, where that harness reads a
 * skill and a context file, how the task reaches it, and the environment that points it at an
 * OpenAI-compatible (or its own provider's) endpoint. The key goes into one environment variable,
 * never into argv or a file. Without a base URL the harness uses its own login (a subscription).
 * Each was run against the test server and its streams recorded (test/fixtures/agent-streams/).
 */
import { AGENT_KEY_ENV, type AgentCommand } from './agent-command';
import { HARNESSES, type HarnessName } from './harness-names';

export { AGENT_KEY_ENV, HARNESSES, type HarnessName };

/** The name of the endpoint's provider in a harness's own config. */
const PROVIDER = 'skillwright';

/** The wire API a harness speaks to its endpoint. */
export type HarnessApi = 'chat' | 'responses' | 'anthropic-messages' | 'gemini';

export interface HarnessPreset {
  name: HarnessName;
  /** The npm package that installs it, and its program. */
  npm: string;
  program: string;
  api: HarnessApi;
  /** Where the skill package is written (`{name}`: the skill's name) and the context file it reads. */
  skillFile: string;
  contextFile: string;
  /** The variable the harness reads its key from (set from the target's key; never argv). */
  keyEnv: string;
  /** How the task reaches it: standard input, or an argument after `--` (OpenCode). */
  task: 'stdin' | 'argument';
}

/** A harness preset expanded: the command with its stream, environment, files and key variable. */
export interface HarnessLaunch {
  preset: HarnessPreset;
  command: AgentCommand;
}

/** Flags, environment (`{workspace}`: the item's folder) and config files of a harness (never a key). */
interface LaunchParts {
  argv: string[];
  env: Record<string, string>;
  files: { path: string; text: string }[];
}

export const PRESETS: Record<HarnessName, HarnessPreset> = {
  codex: {
    name: 'codex',
    npm: '@openai/codex',
    program: 'codex',
    api: 'responses',
    skillFile: '.agents/skills/{name}/SKILL.md',
    contextFile: 'AGENTS.md',
    keyEnv: AGENT_KEY_ENV,
    task: 'stdin',
  },
  claude: {
    name: 'claude',
    npm: '@anthropic-ai/claude-code',
    program: 'claude',
    api: 'anthropic-messages',
    skillFile: '.claude/skills/{name}/SKILL.md',
    contextFile: 'CLAUDE.md',
    keyEnv: 'ANTHROPIC_API_KEY',
    task: 'stdin',
  },
  opencode: {
    name: 'opencode',
    npm: 'opencode-ai',
    program: 'opencode',
    api: 'chat',
    skillFile: '.agents/skills/{name}/SKILL.md',
    contextFile: 'AGENTS.md',
    keyEnv: AGENT_KEY_ENV,
    task: 'argument',
  },
  pi: {
    name: 'pi',
    npm: '@mariozechner/pi-coding-agent',
    program: 'pi',
    api: 'chat',
    skillFile: '.agents/skills/{name}/SKILL.md',
    contextFile: 'AGENTS.md',
    keyEnv: AGENT_KEY_ENV,
    task: 'stdin',
  },
  qwen: {
    name: 'qwen',
    npm: '@qwen-code/qwen-code',
    program: 'qwen',
    api: 'chat',
    skillFile: '.agents/skills/{name}/SKILL.md',
    contextFile: 'QWEN.md',
    keyEnv: 'OPENAI_API_KEY',
    task: 'stdin',
  },
  gemini: {
    name: 'gemini',
    npm: '@google/gemini-cli',
    program: 'gemini',
    api: 'gemini',
    skillFile: '.gemini/skills/{name}/SKILL.md',
    contextFile: 'GEMINI.md',
    keyEnv: 'GEMINI_API_KEY',
    task: 'stdin',
  },
};

export interface HarnessTarget {
  agent: HarnessName;
  model?: string;
  /** Extra arguments, after the preset's own. */
  args?: string[];
  /** The endpoint; unset: the harness's own login and provider. */
  baseURL?: string;
}

interface Endpoint {
  model?: string;
  baseURL?: string;
}

/** Flags, environment and config files of each harness. */
const LAUNCH: Record<HarnessName, (e: Endpoint) => LaunchParts> = {
  codex: ({ model, baseURL }) => ({
    // exec: non-interactive; the sandbox keeps writes in the workspace, approvals never asked.
    argv: [
      'exec',
      '--json',
      '--skip-git-repo-check',
      '--ephemeral',
      '--sandbox',
      'workspace-write',
      '-c',
      'approval_policy="never"',
      ...(model ? ['-m', model] : []),
      ...(baseURL
        ? [
            '-c',
            `model_provider="${PROVIDER}"`,
            '-c',
            `model_providers.${PROVIDER}.name="${PROVIDER}"`,
            '-c',
            `model_providers.${PROVIDER}.base_url=${JSON.stringify(baseURL)}`,
            '-c',
            `model_providers.${PROVIDER}.env_key="${AGENT_KEY_ENV}"`,
            '-c',
            `model_providers.${PROVIDER}.wire_api="responses"`,
          ]
        : []),
    ],
    env: {},
    files: [],
  }),
  claude: ({ model, baseURL }) => ({
    argv: [
      '-p',
      '--output-format',
      'stream-json',
      '--verbose',
      '--dangerously-skip-permissions',
      ...(model ? ['--model', model] : []),
    ],
    env: {
      DISABLE_AUTOUPDATER: '1',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      ...(baseURL ? { ANTHROPIC_BASE_URL: baseURL } : {}),
    },
    files: [],
  }),
  opencode: ({ model, baseURL }) => ({
    argv: ['run', '--format', 'json', '--auto', ...(model ? ['-m', baseURL ? `${PROVIDER}/${model}` : model] : [])],
    env: {
      OPENCODE_DISABLE_AUTOUPDATE: '1',
      OPENCODE_DISABLE_SHARE: '1',
      ...(baseURL
        ? {
            OPENCODE_CONFIG_CONTENT: JSON.stringify({
              autoupdate: false,
              share: 'disabled',
              provider: {
                [PROVIDER]: {
                  npm: '@ai-sdk/openai-compatible',
                  options: { baseURL, apiKey: `{env:${AGENT_KEY_ENV}}` },
                  models: model ? { [model]: { name: model } } : {},
                },
              },
              ...(model ? { model: `${PROVIDER}/${model}`, small_model: `${PROVIDER}/${model}` } : {}),
            }),
          }
        : {}),
    },
    files: [],
  }),
  pi: ({ model, baseURL }) => ({
    argv: [
      '--mode',
      'json',
      '-p',
      '--no-session',
      ...(model ? ['--model', baseURL ? `${PROVIDER}/${model}` : model] : []),
    ],
    env: { PI_OFFLINE: '1', ...(baseURL ? { PI_CODING_AGENT_DIR: '{workspace}/.skillwright/pi' } : {}) },
    files: baseURL
      ? [
          {
            path: '.skillwright/pi/models.json',
            // apiKey names the variable pi reads the key from; the key itself is never written.
            text: JSON.stringify({
              providers: {
                [PROVIDER]: {
                  baseUrl: baseURL,
                  api: 'openai-completions',
                  apiKey: AGENT_KEY_ENV,
                  compat: { supportsDeveloperRole: false, supportsReasoningEffort: false },
                  models: model ? [{ id: model }] : [],
                },
              },
            }),
          },
          // The runner asks again itself, and counts it: pi's own retries would hide the faults.
          { path: '.skillwright/pi/settings.json', text: JSON.stringify({ retry: { enabled: false } }) },
        ]
      : [],
  }),
  qwen: ({ model, baseURL }) => ({
    argv: [
      '--yolo',
      '--output-format',
      'stream-json',
      ...(baseURL ? ['--auth-type', 'openai'] : []),
      ...(model ? ['-m', model] : []),
    ],
    env: baseURL ? { OPENAI_BASE_URL: baseURL, ...(model ? { OPENAI_MODEL: model } : {}) } : {},
    files: [],
  }),
  gemini: ({ model, baseURL }) => ({
    argv: ['--output-format', 'stream-json', '--yolo', ...(model ? ['-m', model] : [])],
    env: { GEMINI_CLI_TRUST_WORKSPACE: 'true', ...(baseURL ? { GOOGLE_GEMINI_BASE_URL: baseURL } : {}) },
    files: [],
  }),
};

const SKILL_NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;

/**
 * A target `{agent, model?, args?, baseURL?}` expanded — the one place a preset becomes a command —
 * or the problem with it (named by its key). Without a skill name the skill file keeps `{name}`,
 * which the runner fills with the run's skill's name as it writes the skill.
 */
export function expandHarness(
  raw: Record<string, unknown>,
  skillName?: string,
): { launch: HarnessLaunch } | { problem: string } {
  const agent = raw.agent;
  if (typeof agent !== 'string' || !(HARNESSES as readonly string[]).includes(agent))
    return { problem: `"agent" must be one of ${HARNESSES.join(', ')}` };
  if (raw.model !== undefined && (typeof raw.model !== 'string' || !raw.model.trim()))
    return { problem: '"model" must be a model name' };
  const args = raw.args ?? [];
  if (!Array.isArray(args) || !args.every((a) => typeof a === 'string'))
    return { problem: '"args" must be a list of arguments' };
  if (raw.baseURL !== undefined && (typeof raw.baseURL !== 'string' || !/^https?:\/\//.test(raw.baseURL)))
    return { problem: '"baseURL" must be an http(s) address' };
  if (skillName !== undefined && !SKILL_NAME.test(skillName))
    return { problem: `the skill's name "${skillName}" must be lower case letters, digits and -` };
  const preset = PRESETS[agent as HarnessName];
  const { argv, env, files } = LAUNCH[preset.name]({
    model: raw.model as string | undefined,
    baseURL: raw.baseURL as string | undefined,
  });
  // Codex reads the task from standard input only when told so with "-"; "--" keeps a task
  // starting with "-" from being read as an option.
  const tail = preset.name === 'codex' ? ['-'] : preset.task === 'argument' ? ['--', '{task}'] : [];
  return {
    launch: {
      preset,
      command: {
        command: [preset.program, ...argv, ...(args as string[]), ...tail],
        skillFile: skillName ? preset.skillFile.replace('{name}', skillName) : preset.skillFile,
        task: preset.task,
        stream: preset.name,
        ...(Object.keys(env).length ? { env } : {}),
        ...(files.length ? { files } : {}),
        // Without an endpoint the harness signs in its own way (a subscription): no key is given.
        ...(raw.baseURL !== undefined ? { keyEnv: preset.keyEnv } : {}),
      },
    },
  };
}
