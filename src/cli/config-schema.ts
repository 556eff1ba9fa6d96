/**
 * A JSON Schema of `skillwright.json` (issue #21: one table per knob), generated from the knob
 * table, so an editor that reads `"$schema"` offers each run setting with its range, choices and
 * help. `skillwright schema` prints it; docs/skillwright.schema.json is this output (a test keeps
 * them equal). Validation itself stays with the code that runs (cli/config.ts, core/config/run-config.ts).
 */
import { EFFORTS, WIRES } from '../core/config/capabilities';
import { BATCH_APIS } from '../core/config/batch-api';
import { KNOB_PRESETS, KNOBS, knobValue, type Knob } from '../core/config/knobs';
import { DEFAULT_RUN_CONFIG } from '../core/config/run-config';
import { SERVICE_TIERS } from '../core/config/service-tier';
import { HARNESSES } from '../core/agent/harness-names';
import { keyVariable } from './config-error';

type Schema = Record<string, unknown>;

const knobOf = (key: string) => (KNOBS as readonly Knob[]).find((k) => k.key === key)!;

function knobSchema(k: Knob, fallback: unknown): Schema {
  const c = k.control;
  const base = { title: k.label, description: k.help, default: fallback };
  switch (c.kind) {
    case 'int':
      return { ...base, type: 'integer', minimum: c.min, maximum: c.max };
    case 'number':
      return { ...base, type: 'number', minimum: c.min, maximum: c.max };
    case 'toggle':
      return { ...base, type: 'boolean' };
    case 'choice':
      return { ...base, enum: c.options.map((o) => o.value) };
    case 'usd':
      return {
        title: 'Budget cap',
        description: k.help,
        type: 'object',
        properties: { usd: { type: 'number', exclusiveMinimum: 0 }, tokens: { type: 'integer', exclusiveMinimum: 0 } },
        additionalProperties: false,
      };
  }
}

const price = {
  type: 'object',
  properties: {
    input: { type: 'number', minimum: 0 },
    output: { type: 'number', minimum: 0 },
    cachedInput: { type: 'number', minimum: 0, description: 'Prompt tokens the endpoint served from its cache.' },
  },
  required: ['input', 'output'],
  description: 'USD per million tokens.',
};

/** A confirming target's settings with its own "price" (issue #42 item 5), billed instead of the target's. */
function withOwnPrice(s: Schema): Schema {
  const own = { ...price, description: 'This target’s own price per million tokens; the target’s when absent.' };
  return { ...s, properties: { ...(s.properties as Schema), price: own } };
}

function endpoint(role: 'target' | 'optimizer' | 'judge' | 'userSimulator'): Schema {
  return {
    type: 'object',
    description: `The ${role} model's OpenAI-compatible endpoint. Its key comes from ${keyVariable(role)}, never from this file.`,
    required: ['baseURL', 'model'],
    additionalProperties: false,
    properties: {
      baseURL: { type: 'string', pattern: '^https?://' },
      model: { type: 'string', minLength: 1 },
      temperature: { type: 'number', minimum: 0, maximum: 2 },
      maxOutputTokens: { type: 'integer', minimum: 1 },
      reasoningEffort: {
        enum: ['', ...EFFORTS],
        description:
          'Sent as each call’s reasoning effort, moved to the nearest the model accepts ("": the model’s default).',
      },
      reasoningModel: {
        type: 'boolean',
        description: 'The first guess before `skillwright doctor` has asked: no temperature, max_completion_tokens.',
      },
      api: {
        enum: [...WIRES],
        description:
          'The wire: Chat Completions, or the Responses API (reasoning kept between an agent’s turns). Unset: the capabilities’ choice, else chat.',
      },
      capabilities: {
        type: 'object',
        description: 'What the model accepts, as `skillwright doctor --write` keeps it; requests are built from it.',
      },
      headers: { type: 'object', additionalProperties: { type: 'string' } },
      minimalHeaders: { type: 'boolean' },
      timeoutMs: { type: 'integer', minimum: 1 },
      maxRetries: { type: 'integer', minimum: 0, maximum: 100 },
      serviceTier: {
        enum: [...SERVICE_TIERS],
        description: 'service_tier sent with every call (flex: about half price, slower).',
      },
      ...(role === 'target'
        ? {
            batchApi: {
              enum: [...BATCH_APIS],
              description: 'Send baseline, final validation and test as provider batches (about half price).',
            },
            batchPollMs: { type: 'integer', minimum: 1, description: 'Wait between batch polls (default 30 000).' },
          }
        : {}),
    },
  };
}

const AGENT_TIMING = {
  model: { type: 'string', minLength: 1, description: "The agent's name in reports (default: the program)." },
  timeoutMs: { type: 'integer', minimum: 1, description: 'Time limit per item (default 600 000).' },
  maxRetries: { type: 'integer', minimum: 0, description: 'Attempts after a transient failure (default 2).' },
} satisfies Record<string, Schema>;

/**
 * An agent CLI the runner starts (cli/agent-cli-target.ts): per item as the target (issue #31), per
 * call as the optimizer (issue #42 item 3).
 */
const agentCli = (role: 'target' | 'optimizer'): Schema => ({
  type: 'object',
  description:
    role === 'target'
      ? 'An agent CLI the runner starts once per item in a fresh workspace holding the skill (no key: it signs in its own way).'
      : 'An agent CLI the runner starts once per optimizer call, its final answer the JSON reply (no key: it signs in its own way).',
  required: ['command'],
  additionalProperties: false,
  properties: {
    command: {
      type: 'array',
      items: { type: 'string', minLength: 1 },
      minItems: 1,
      description:
        'The program and its arguments, e.g. ["codex", "exec", "--full-auto"]; "{task}" stands for the task.',
    },
    skillFile: {
      type: 'string',
      description:
        'Where the skill is written in the workspace: "AGENTS.md" (default), or a SKILL.md under the agent\'s skills folder (e.g. ".agents/skills/my-skill/SKILL.md", with its references beside it).',
    },
    task: { enum: ['stdin', 'argument'], description: 'How the task reaches the agent (default stdin).' },
    answerFile: { type: 'string', description: 'A workspace file holding the final answer; else standard output.' },
    transcriptFile: {
      type: 'string',
      description: 'A workspace file where the agent writes its transcript as JSON lines, for the analysts.',
    },
    passEnv: {
      type: 'array',
      items: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]*$' },
      description:
        'Environment variables the agent gets beyond PATH, HOME, the locale, proxies and temporary folders (e.g. its own login: ["CODEX_HOME"]); never a SKILLWRIGHT_* key or token.',
    },
    stream: {
      enum: [...HARNESSES],
      description:
        'The harness whose JSON event stream standard output is: the answer, trajectory, tokens and errors are read from it (a preset sets it).',
    },
    env: {
      type: 'object',
      additionalProperties: { type: 'string' },
      description: 'Variables set for the agent ("{workspace}": the item\'s folder); never a SKILLWRIGHT_* one.',
    },
    files: {
      type: 'array',
      items: {
        type: 'object',
        required: ['path', 'text'],
        properties: { path: { type: 'string' }, text: { type: 'string' } },
      },
      description: 'Configuration files written in the workspace before the agent starts (never a key).',
    },
    keyEnv: {
      type: 'string',
      pattern: '^[A-Za-z_][A-Za-z0-9_]*$',
      description: `The variable the agent reads the ${role}'s key from, set from ${keyVariable(role)}.`,
    },
    model: AGENT_TIMING.model,
    timeoutMs: AGENT_TIMING.timeoutMs,
    maxRetries: AGENT_TIMING.maxRetries,
  },
});

/** A harness preset as the target or the optimizer (issue #42, core/agent/harness-presets.ts). */
const preset = (role: 'target' | 'optimizer'): Schema => ({
  type: 'object',
  description: `A published agent CLI by name: its non-interactive flags, where it reads skills, its event stream and its error words are the preset's. With baseURL it calls that endpoint with ${keyVariable(role)}; without, it signs in its own way.`,
  required: ['agent'],
  additionalProperties: false,
  properties: {
    agent: { enum: [...HARNESSES], description: 'The harness (its program must be on PATH).' },
    model: { type: 'string', minLength: 1, description: 'The model the harness is told to use.' },
    args: { type: 'array', items: { type: 'string' }, description: "Arguments after the preset's own." },
    baseURL: {
      type: 'string',
      pattern: '^https?://',
      description:
        "The endpoint the harness calls (OpenAI-compatible for pi, Qwen Code, OpenCode; Codex's Responses API).",
    },
    timeoutMs: AGENT_TIMING.timeoutMs,
    maxRetries: AGENT_TIMING.maxRetries,
  },
});

export function cliConfigSchema(): Schema {
  const run = Object.fromEntries(
    (KNOBS as readonly Knob[]).map((k) => [k.key, knobSchema(k, knobValue(DEFAULT_RUN_CONFIG, k.key))]),
  );
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: 'skillwright.json',
    description: 'The headless runner’s config: endpoints, prices and run settings, as the page keeps them.',
    type: 'object',
    required: ['target', 'optimizer'],
    properties: {
      $schema: { type: 'string' },
      name: { type: 'string' },
      data: { type: 'string', description: 'Dataset file (JSON, JSONL, CSV or evals.json), relative to this file.' },
      skill: {
        type: 'string',
        description:
          'Starting skill: a .md file, or a skill package (a folder or .zip holding SKILL.md), relative to this file.',
      },
      triggers: {
        type: 'string',
        description:
          'Trigger queries for the activation track (run.activationTrack): a JSON list of {"query", "should_trigger"}, relative to this file; a skill package\'s evals/trigger-evals.json when absent.',
      },
      split: {
        type: 'object',
        description: 'How a dataset without a split column is split (train : val : test), and with which seed.',
        properties: {
          ratio: { type: 'array', items: { type: 'number', minimum: 0 }, minItems: 3, maxItems: 3 },
          seed: { type: 'integer' },
        },
        additionalProperties: false,
      },
      environment: {
        type: 'object',
        description:
          "Where an agent's tools come from (issue #30): with any tool, rollouts call tools over several turns.",
        properties: {
          module: {
            type: 'string',
            description:
              'An ES module, relative to this file, whose default export is { name, tools, reset?(item), call(name, args, state, item), score?({item, messages, answer, state}) }.',
          },
          tools: {
            description:
              'Tools every item is offered: a list of OpenAI function definitions, or a JSON file holding one (relative to this file); items answer them with their tool_results.',
            oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'object' } }],
          },
          maxTurns: { ...knobSchema(knobOf('maxTurns'), undefined), description: 'The same as run.maxTurns.' },
          referencesOnDemand: {
            ...knobSchema(knobOf('referencesOnDemand'), undefined),
            description: 'The same as run.referencesOnDemand.',
          },
          mcp: {
            type: 'array',
            description:
              "MCP servers over Streamable HTTP (issue #31) whose tools the agent calls — for real: tools with side effects act during training. Each server's token comes from SKILLWRIGHT_MCP_<NAME>_TOKEN, never from this file.",
            items: {
              type: 'object',
              properties: {
                url: { type: 'string', description: 'The server’s MCP endpoint, e.g. https://mcp.example.com/mcp.' },
                name: {
                  type: 'string',
                  pattern: '^[a-zA-Z0-9_-]{1,32}$',
                  description:
                    'Prefixes its tools where two servers share a name, and names its token variable (default: from the host).',
                },
                headers: {
                  type: 'object',
                  additionalProperties: { type: 'string' },
                  description:
                    'Headers sent with every request; never a credential (anything named a key, token, secret, password, session, cookie or authorization).',
                },
                tokenHeader: {
                  type: 'string',
                  description:
                    'The header the token (SKILLWRIGHT_MCP_<NAME>_TOKEN) is sent in, as it is, e.g. "Private-Token"; default Authorization: Bearer.',
                },
                tools: {
                  type: 'array',
                  items: { type: 'string' },
                  description: 'The tools the agent may use (default: all).',
                },
              },
              required: ['url'],
              additionalProperties: false,
            },
          },
          toolConcurrency: {
            type: 'integer',
            minimum: 1,
            maximum: 64,
            description: 'MCP tool calls under way at once (default 4): a tool call is not a model call.',
          },
          timeoutSeconds: {
            type: 'number',
            exclusiveMinimum: 0,
            description:
              "How long a module's reset, call or score, or an MCP server's answer, may take before the run pauses (default 60).",
          },
        },
        additionalProperties: false,
      },
      target: { oneOf: [endpoint('target'), agentCli('target'), preset('target')] },
      confirm: {
        type: 'array',
        minItems: 1,
        maxItems: 8,
        description:
          'Targets that score the starting and the best skill on the test split after training, each like "target"; the report shows the lift under each and flags a ranking flip. Keys: the target\'s for one on its host, else SKILLWRIGHT_CONFIRM_API_KEY.',
        items: { oneOf: [endpoint('target'), agentCli('target'), preset('target')].map(withOwnPrice) },
      },
      targets: {
        type: 'array',
        minItems: 1,
        maxItems: 8,
        description:
          'Other targets that gate every candidate, each like "target": the gate accepts a candidate only if none of them finds it worse on validation (the same noise-aware verdict). Keys: the target\'s for one on its host, else SKILLWRIGHT_TARGETS_API_KEY.',
        items: { oneOf: [endpoint('target'), agentCli('target'), preset('target')] },
      },
      optimizer: { oneOf: [endpoint('optimizer'), agentCli('optimizer'), preset('optimizer')] },
      judge: endpoint('judge'),
      userSimulator: endpoint('userSimulator'),
      prices: {
        type: 'object',
        properties: { target: price, optimizer: price, judge: price, userSimulator: price },
        additionalProperties: false,
      },
      run: {
        type: 'object',
        description: 'Run settings; absent ones take the page’s defaults.',
        properties: {
          preset: {
            enum: KNOB_PRESETS.map((p) => p.id),
            description: `A preset by situation (${KNOB_PRESETS.map((p) => `${p.id}: ${p.label}`).join('; ')}): it sets its knobs over the defaults, and the settings given beside it win.`,
          },
          ...run,
          scorer: { type: 'object' },
          rollout: { type: 'object' },
          promptOverrides: { type: 'object', additionalProperties: { type: 'string' } },
        },
        additionalProperties: false,
      },
    },
  };
}
