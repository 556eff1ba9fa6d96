/**
 * An item's agentic fields (issue #30), read and validated with the rest of the item:
 * `tools` (extra tools for this item), `tool_results` (the answers of declared tools),
 * `expected_tool_calls` and `forbidden_tool_calls` (checks on the trajectory). Each problem names
 * the field, so the importer can say "row 3, field "tool_results": entry 2 needs a name".
 */
import { readToolSpecs, type ToolSpec } from './tool-spec';
import { readWorkspaceFields, WORKSPACE_FIELDS, type CheckSpec } from './workspace-task';

/** What a declared tool returns for a call whose arguments include `arguments`. */
export interface ToolResultRule {
  name: string;
  arguments?: Record<string, unknown>;
  result: string;
}

/** A call the trajectory must contain; `arguments` are matched as a subset. */
export interface ExpectedToolCall {
  name: string;
  arguments?: Record<string, unknown>;
}

/**
 * A simulated user (issue #31): the item's question opens the conversation, and a user-simulator
 * model plays the user from `goal` (in the manner of `persona`) until the goal is met, it gives
 * up, or `maxTurns` user messages (the opening one included) have been sent.
 */
export interface SimulatedUser {
  goal: string;
  persona?: string;
  maxTurns?: number;
}

/** User messages of a conversation when an item does not say (the opening one included). */
export const DEFAULT_MAX_USER_TURNS = 5;
/** The most user messages an item may ask for. */
export const MAX_USER_TURNS = 20;

export interface AgentItemSpec {
  tools?: ToolSpec[];
  toolResults?: ToolResultRule[];
  expectedToolCalls?: ExpectedToolCall[];
  forbiddenToolCalls?: string[];
  user?: SimulatedUser;
  /** A folder or .zip beside the dataset, copied into the item's working folder (issue #42 item 4). */
  workspace?: string;
  /** A command run in the working folder after the agent: exit 0 passes. */
  check?: CheckSpec;
}

/** The raw field names, as datasets write them. */
export const AGENT_FIELDS = {
  tools: 'tools',
  toolResults: 'tool_results',
  expectedToolCalls: 'expected_tool_calls',
  forbiddenToolCalls: 'forbidden_tool_calls',
  userGoal: 'user_goal',
  userPersona: 'user_persona',
  maxUserTurns: 'max_user_turns',
  ...WORKSPACE_FIELDS,
} as const;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A list given as JSON text (a CSV cell) is read as the list. */
function listFromText(v: unknown): unknown {
  if (typeof v !== 'string' || !v.trim().startsWith('[')) return v;
  try {
    return JSON.parse(v) as unknown;
  } catch {
    return v;
  }
}

const present = (v: unknown) => v !== undefined && v !== null && v !== '';

/**
 * The item's agentic fields; `add(field, message)` is told of every problem. A dataset's cell may
 * hold a list as JSON text (a CSV); a stored record's (`textLists: false`) may not.
 */
export function readAgentFields(
  record: Record<string, unknown>,
  add: (field: string, message: string) => void,
  {
    textLists = true,
    workspaceProblem,
  }: { textLists?: boolean; workspaceProblem?: ((path: string) => string | null) | undefined } = {},
): AgentItemSpec {
  const spec: AgentItemSpec = {};
  const F = AGENT_FIELDS;
  const listOf = textLists ? listFromText : (v: unknown) => v;
  if (present(record[F.tools])) {
    const r = readToolSpecs(listOf(record[F.tools]));
    for (const p of r.problems) add(F.tools, p);
    if (r.tools.length) spec.tools = r.tools;
  }
  if (present(record[F.toolResults])) {
    const raw = listOf(record[F.toolResults]);
    if (!Array.isArray(raw)) add(F.toolResults, 'must be a list of {name, arguments?, result}');
    else {
      const rules: ToolResultRule[] = [];
      raw.forEach((e, i) => {
        const at = `entry ${i + 1}`;
        if (!isRecord(e) || typeof e.name !== 'string' || !e.name) return add(F.toolResults, `${at} needs a name`);
        if (e.arguments !== undefined && !isRecord(e.arguments))
          return add(F.toolResults, `${at} ("${e.name}"): arguments must be an object`);
        if (e.result === undefined) return add(F.toolResults, `${at} ("${e.name}") needs a result`);
        rules.push({
          name: e.name,
          ...(isRecord(e.arguments) ? { arguments: e.arguments } : {}),
          result: typeof e.result === 'string' ? e.result : JSON.stringify(e.result),
        });
      });
      if (rules.length) spec.toolResults = rules;
    }
  }
  if (present(record[F.expectedToolCalls])) {
    const raw = listOf(record[F.expectedToolCalls]);
    if (!Array.isArray(raw)) add(F.expectedToolCalls, 'must be a list of {name, arguments?}');
    else {
      const calls: ExpectedToolCall[] = [];
      raw.forEach((e, i) => {
        const at = `entry ${i + 1}`;
        const name = typeof e === 'string' ? e : isRecord(e) ? e.name : undefined;
        if (typeof name !== 'string' || !name) return add(F.expectedToolCalls, `${at} needs a name`);
        const args = isRecord(e) ? e.arguments : undefined;
        if (args !== undefined && !isRecord(args))
          return add(F.expectedToolCalls, `${at} ("${name}"): arguments must be an object`);
        calls.push({ name, ...(isRecord(args) ? { arguments: args } : {}) });
      });
      if (calls.length) spec.expectedToolCalls = calls;
    }
  }
  if (present(record[F.forbiddenToolCalls])) {
    const raw = listOf(record[F.forbiddenToolCalls]);
    const names = Array.isArray(raw) ? raw : [raw];
    const bad = names.findIndex((n) => typeof n !== 'string' || !n);
    if (bad >= 0) add(F.forbiddenToolCalls, `entry ${bad + 1} must be a tool name`);
    else if (names.length) spec.forbiddenToolCalls = names as string[];
  }
  const user = readSimulatedUser(record, add);
  if (user) spec.user = user;
  Object.assign(spec, readWorkspaceFields(record, add, workspaceProblem));
  return spec;
}

/** `user_goal`, `user_persona`, `max_user_turns`: a persona or a limit without a goal is a problem. */
function readSimulatedUser(
  record: Record<string, unknown>,
  add: (field: string, message: string) => void,
): SimulatedUser | undefined {
  const F = AGENT_FIELDS;
  const text = (field: string): string | undefined => {
    if (!present(record[field])) return undefined;
    if (typeof record[field] === 'string' && record[field].trim()) return record[field].trim();
    add(field, 'must be text');
    return undefined;
  };
  const goal = text(F.userGoal);
  const persona = text(F.userPersona);
  let maxTurns: number | undefined;
  if (present(record[F.maxUserTurns])) {
    const n = Number(record[F.maxUserTurns]);
    if (Number.isInteger(n) && n >= 1 && n <= MAX_USER_TURNS) maxTurns = n;
    else add(F.maxUserTurns, `must be a whole number from 1 to ${MAX_USER_TURNS}`);
  }
  if (!goal) {
    if (persona !== undefined) add(F.userPersona, `needs a ${F.userGoal}: what the simulated user wants`);
    if (maxTurns !== undefined) add(F.maxUserTurns, `needs a ${F.userGoal}: what the simulated user wants`);
    return undefined;
  }
  return { goal, ...(persona ? { persona } : {}), ...(maxTurns ? { maxTurns } : {}) };
}

/**
 * An item's agentic fields as a record stores them (`item.agent`, e.g. in a run bundle: someone
 * else's file), read by the same reader as a dataset's row (issue #39 M5): the spec to use, and
 * every problem named by its field.
 */
export function readStoredAgentSpec(stored: unknown): { spec: AgentItemSpec; problems: string[] } {
  const problems: string[] = [];
  if (!isRecord(stored)) return { spec: {}, problems: ['must be an object of agent fields'] };
  const known = ['tools', 'toolResults', 'expectedToolCalls', 'forbiddenToolCalls', 'user', 'workspace', 'check'];
  for (const k of Object.keys(stored)) if (!known.includes(k)) problems.push(`"${k}" is not an agent field`);
  const user = stored.user;
  if (user !== undefined && !isRecord(user)) problems.push('user: must be an object {goal, persona?, maxTurns?}');
  const u = isRecord(user) ? user : {};
  if (isRecord(user) && !present(u.goal)) problems.push('user: needs a goal');
  const F = AGENT_FIELDS;
  const spec = readAgentFields(
    {
      [F.tools]: stored.tools,
      [F.toolResults]: stored.toolResults,
      [F.expectedToolCalls]: stored.expectedToolCalls,
      [F.forbiddenToolCalls]: stored.forbiddenToolCalls,
      [F.userGoal]: u.goal,
      [F.userPersona]: u.persona,
      // A stored limit is a number (a row's may be the text "3").
      [F.maxUserTurns]: u.maxTurns === undefined || typeof u.maxTurns === 'number' ? u.maxTurns : NaN,
      [F.workspace]: stored.workspace,
      // A stored check is an object (a row's may be the command alone).
      [F.check]: stored.check === undefined || isRecord(stored.check) ? stored.check : { command: stored.check },
    },
    (field, message) => problems.push(`${field}: ${message}`),
    { textLists: false },
  );
  return { spec, problems };
}

/**
 * The item checks its trajectory (or its simulated user says whether the goal was met, or its
 * check command whether the work is right), so it needs no expected answer to be scored.
 */
export function hasToolChecks(spec: AgentItemSpec): boolean {
  return Boolean(spec.expectedToolCalls?.length || spec.forbiddenToolCalls?.length || spec.user || spec.check);
}
