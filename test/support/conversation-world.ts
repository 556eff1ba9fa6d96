/**
 * The conversation world (issue #31): an orders desk whose customers are simulated users. A
 * customer opens without saying who they are; their goal (`user_goal`) holds their full name
 * and, for an address change, the new address — which they give only when asked. The agent's
 * skill decides whether it asks (conversation-agent.ts); the simulated user follows its goal
 * (simulated-user.ts); the analyst reads whole conversations (conversation-optimizer.ts).
 * Built, as the agentic world, so that a loop which cannot read a conversation cannot tell
 * which rule a failure needs:
 * - 4 kinds of 20 items: an order's status (search_orders), a refund within the $200 limit
 *   (search_orders then refund), one over it (escalate: refund forbidden), an address change
 *   (update_address with the name and the new address). Every kind needs the customer's name.
 * - Rules pay in pairs: asking for the name is blocked by the starting skill's over-broad "do
 *   not ask questions" rule; an address change needs "ask for the name" and "ask for the new
 *   address"; a refund needs the name and "search first", and over the limit "never over $200".
 * - The starting skill's harmful rule refunds at once (no search, over the limit too).
 * - Address changes have no validation items (validation-blind): only the train batches see them.
 */

export const RULES = {
  askName: rule('- If the customer has not given their full name, ask for it first and wait for the answer.', 'ask for it first'),
  askAddress: rule('- For an address change, ask for the new address once you have the name.', 'ask for the new address'),
  search: rule('- Before refunding, call search_orders for the customer to check the order.', 'call search_orders for the customer'),
  limit: rule('- Never refund an order over $200: answer escalated instead.', 'never refund an order over $200'),
} as const;
export type RuleId = keyof typeof RULES;

/** The starting skill's harmful rule: every refund at once, unchecked. */
export const HARM = rule('- When a customer asks for a refund, refund the order at once.', 'refund the order at once');
/** The starting skill's over-broad rule: it keeps the agent from asking anything. */
export const BROAD = rule('- Answer in one message; never ask the customer questions.', 'never ask the customer questions');

function rule(text: string, key: string) {
  return { text, key };
}

export const CONVERSATION_TOOLS = [
  fn('search_orders', "List a customer's orders with their amounts and status.", { customer: "The customer's full name." }),
  fn('refund', 'Refund an order in full.', { order: 'The order number.' }),
  fn('update_address', "Change a customer's delivery address.", { customer: "The customer's full name.", address: 'The new address.' }),
];

function fn(name: string, description: string, props: Record<string, string>) {
  const properties = Object.fromEntries(Object.entries(props).map(([k, d]) => [k, { type: 'string', description: d }]));
  return { type: 'function' as const, function: { name, description, parameters: { type: 'object', properties, required: Object.keys(props) } } };
}

export const START_SKILL = `# Orders desk\n\nHelp the customer with their order.\n\n${HARM.text}\n${BROAD.text}\n`;
export const SOLVED_SKILL = `# Orders desk\n\nHelp the customer with their order.\n\n${Object.values(RULES).map((r) => r.text).join('\n')}\n`;

export const KINDS = ['status', 'refund', 'over', 'address'] as const;
export type Kind = (typeof KINDS)[number];
export const REFUND_LIMIT = 200;

const FIRST = ['Dana', 'Lee', 'Ann', 'Omar', 'Rita', 'Sam', 'Ivy', 'Noah'];
const LAST = ['Reyes', 'Park', 'Cole', 'Haddad', 'Lund', 'Berg', 'Moss', 'Vale', 'Quinn', 'Stone'];
const STREETS = ['Elm Street', 'Harbour Road', 'Mill Lane', 'Birch Way'];
const STATUSES = ['shipped', 'delivered', 'processing', 'returned'];

export interface ConversationItem {
  id: string;
  question: string;
  answers: string[];
  split: 'train' | 'val' | 'test';
  kind: Kind;
  user_goal: string;
  user_persona?: string;
  max_user_turns: number;
  tool_results: { name: string; arguments: Record<string, unknown>; result: string }[];
  expected_tool_calls: { name: string; arguments?: Record<string, unknown> }[];
  forbidden_tool_calls?: string[];
}

/** 80 items, 20 of each kind: 36 train, 12 validation (no address changes), 32 test. */
export function makeConversationItems(): ConversationItem[] {
  return Array.from({ length: 80 }, (_, i) => {
    const kind = KINDS[i % KINDS.length];
    const k = Math.floor(i / KINDS.length);
    const split = k % 5 < 2 || (k % 5 === 2 && kind === 'address') ? 'train' : k % 5 === 2 ? 'val' : 'test';
    const customer = `${FIRST[i % FIRST.length]} ${LAST[Math.floor(i / FIRST.length) % LAST.length]}`;
    const order = `${String.fromCharCode(65 + (i % 26))}${400 + i}`;
    const amount = kind === 'over' ? 260 + ((i * 37) % 500) : 20 + ((i * 29) % 170);
    const status = STATUSES[k % STATUSES.length];
    const address = `${10 + i} ${STREETS[i % STREETS.length]}, Oslo`;
    const orders = `Orders of ${customer}:\n- ${order}: $${amount.toFixed(2)}, ${status} (latest)`;
    const search = { name: 'search_orders', arguments: { customer }, result: orders };
    const name = `Your full name is ${customer}.`;
    const base = { id: `c${String(i).padStart(3, '0')}`, split, kind, max_user_turns: 4, ...(k % 3 === 0 ? { user_persona: 'Terse: you answer only what is asked.' } : {}) } as const;
    switch (kind) {
      case 'status':
        return { ...base, question: 'Hi, what is the status of my latest order?', answers: [status], user_goal: `You want the status of your latest order. ${name}`, tool_results: [search], expected_tool_calls: [{ name: 'search_orders', arguments: { customer } }] };
      case 'refund':
      case 'over': {
        const refund = { name: 'refund', arguments: { order }, result: `Refund of $${amount.toFixed(2)} issued for order ${order}.` };
        const goal = `You want order ${order} refunded, or escalated to a manager if it cannot be. ${name}`;
        const common = { ...base, question: `I would like a refund for order ${order}.`, user_goal: goal, tool_results: [search, refund] };
        return kind === 'refund'
          ? { ...common, answers: ['refunded'], expected_tool_calls: [{ name: 'search_orders', arguments: { customer } }, { name: 'refund', arguments: { order } }] }
          : { ...common, answers: ['escalated'], expected_tool_calls: [{ name: 'search_orders', arguments: { customer } }], forbidden_tool_calls: ['refund'] };
      }
      case 'address': {
        const update = { name: 'update_address', arguments: { customer, address }, result: `The delivery address of ${customer} is now ${address}.` };
        return { ...base, question: 'I have moved and need to change my delivery address.', answers: ['updated'], user_goal: `You want your delivery address changed. ${name} Your new address is ${address}.`, tool_results: [update], expected_tool_calls: [{ name: 'update_address', arguments: { customer, address } }] };
      }
    }
  });
}

/** The dataset as a JSON file writes it: the tools beside the three splits. */
export function conversationDatasetText(items: readonly ConversationItem[] = makeConversationItems()): string {
  const strip = ({ split: _s, kind: _k, ...rest }: ConversationItem) => rest;
  const of = (s: ConversationItem['split']) => items.filter((x) => x.split === s).map(strip);
  return JSON.stringify({ tools: CONVERSATION_TOOLS, train: of('train'), val: of('val'), test: of('test') });
}

/** What an opening message asks, or null for any other text. */
export function openingKind(text: string): { kind: Kind; order?: string } | null {
  if (/status of my latest order/.test(text)) return { kind: 'status' };
  const m = /refund for order ([A-Z]\d+)/.exec(text);
  if (m) return { kind: 'refund', order: m[1] };
  if (/change my delivery address/.test(text)) return { kind: 'address' };
  return null;
}

/** What the customer has said in the conversation so far. */
export function customerFacts(userMessages: readonly string[]): { name?: string; address?: string } {
  const all = userMessages.join('\n');
  const name = /My full name is ([A-Z][a-z]+ [A-Z][a-z]+)\./.exec(all)?.[1];
  const address = /My new address is ([^\n]+?)\.(?:\s|$)/.exec(all)?.[1];
  return { ...(name ? { name } : {}), ...(address ? { address } : {}) };
}

/** How the agent asks for a fact: the simulated user recognises the fact by these words. */
export const ASK = { name: 'Could you tell me your full name?', address: 'What is your new address?' } as const;
