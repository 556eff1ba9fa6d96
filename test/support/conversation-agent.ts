/**
 * The conversation world's agent (conversation-world.ts), as the test server's `agentPolicy`: a
 * pure function of the conversation — its system prompt, every user message, every call and
 * result — to its next action: tool calls, a question for the customer, or a final answer.
 * - It needs the customer's name for every task: it asks for it with "ask for the name" unless
 *   the over-broad "never ask questions" rule is in the skill; otherwise it answers "unknown".
 * - An address change needs the new address too: asked with "ask for the new address".
 * - A refund: the harmful rule refunds at once; "search first" searches, and over the limit
 *   "never over $200" escalates; without "search first" it refunds unchecked.
 * A stochastic agent misses a share of the actions it gets right ("unknown") and guesses right a
 * share of those it gets wrong (the perfect skill's action), as the agentic world's agent does.
 */
import type { AgentPolicy, AgentReply, AgentRequest } from './llm-server';
import { historyOf } from './agentic-target';
import type { ToolStep } from './agentic-agent';
import { ASK, BROAD, HARM, REFUND_LIMIT, RULES, customerFacts, openingKind, type RuleId } from './conversation-world';

interface View {
  rules: ReadonlySet<RuleId>;
  harm: boolean;
  broad: boolean;
}

export interface Conversation {
  system: string;
  /** Every user message, the opening one first. */
  userMessages: readonly string[];
  history: readonly ToolStep[];
  tools: readonly string[];
}

const has = (text: string, key: string) => text.toLowerCase().includes(key.toLowerCase());
const viewOf = (system: string): View => ({
  rules: new Set((Object.keys(RULES) as RuleId[]).filter((r) => has(system, RULES[r].key))),
  harm: has(system, HARM.key),
  broad: has(system, BROAD.key),
});
const PERFECT: View = { rules: new Set(Object.keys(RULES) as RuleId[]), harm: false, broad: false };

export const answer = (text: string): AgentReply => ({ content: `Done.\n<answer>${text}</answer>` });
const ask = (question: string): AgentReply => ({ content: question });
const call = (name: string, args: Record<string, unknown>): AgentReply => ({ toolCalls: [{ name, arguments: args }] });

function decide(c: Conversation, v: View): AgentReply {
  const opening = openingKind(c.userMessages[0] ?? '');
  if (!opening) return answer('unknown');
  const facts = customerFacts(c.userMessages.slice(1));
  const done = (name: string) => c.history.find((s) => s.name === name);
  const canAsk = !v.broad;
  if (opening.kind === 'refund' && v.harm) return done('refund') ? answer('refunded') : call('refund', { order: opening.order });
  if (!facts.name) return v.rules.has('askName') && canAsk ? ask(ASK.name) : answer('unknown');
  switch (opening.kind) {
    case 'status': {
      const found = done('search_orders');
      if (!found) return call('search_orders', { customer: facts.name });
      return answer(/: \$[\d.]+, ([a-z]+) \(latest\)/.exec(found.result)?.[1] ?? 'unknown');
    }
    case 'refund': {
      if (done('refund')) return answer('refunded');
      if (!v.rules.has('search')) return call('refund', { order: opening.order });
      const found = done('search_orders');
      if (!found) return call('search_orders', { customer: facts.name });
      const amount = Number(new RegExp(`- ${opening.order}: \\$([\\d.]+)`).exec(found.result)?.[1] ?? NaN);
      if (v.rules.has('limit') && amount > REFUND_LIMIT) return answer('escalated');
      return call('refund', { order: opening.order });
    }
    case 'address': {
      if (done('update_address')) return answer('updated');
      if (!facts.address) return v.rules.has('askAddress') && canAsk ? ask(ASK.address) : answer('unknown');
      return call('update_address', { customer: facts.name, address: facts.address });
    }
    default:
      return answer('unknown');
  }
}

const same = (a: AgentReply, b: AgentReply) => JSON.stringify(a) === JSON.stringify(b);

/** The agent's action; `draw` ∈ [0, 1) decides a stochastic agent's slips (1: none). */
export function conversationAction(c: Conversation, draw = 1, noise?: { miss: number; guess: number }): AgentReply {
  const act = decide(c, viewOf(c.system));
  if (!noise) return act;
  const ideal = decide(c, PERFECT);
  if (same(act, ideal)) return draw < noise.miss ? answer('unknown') : act;
  return draw < noise.guess ? ideal : act;
}

/** The conversation of a tool-calling request in the chat API's wire form. */
export function conversationOf(req: AgentRequest): Conversation {
  return {
    system: req.system,
    userMessages: req.messages.filter((m) => m.role === 'user').map((m) => String(m.content ?? '')),
    history: historyOf(req.messages),
    tools: req.tools.map((t) => t.name),
  };
}

/** The agent as the server's policy, with the world's noise (none without). */
export function conversationPolicy(noise?: { miss: number; guess: number }): AgentPolicy {
  return (req, draw) => conversationAction(conversationOf(req), draw, noise);
}
