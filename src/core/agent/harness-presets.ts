/**
 * The agent harnesses people run, as presets (issue #42): `{"agent": "pi", "model"?, "args"?}`
 * expands to the command, its non-interactive and auto-approve flags, where that harness reads a
 * skill and a context file, how the task reaches it, and the environment that points it at an
 * OpenAI-compatible (or its own provider's) endpoint. The key goes into one environment variable,
 * never into argv or a file. Without a base URL the harness uses its own login (a subscription).
 * Each was run against the test server and its streams recorded (test/fixtures/agent-streams/).
 */
import type { AgentCommand } from './agent-command';

export const HARNESSES = ['codex', 'claude', 'opencode', 'pi', 'qwen', 'gemini'] as const;
export type HarnessName = (typeof HARNESSES)[number];

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

/** A harness preset expanded for one run. */
export interface HarnessLaunch {
  preset: HarnessPreset;
  command: AgentCommand;
  /** Environment for the agent (no key); `{workspace}` is the item's workspace folder. */
  env: Record<string, string>;
  /** Files written in the workspace before the agent starts (configuration only, no key). */
  files: { path: string; text: string }[];
}

/** The variable the runner puts the target's key in for harnesses whose config names a variable. */
export const AGENT_KEY_ENV = 'SKILLWRIGHT_AGENT_API_KEY';
const PROVIDER = 'skillwright';

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
const LAUNCH: Record<HarnessName, (e: Endpoint) => Omit<HarnessLaunch, 'preset' | 'command'> & { argv: string[] }> = {
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

/** A target `{agent, model?, args?, baseURL?}` expanded, or the problem with it (named by its key). */
export function expandHarness(
  raw: Record<string, unknown>,
  skillName = 'trained-skill',
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
  if (!SKILL_NAME.test(skillName))
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
        skillFile: preset.skillFile.replace('{name}', skillName),
        task: preset.task,
      },
      env,
      files,
    },
  };
}
