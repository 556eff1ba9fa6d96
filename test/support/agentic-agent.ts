/**
 * The simulated agent of the agentic world (agentic-world.ts): a pure function of the request —
 * system prompt, the conversation so far, the tools offered — to its next action, tool calls or
 * a final answer. It does what the skill's rules say:
 * - a part question: without "call lookup" it answers from memory ("unknown"); with it, lookup
 *   with the code as written unless "the bare number" is stated and the broad rule is not, with
 *   catalog "archive" when its family's rule (or the decoy "every part in the archive") says so;
 *   a lookup without a result is answered "unknown";
 * - a conversion: with "read units.md" it reads the file (read_file, or the inlined file) and
 *   passes the codes the file gives; otherwise the codes as written (broad rule, unless the decoy
 *   asks for unit names) or unit words;
 * - an order: it searches (for a refund only with "search first"), then — without "stop" — keeps
 *   searching again until it runs out of turns; over the limit it escalates only with the limit
 *   rule (the decoy escalates every refund); the harmful rule refunds an upset customer at once.
 * A stochastic agent (issue #19's noise at the level of actions) misses a share of the actions it
 * gets right (it gives up, answering "unknown") and guesses right a share of those it gets wrong
 * (it takes the action an agent with the perfect skill would take from here).
 */
import { ARCHIVED, BROAD, BROAD_STOP, DECOYS, HARM, REFUND_LIMIT, RULES, UNIT_CODES, UNITS_PATH, PART_FAMILIES, archiveRule, parseTask, type DecoyId, type RuleId, type Task } from './agentic-world';

/** A call the agent made and what came back. */
export interface ToolStep {
  name: string;
  args: Record<string, unknown>;
  result: string;
}

export interface AgentRequest {
  system: string;
  user: string;
  /** Names of the tools offered. */
  tools: readonly string[];
  /** Every call of the conversation so far with its result, in order. */
  history: readonly ToolStep[];
}

export type AgentAction = { calls: { name: string; args: Record<string, unknown> }[] } | { answer: string };

export interface TargetNoise {
  miss: number;
  guess: number;
}

/** What the agent knows from its prompt: the rules stated, and units.md when it is inlined. */
interface View {
  rules: ReadonlySet<RuleId>;
  decoys: ReadonlySet<DecoyId>;
  /** Families the skill says are in the archive. */
  archived: ReadonlySet<string>;
  harm: boolean;
  broad: boolean;
  broadStop: boolean;
  inlineUnits: string | null;
  /** The perfect agent: the right unit codes whatever the file says. */
  oracle?: true;
}

const has = (text: string, key: string) => text.toLowerCase().includes(key.toLowerCase());

function viewOf(system: string): View {
  const rules = new Set<RuleId>((Object.keys(RULES) as RuleId[]).filter((r) => has(system, RULES[r].key)));
  const decoys = new Set<DecoyId>((Object.keys(DECOYS) as DecoyId[]).filter((d) => has(system, DECOYS[d].key)));
  const inline = new RegExp(`<!-- FILE: ${UNITS_PATH} -->\\n([\\s\\S]*?)<!-- END FILE: ${UNITS_PATH} -->`).exec(system);
  const archived = new Set(PART_FAMILIES.filter((f) => has(system, archiveRule(f).key)));
  return { rules, decoys, archived, harm: has(system, HARM.key), broad: has(system, BROAD.key), broadStop: has(system, BROAD_STOP.key), inlineUnits: inline?.[1] ?? null };
}

const ORACLE: View = { rules: new Set(Object.keys(RULES) as RuleId[]), decoys: new Set(), archived: new Set(ARCHIVED), harm: false, broad: false, broadStop: false, inlineUnits: null, oracle: true };

/** Unit codes a units file gives, by unit word. */
export function codesIn(file: string): Record<string, string> {
  return Object.fromEntries([...file.matchAll(/^- ([a-z]+): (\S+)\s*$/gm)].map((m) => [m[1], m[2]]));
}

const answer = (text: string): AgentAction => ({ answer: text });
const call = (name: string, args: Record<string, unknown>): AgentAction => ({ calls: [{ name, args }] });
const good = (s: ToolStep) => !/^no result|^Error/.test(s.result);

/** Make a call, unless the very same call already failed: then the agent gives up. */
function once(history: readonly ToolStep[], name: string, args: Record<string, unknown>): AgentAction {
  const tried = history.some((s) => s.name === name && JSON.stringify(s.args) === JSON.stringify(args));
  return tried ? answer('unknown') : call(name, args);
}

function decide(task: Task, v: View, history: readonly ToolStep[], tools: readonly string[]): AgentAction {
  const offered = (name: string) => tools.includes(name);
  if (v.broadStop && history.length) return answer(history[0].result.split('\n')[0]);
  switch (task.kind) {
    case 'name':
    case 'stock': {
      const found = history.find((s) => s.name === 'lookup' && good(s));
      if (found) {
        const m = /: (.+?) — (\d+) in stock/.exec(found.result);
        return answer(m ? (task.kind === 'stock' ? m[2] : m[1]) : 'unknown');
      }
      if (!v.rules.has('lookup') || !offered('lookup')) return answer('unknown');
      const code = v.rules.has('strip') && !v.broad ? task.number : task.code;
      const archive = v.decoys.has('archiveAll') || v.archived.has(task.family);
      return once(history, 'lookup', { code, ...(archive ? { catalog: 'archive' } : {}) });
    }
    case 'weight':
    case 'length':
      return convertAction(task, v, history, offered);
    case 'status':
    case 'refund':
      return orderAction(task, v, history, offered);
  }
}

function convertAction(task: Extract<Task, { kind: 'weight' | 'length' }>, v: View, history: readonly ToolStep[], offered: (n: string) => boolean): AgentAction {
  const done = history.find((s) => s.name === 'convert' && good(s));
  if (done) return answer(done.result.trim());
  if (!offered('convert')) return answer('unknown');
  let codes: Record<string, string> | null = null;
  if (v.rules.has('units')) {
    const read = history.find((s) => s.name === 'read_file' && String(s.args.path ?? '').endsWith(UNITS_PATH));
    const file = read && good(read) ? read.result : v.inlineUnits;
    if (file !== null) codes = v.oracle ? { ...UNIT_CODES } : codesIn(file);
    else if (offered('read_file') && !read) return call('read_file', { path: UNITS_PATH });
  }
  const unit = (which: 'from' | 'to') => codes?.[task[which]] ?? (v.broad && !v.decoys.has('unitWords') ? task.written[which] : task[which]);
  return once(history, 'convert', { value: task.value, from: unit('from'), to: unit('to') });
}

function orderAction(task: Extract<Task, { kind: 'status' | 'refund' }>, v: View, history: readonly ToolStep[], offered: (n: string) => boolean): AgentAction {
  const refunded = history.find((s) => s.name === 'refund');
  if (refunded) return answer(good(refunded) ? 'refunded' : 'unknown');
  const searched = history.find((s) => s.name === 'search_orders' && good(s));
  const search = () => (offered('search_orders') ? call('search_orders', { customer: task.customer }) : answer('unknown'));
  const refund = () => (offered('refund') ? call('refund', { order: (task as { order: string }).order }) : answer('unknown'));
  if (task.kind === 'status') {
    if (!searched) return history.length ? answer('unknown') : search();
    // Without "stop" the agent searches again to make sure, turn after turn.
    if (!v.rules.has('stop')) return search();
    return answer(/: \$[\d.]+, ([a-z]+) \(latest\)/.exec(searched.result)?.[1] ?? 'unknown');
  }
  if (v.harm && task.upset) return refund();
  if (!v.rules.has('search')) return refund();
  if (!searched) return history.length ? answer('unknown') : search();
  if (!v.rules.has('stop')) return search();
  const amount = Number(new RegExp(`- ${task.order}: \\$([\\d.]+)`).exec(searched.result)?.[1] ?? NaN);
  if ((v.rules.has('limit') && amount > REFUND_LIMIT) || v.decoys.has('escalateAll')) return answer('escalated');
  return refund();
}

/** The agent's action without noise: what the skill in its prompt makes it do next. */
export function agentPolicy(req: AgentRequest): AgentAction {
  const task = parseTask(req.user);
  return task ? decide(task, viewOf(req.system), req.history, req.tools) : answer('I do not know.');
}

/** What an agent with the perfect skill would do from this point of the conversation. */
export function oracleAction(req: AgentRequest): AgentAction | null {
  const task = parseTask(req.user);
  return task ? decide(task, ORACLE, req.history, req.tools) : null;
}

const same = (a: AgentAction, b: AgentAction) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The stochastic agent's action: `draw` ∈ [0, 1) decides. Below `miss`, an action the perfect
 * skill would also take slips (the agent gives up: "unknown"); below `guess`, a wrong action is
 * replaced by the perfect skill's. Without noise, the policy's.
 */
export function agentAction(req: AgentRequest, draw = 1, noise?: TargetNoise): AgentAction {
  const act = agentPolicy(req);
  const ideal = noise ? oracleAction(req) : null;
  if (!noise || !ideal) return act;
  if (same(act, ideal)) return draw < noise.miss ? answer('unknown') : act;
  return draw < noise.guess ? ideal : act;
}

/** Is this request one of the agentic world's (a question of its own)? */
export const isAgenticTask = (user: string) => parseTask(user) !== null;

/** A final answer as the agent writes it (the QA preset's answer tags). */
export function replyText(action: { answer: string }): string {
  return `Done.\n<answer>${action.answer}</answer>`;
}
