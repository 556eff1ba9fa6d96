/**
 * The parts desk, a small tool world (issue #30) behind the in-page demo's agent example and the
 * engine's agent tests: parts named by code ("AMB-104"), a `lookup` tool declared in the dataset
 * that knows a part only by its number, a simulated agent that follows the skill's rules, and an
 * analyst that reads its trajectories. (bench:quality measures on a bigger, harder world.)
 *
 * Rules the agent reads from its system prompt:
 * - LOOKUP: "Look up every part with the lookup tool" — without it the agent answers "unknown".
 * - NUMBER: "Pass lookup the number without its letter prefix" — without it it passes "AMB-104",
 *   which has no result.
 * - UNITS: "Read references/units.md before answering a weight" — weight questions need the
 *   factor the reference holds (read with read_file, or pasted into the prompt).
 * - DOUBLE: "Always look a part up twice" — a loop: the agent never stops calling (ran out of turns).
 */
/** A tool-calling request as the simulated agent reads it (the chat API's wire form). */
export interface DeskRequest {
  system: string;
  /** The first user message: the task. */
  user: string;
  messages: readonly {
    role: string;
    content: string | null;
    tool_calls?: { id: string; function: { name: string; arguments: string } }[];
  }[];
  tools: readonly { name: string }[];
}

export type DeskReply = { toolCalls: { name: string; arguments: unknown }[] } | { content: string };

export const LOOKUP = '- Look up every part with the lookup tool before answering.';
export const NUMBER = '- Pass lookup the number without its letter prefix.';
export const UNITS = '- Read references/units.md before answering a weight question.';
export const DOUBLE = '- Always look a part up again, to be sure.';

export const LOOKUP_TOOL = {
  type: 'function',
  function: {
    name: 'lookup',
    description: 'The catalogue entry of a part.',
    parameters: { type: 'object', properties: { code: { type: 'string' } }, required: ['code'] },
  },
};

const NAMES = ['Amber bolt', 'Basalt nut', 'Cobalt gear', 'Dune washer', 'Ember spring', 'Fjord pin'];
const PREFIX = ['AMB', 'BAS', 'COB', 'DUN', 'EMB', 'FJO'];

/** Items: "What is part AMB-104?" (name) and "How many grams does part AMB-104 weigh?" (kg × 1000). */
export function toolWorldItems(n = 60): Record<string, unknown>[] {
  return Array.from({ length: n }, (_, i) => {
    const f = i % NAMES.length;
    const num = 100 + i;
    const code = `${PREFIX[f]}-${num}`;
    const weight = i % 3 === 2;
    const kg = (i % 7) + 1;
    const entry = `${NAMES[f]}; weight ${kg} kg`;
    return {
      id: `t${String(i).padStart(3, '0')}`,
      question: weight ? `How many grams does part ${code} weigh?` : `What is part ${code}?`,
      answer: weight ? String(kg * 1000) : NAMES[f],
      tool_results: [{ name: 'lookup', arguments: { code: String(num) }, result: entry }],
      expected_tool_calls: [{ name: 'lookup', arguments: { code: String(num) } }],
      split: i % 5 < 2 ? 'train' : i % 5 === 2 ? 'val' : 'test',
    };
  });
}

export function toolWorldFile(n = 60): string {
  return JSON.stringify({ tools: [LOOKUP_TOOL], items: toolWorldItems(n) });
}

export const UNITS_REFERENCE = '# Units\n\nWeights in the catalogue are in kg: grams = kg × 1000.\n';

const toolResults = (messages: DeskRequest['messages']) => messages.filter((m) => m.role === 'tool');
const calls = (messages: DeskRequest['messages']) =>
  messages.flatMap((m) => (m.tool_calls ?? []).map((c) => ({ name: c.function.name, args: c.function.arguments })));

/** The simulated agent of the tool world: deterministic, or slipping when `draw` < the server's noise. */
export function toolWorldPolicy(req: DeskRequest): DeskReply {
  const s = req.system;
  const m = req.user.match(/part ([A-Z]{3})-(\d+)/);
  if (!m) return { content: '<answer>unknown</answer>' };
  const weight = /grams/.test(req.user);
  const done = calls(req.messages);
  const results = toolResults(req.messages);
  const canRead = req.tools.some((t) => t.name === 'read_file');
  // Read the units reference first when the skill says so and it is not in the prompt already.
  if (weight && s.includes(UNITS) && canRead && !s.includes('grams = kg') && !done.some((c) => c.name === 'read_file'))
    return { toolCalls: [{ name: 'read_file', arguments: { path: 'references/units.md' } }] };
  const lookups = done.filter((c) => c.name === 'lookup').length;
  if (!s.includes(LOOKUP)) return { content: '<answer>unknown</answer>' };
  if (lookups === 0 || s.includes(DOUBLE))
    return { toolCalls: [{ name: 'lookup', arguments: { code: s.includes(NUMBER) ? m[2] : `${m[1]}-${m[2]}` } }] };
  const entry = [...results].reverse().find((r) => String(r.content).includes('weight'))?.content ?? '';
  const name = entry.split(';')[0];
  if (!entry) return { content: '<answer>unknown</answer>' };
  if (!weight) return { content: `The catalogue says so.\n<answer>${name}</answer>` };
  const knowsUnits = s.includes('grams = kg') || results.some((r) => String(r.content).includes('grams = kg'));
  const kg = Number(entry.match(/weight (\d+) kg/)?.[1] ?? 0);
  return { content: `<answer>${knowsUnits ? kg * 1000 : kg}</answer>` };
}

/** The analyst prompts of an agent's run say so (the prompts' `{{#agent}}` blocks). */
export const AGENT_ANALYST = 'These tasks were run by an agent that calls tools';

/**
 * The tool world's analyst: reads each failed trajectory and proposes the rule it lacks — from
 * the calls and results when it sees them, from the final answer alone when it does not.
 */
export function toolWorldOptimizer(stage: string, system: string, user: string): unknown {
  // Only an agent's run: its analyst prompts say so (the prompts' `{{#agent}}` blocks).
  if (!system.includes(AGENT_ANALYST)) return undefined;
  if (stage === 'reflect_success')
    return { batch_size: 0, success_patterns: [], patch: { reasoning: 'nothing new', edits: [] } };
  if (stage !== 'reflect_failure') return undefined;
  const skill = user.split('## Current Skill')[1]?.split('\n## ')[0] ?? '';
  const edits: { op: string; content: string; target?: string }[] = [];
  const add = (rule: string) => {
    if (!skill.includes(rule) && !edits.some((e) => e.content === rule)) edits.push({ op: 'append', content: rule });
  };
  for (const t of user.split('### Trajectory ').slice(1)) {
    if (t.includes('ran out of turns') && skill.includes(DOUBLE) && !edits.some((e) => e.op === 'delete'))
      edits.push({ op: 'delete', target: DOUBLE, content: '' });
    else if (/\[tool call turn \d+\] lookup\(\{"code":"[A-Z]{3}-/.test(t)) add(NUMBER);
    else if (t.includes("predicted 'unknown'")) add(LOOKUP);
    else if (/grams/.test(t) && !t.includes('read_file(')) add(UNITS);
  }
  return { batch_size: 1, failure_summary: [], patch: { reasoning: 'rules the trajectories lacked', edits } };
}
