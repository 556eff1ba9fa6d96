/**
 * The retail world's agent (retail-world.ts), as the test server's `agentPolicy`: a pure function
 * of the conversation — system prompt, the customer's messages, every call and result — to its
 * next action: one tool call, a question for the customer, or a final answer. It does what the
 * skill's rules say and, where a rule is missing, what a capable model plausibly does instead:
 * - it finds the customer by the name they gave (the first one listed when two share it) unless
 *   "identify by email" is stated and "do not ask" is not: then it asks for the email;
 * - it reads the customer's orders in turn until the one with the item, and retries a lookup
 *   that failed with a transient error (once);
 * - a return: "refund at once" refunds; else a final-sale item is exchanged with the final-sale
 *   rule, an old delivery escalated with the 30-day rule, and anything else refunded;
 * - an exchange: with "ask the size" it asks (unless told not to ask); else it takes the next
 *   size up;
 * - a refund that timed out is checked with get_order under the timeout rule, else called again;
 * - a cancellation: a shipped order is refused under the shipped rule; the reason is asked under
 *   the reason rule, else written as "customer request".
 * A stochastic agent slips per action: below `miss`, an action the perfect skill would also take
 * is replaced by what the agent would do with no rules at all (it ignores its instructions for a
 * step); below `guess`, a wrong action is replaced by the perfect skill's.
 */
import type { AgentPolicy, AgentReply } from './llm-server';
import { historyOf } from './agentic-target';
import type { ToolStep } from './agentic-agent';
import {
  ASK,
  BROAD,
  DECOYS,
  DEFAULT_REASON,
  HARM,
  REFUND_DAYS,
  RULES,
  customerFacts,
  nextSize,
  parseRequest,
  type DecoyId,
  type Request,
  type RuleId,
} from './retail-world';

interface View {
  rules: ReadonlySet<RuleId>;
  decoys: ReadonlySet<DecoyId>;
  harm: boolean;
  broad: boolean;
}

export interface Conversation {
  system: string;
  /** Every customer message, the opening one first. */
  userMessages: readonly string[];
  history: readonly ToolStep[];
}

const has = (text: string, key: string) => text.toLowerCase().includes(key.toLowerCase());
export const viewOf = (system: string): View => ({
  rules: new Set((Object.keys(RULES) as RuleId[]).filter((r) => has(system, RULES[r].key))),
  decoys: new Set((Object.keys(DECOYS) as DecoyId[]).filter((d) => has(system, DECOYS[d].key))),
  harm: has(system, HARM.key),
  broad: has(system, BROAD.key),
});
const PERFECT: View = { rules: new Set(Object.keys(RULES) as RuleId[]), decoys: new Set(), harm: false, broad: false };
const PLAIN: View = { rules: new Set(), decoys: new Set(), harm: false, broad: false };

export const answer = (text: string): AgentReply => ({ content: `Done.\n<answer>${text}</answer>` });
const ask = (question: string): AgentReply => ({ content: question });
const call = (name: string, args: Record<string, unknown>): AgentReply => ({ toolCalls: [{ name, arguments: args }] });

const TRANSIENT = /temporarily unavailable/;
const isError = (s: ToolStep) => /^Error:/.test(s.result);

/** An order as get_order shows it. */
export interface SeenOrder {
  id: string;
  item: string;
  size: string;
  price: number;
  finalSale: boolean;
  status: 'processing' | 'shipped' | 'delivered';
  days: number;
  refunded: boolean;
}

export function readOrder(result: string): SeenOrder | null {
  const ORDER = /^Order (W\d+) of C\d+: ([a-z ]+), size ([A-Z]+), \$([\d.]+)(, final sale)?; (\w+)(?: (\d+) days)?/;
  const m = ORDER.exec(result);
  if (!m) return null;
  return {
    id: m[1],
    item: m[2],
    size: m[3],
    price: Number(m[4]),
    finalSale: Boolean(m[5]),
    status: m[6] as SeenOrder['status'],
    days: Number(m[7] ?? 0),
    refunded: /done: .*refund/.test(result),
  };
}

/** The customer find_customer shows first, and their orders. */
export function firstCustomer(result: string): { id: string; orders: string[] } | null {
  const m = /(C\d+) [A-Z][a-z]+ [A-Z][a-z]+ <[^>]+>: orders ([W\d, ]+)/.exec(result);
  return m
    ? {
        id: m[1],
        orders: m[2]
          .split(',')
          .map((o) => o.trim())
          .filter(Boolean),
      }
    : null;
}

/**
 * The next call of a lookup, retried once after a transient error; the step that answered it, or
 * an action to take now (the call, its retry, or giving up).
 */
function lookup(history: readonly ToolStep[], name: string, args: Record<string, unknown>): ToolStep | AgentReply {
  const same = history.filter((s) => s.name === name && JSON.stringify(s.args) === JSON.stringify(args));
  const ok = same.find((s) => !isError(s));
  if (ok) return ok;
  if (!same.length || (same.length === 1 && TRANSIENT.test(same[0].result))) return call(name, args);
  return answer('unknown');
}
const isStep = (x: ToolStep | AgentReply): x is ToolStep => 'result' in x;

function decide(c: Conversation, v: View): AgentReply {
  const req = parseRequest(c.userMessages[0] ?? '');
  if (!req) return answer('unknown');
  const facts = customerFacts(c.userMessages.slice(1));
  const canAsk = !v.broad;
  // 1. Who is the customer?
  const byEmail = v.rules.has('email') && canAsk;
  if (byEmail && !facts.email) return ask(ASK.email);
  const found = lookup(c.history, 'find_customer', byEmail ? { email: facts.email } : { name: req.name });
  if (!isStep(found)) return found;
  const customer = firstCustomer(found.result);
  if (!customer) return answer('unknown');
  // 2. Which of their orders holds the item?
  let order: SeenOrder | null = null;
  for (const id of customer.orders) {
    const read = lookup(c.history, 'get_order', { order: id });
    if (!isStep(read)) return read;
    const seen = readOrder(read.result);
    if (seen?.item === req.product) {
      order = seen;
      break;
    }
  }
  if (!order) return answer('unknown');
  return act(c, v, req, order, facts);
}

/** What the agent does with the order found. */
function act(
  c: Conversation,
  v: View,
  req: Request,
  order: SeenOrder,
  facts: ReturnType<typeof customerFacts>,
): AgentReply {
  const canAsk = !v.broad;
  const done = (name: string) => c.history.filter((s) => s.name === name && s.args.order === order.id);
  const exchange = (): AgentReply => {
    if (done('exchange').some((s) => !isError(s))) return answer('exchanged');
    if (done('exchange').length) return answer('unknown');
    if (v.rules.has('size') && canAsk)
      return facts.size ? call('exchange', { order: order.id, size: facts.size }) : ask(ASK.size);
    return call('exchange', { order: order.id, size: nextSize(order.size) });
  };
  if (req.kind === 'exchange') return exchange();
  if (req.kind === 'cancel') {
    const cancels = done('cancel');
    if (cancels.length) return answer(cancels.some((s) => !isError(s)) ? 'cancelled' : 'cannot cancel');
    if (v.decoys.has('cancelNone') || (v.rules.has('shipped') && order.status !== 'processing'))
      return answer('cannot cancel');
    if (v.rules.has('reason') && canAsk)
      return facts.reason ? call('cancel', { order: order.id, reason: facts.reason }) : ask(ASK.reason);
    return call('cancel', { order: order.id, reason: DEFAULT_REASON });
  }
  // A return.
  if (done('escalate').length) return answer('escalated');
  const refunds = done('refund');
  if (refunds.length) return afterRefund(c, v, order.id, refunds);
  if (v.harm) return call('refund', { order: order.id });
  if (v.decoys.has('escalateAll') || (v.decoys.has('overAmount') && order.price > 100))
    return call('escalate', { order: order.id, summary: 'refund request' });
  if (v.decoys.has('exchangeAll') || (v.rules.has('finalSale') && order.finalSale)) return exchange();
  if (v.rules.has('window') && order.days > REFUND_DAYS)
    return call('escalate', { order: order.id, summary: `refund ${order.days} days after delivery` });
  return call('refund', { order: order.id });
}

/** After a refund call: done, or — after a timeout — checked (timeout rule) or called again. */
function afterRefund(c: Conversation, v: View, id: string, refunds: readonly ToolStep[]): AgentReply {
  if (refunds.some((s) => !isError(s))) return answer('refunded');
  if (refunds.length > 1) return answer('unknown');
  if (!/timeout/.test(refunds[0].result)) return answer('unknown');
  if (!v.rules.has('timeout')) return call('refund', { order: id });
  const at = c.history.indexOf(refunds[0]);
  const check = c.history.slice(at + 1).find((s) => s.name === 'get_order' && s.args.order === id && !isError(s));
  if (!check) return call('get_order', { order: id });
  return readOrder(check.result)?.refunded ? answer('refunded') : call('refund', { order: id });
}

const same = (a: AgentReply, b: AgentReply) => JSON.stringify(a) === JSON.stringify(b);

export interface TargetNoise {
  miss: number;
  guess: number;
}

/** The agent's action; `draw` ∈ [0, 1) decides a stochastic agent's slips (1: none). */
export function retailAction(c: Conversation, draw = 1, noise?: TargetNoise): AgentReply {
  const act = decide(c, viewOf(c.system));
  if (!noise) return act;
  const ideal = decide(c, PERFECT);
  if (same(act, ideal)) return draw < noise.miss ? decide(c, PLAIN) : act;
  return draw < noise.guess ? ideal : act;
}

/** The agent as the server's policy, with the world's noise (none without). */
export function retailPolicy(noise?: TargetNoise): AgentPolicy {
  return (req, draw) =>
    retailAction(
      {
        system: req.system,
        userMessages: req.messages.filter((m) => m.role === 'user').map((m) => String(m.content ?? '')),
        history: historyOf(req.messages),
      },
      draw,
      noise,
    );
}
