/**
 * The tools an agent is offered (issue #30): OpenAI function definitions, given by a dataset, an
 * item, an environment module or the skill package. Read leniently (the `{type: 'function',
 * function: {…}}` wrapper or the bare function), validated strictly, with problems that name
 * where they are.
 */

/** A function the target may call (OpenAI `tools`, function kind). */
export interface ToolSpec {
  name: string;
  description?: string;
  /** JSON schema of the arguments object. */
  parameters?: Record<string, unknown>;
}

/** OpenAI's rule for function names. */
const NAME = /^[a-zA-Z0-9_-]{1,64}$/;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** One tool definition, or the problem with it (`where` says which one). */
export function readToolSpec(raw: unknown): { tool: ToolSpec } | { problem: string } {
  if (!isRecord(raw)) return { problem: 'must be an object {name, description, parameters}' };
  const f = isRecord(raw.function) ? raw.function : raw;
  if (raw.type !== undefined && raw.type !== 'function')
    return { problem: `has type "${String(raw.type)}"; only "function" tools are supported` };
  if (typeof f.name !== 'string' || !NAME.test(f.name))
    return { problem: 'needs a name of letters, digits, "_" or "-" (at most 64)' };
  if (f.description !== undefined && typeof f.description !== 'string')
    return { problem: `"${f.name}": the description must be text` };
  if (f.parameters !== undefined && (!isRecord(f.parameters) || (f.parameters.type ?? 'object') !== 'object'))
    return { problem: `"${f.name}": parameters must be a JSON schema of an object` };
  return {
    tool: {
      name: f.name,
      ...(typeof f.description === 'string' ? { description: f.description } : {}),
      ...(isRecord(f.parameters) ? { parameters: f.parameters } : {}),
    },
  };
}

/** A list of tool definitions; each problem says which entry (1-based) and why. */
export function readToolSpecs(raw: unknown): { tools: ToolSpec[]; problems: string[] } {
  if (!Array.isArray(raw)) return { tools: [], problems: ['must be a list of tool definitions'] };
  const tools: ToolSpec[] = [];
  const problems: string[] = [];
  raw.forEach((t, i) => {
    const r = readToolSpec(t);
    if ('problem' in r) problems.push(`tool ${i + 1} ${r.problem}`);
    else if (tools.some((x) => x.name === r.tool.name))
      problems.push(`tool ${i + 1}: "${r.tool.name}" is defined twice`);
    else tools.push(r.tool);
  });
  return { tools, problems };
}

/** Tools of several sources as one list: a later source's tool of the same name is left out. */
export function mergeTools(...lists: readonly (readonly ToolSpec[] | undefined)[]): ToolSpec[] {
  const out: ToolSpec[] = [];
  for (const list of lists) for (const t of list ?? []) if (!out.some((x) => x.name === t.name)) out.push(t);
  return out;
}
