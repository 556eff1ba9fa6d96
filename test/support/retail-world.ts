/**
 * The retail world (issue #43 item 2): a store desk in the spirit of τ-bench retail. The store —
 * customers and their orders — lives in an environment module's state (retail-store.ts); the
 * agent looks things up (find_customer, get_order) and acts (refund, exchange, cancel, escalate);
 * an item is scored by the store's final state and the answer, so an action cannot be taken back:
 * a wrong refund stays. Customers are simulated users who hold facts (their email, the size they
 * want, why they cancel) and give them only when asked. The agent is retail-agent.ts, the analyst
 * retail-optimizer.ts. Built to defeat a loop that cannot tell which rule a failure needs:
 * - 7 task kinds of 15 items, each a chain of 4–7 calls: find the customer, read their orders
 *   one by one until the item asked about, act, and check after a timeout; a third of lookups
 *   fail once with a transient error the agent retries.
 * - The rule a failure needs shows only in a middle tool result: "final sale" or "delivered 45
 *   days ago" in get_order, "2 customers named …" in find_customer, a timeout in refund (the
 *   refund went through), "shipped" in get_order before a cancel.
 * - Rules pay in pairs: asking (email, size, reason) is blocked by the start's "do not ask" rule;
 *   the refund limits (final sale, 30 days) by its "refund at once" rule; a final-sale item needs
 *   both "exchange it" and "ask the size".
 * - Timeouts and shipped cancellations have no validation items (validation-blind).
 * - From the final answer alone the cause is hidden: a double refund and a refund to the other
 *   customer of the same name both answer "refunded", right as text; and where the answer does
 *   say what should have happened, not why: decoys (exchange or escalate every return, escalate
 *   over $100, never cancel) explain it as well as the right rule and break other kinds.
 */
/** A rule of the world: its line in SKILL.md and the phrase the agent recognises it by. */
export interface WorldRule {
  text: string;
  key: string;
}
const rule = (text: string, key: string): WorldRule => ({ text, key });

export const RULES = {
  email: rule(
    '- Identify the customer by email: ask for the email on their account and call find_customer with it.',
    'identify the customer by email',
  ),
  window: rule(
    '- Refund only items delivered in the last 30 days; for older ones call escalate instead.',
    'delivered in the last 30 days',
  ),
  finalSale: rule(
    '- Never refund an item marked final sale: exchange it for another size instead.',
    'never refund an item marked final sale',
  ),
  size: rule(
    '- Before an exchange, ask the customer which size they want and pass it to exchange.',
    'ask the customer which size',
  ),
  timeout: rule(
    '- If refund reports a timeout, call get_order to see whether it went through before calling refund again.',
    'if refund reports a timeout',
  ),
  reason: rule(
    '- Before cancelling, ask the customer for their reason for cancelling and pass it to cancel.',
    'ask the customer for their reason',
  ),
  shipped: rule(
    '- Cancel only orders still processing: a shipped order cannot be cancelled (answer "cannot cancel").',
    'cancel only orders still processing',
  ),
} as const;
export type RuleId = keyof typeof RULES;
export const RULE_IDS = Object.keys(RULES) as RuleId[];

/** The start's over-broad rule: the agent never asks, so it cannot learn what the customer holds. */
export const BROAD = rule(
  '- Do not ask the customer questions; work from what they wrote.',
  'do not ask the customer questions',
);
/** The start's harmful rule: every return refunded, whatever the item's terms. */
export const HARM = rule(
  '- When a customer wants their money back, refund the item at once.',
  'refund the item at once',
);

/** Plausible fixes that are wrong: what an analyst who sees only final answers may well write. */
export const DECOYS = {
  exchangeAll: rule(
    '- Offer an exchange instead of a refund for every returned item.',
    'offer an exchange instead of a refund',
  ),
  escalateAll: rule('- Escalate every refund request to a manager with escalate.', 'escalate every refund request'),
  overAmount: rule('- Escalate every refund over $100 to a manager instead of refunding it.', 'every refund over $100'),
  cancelNone: rule('- Never cancel an order yourself: answer "cannot cancel".', 'never cancel an order yourself'),
} as const;
export type DecoyId = keyof typeof DECOYS;

/** A generic rule an analyst without evidence writes: harmless, and no help. */
export const HERRING = rule(
  '- Confirm the outcome to the customer in one short sentence.',
  'confirm the outcome to the customer',
);

const HEAD = "# Store desk\n\nHelp the customer with their order using the store's tools.\n\n";
export const START_SKILL = `${HEAD}${BROAD.text}\n${HARM.text}\n`;
/** A skill that states every rule: what training should reach. */
export const SOLVED_SKILL = `${HEAD}${RULE_IDS.map((r) => RULES[r].text).join('\n')}\n`;

export const KINDS = ['refund', 'late', 'final', 'timeout', 'exchange', 'cancel', 'shipped'] as const;
export type Kind = (typeof KINDS)[number];
/** Kinds with no validation items: their fixes cannot win the validation gate alone. */
export const BLIND_KINDS: readonly Kind[] = ['timeout', 'shipped'];
/** Refunds are allowed this many days after delivery. */
export const REFUND_DAYS = 30;
export const SIZES = ['XS', 'S', 'M', 'L', 'XL'] as const;
/** The size an agent picks when it does not ask: the next one up. */
export const nextSize = (size: string) =>
  SIZES[Math.min(SIZES.indexOf(size as (typeof SIZES)[number]) + 1, SIZES.length - 1)];
export const REASONS = ['no longer needed', 'ordered by mistake'] as const;
/** The reason an agent writes when it does not ask. */
export const DEFAULT_REASON = 'customer request';

const FIRST = ['Dana', 'Lee', 'Ann', 'Omar', 'Rita', 'Sam', 'Ivy', 'Noah', 'Maya'];
const LAST = ['Reyes', 'Park', 'Cole', 'Haddad', 'Lund', 'Berg', 'Moss'];
const PRODUCTS: readonly [string, number][] = [
  ['wool scarf', 45],
  ['trail boots', 129],
  ['linen shirt', 58],
  ['rain jacket', 160],
  ['denim jacket', 95],
  ['running shoes', 110],
  ['knit sweater', 72],
];

/** An order as the store holds it: one item per order. */
export interface StoreOrder {
  id: string;
  customer: string;
  item: string;
  size: string;
  price: number;
  finalSale: boolean;
  status: 'processing' | 'shipped' | 'delivered';
  /** Days since delivery (delivered orders), or since shipping. */
  days: number;
}
export interface StoreCustomer {
  id: string;
  name: string;
  email: string;
  orders: string[];
}
/** The store an item starts from, and the transient faults its tools hit. */
export interface StoreData {
  customers: StoreCustomer[];
  orders: StoreOrder[];
  /** Lookup tools whose first call fails with a transient error. */
  flaky: string[];
  /** The first refund times out after it went through. */
  refundTimeout: boolean;
}

export interface RetailItem {
  id: string;
  question: string;
  answers: string[];
  split: 'train' | 'val' | 'test';
  kind: Kind;
  user_goal: string;
  max_user_turns: number;
  store: StoreData;
  /** The actions the final state must hold, as the store records them (retail-store.ts `actionOf`). */
  expected_actions: string[];
}

/** 105 items, 15 of each kind: 48 train, 15 validation (none of the blind kinds), 42 test. */
export function makeRetailItems(): RetailItem[] {
  return Array.from({ length: KINDS.length * 15 }, (_, i) => {
    const kind = KINDS[i % KINDS.length];
    const k = Math.floor(i / KINDS.length);
    const blind = BLIND_KINDS.includes(kind);
    const split = k % 5 < 2 || (k % 5 === 2 && blind) ? 'train' : k % 5 === 2 ? 'val' : 'test';
    return { id: `r${String(i).padStart(3, '0')}`, split, kind, ...itemOf(kind, i, k) };
  });
}

function itemOf(kind: Kind, i: number, k: number): Omit<RetailItem, 'id' | 'split' | 'kind'> {
  const name = `${FIRST[i % FIRST.length]} ${LAST[Math.floor(i / FIRST.length) % LAST.length]}`;
  const email = `${name.toLowerCase().replace(' ', '.')}${i}@mail.com`;
  const [product, price] = PRODUCTS[(i * 3 + k) % PRODUCTS.length];
  const size = SIZES[1 + (i % 3)];
  // The size the customer wants: never the one the agent would guess.
  const wanted = SIZES[(SIZES.indexOf(size) + 3) % SIZES.length];
  const reason = REASONS[k % 2];
  // A third of the customers share their name with another, listed first, who bought the same item.
  const twin = k % 3 === 1;
  const cid = `C${100 + i}`;
  const oid = (n: number) => `W${1000 + i * 10 + n}`;
  // The order asked about comes second or third: the agent reads one or two others first.
  const position = 1 + (k % 2);
  const status: StoreOrder['status'] = kind === 'cancel' ? 'processing' : kind === 'shipped' ? 'shipped' : 'delivered';
  const days = kind === 'late' ? 35 + ((i * 7) % 50) : kind === 'shipped' ? 2 + (i % 4) : 3 + ((i * 5) % 25);
  const target: StoreOrder = {
    id: oid(position),
    customer: cid,
    item: product,
    size,
    price,
    finalSale: kind === 'final',
    status,
    days,
  };
  const others = [0, 1, 2]
    .filter((n) => n !== position && n <= Math.max(position, 1))
    .map((n, j): StoreOrder => {
      const [p, pr] = PRODUCTS[(i * 3 + k + 1 + j) % PRODUCTS.length];
      return {
        id: oid(n),
        customer: cid,
        item: p === product ? 'canvas tote' : p,
        size: SIZES[(i + j) % SIZES.length],
        price: pr,
        finalSale: false,
        status: 'delivered',
        days: 40 + j * 11,
      };
    });
  const mine = [...others, target].sort((a, b) => a.id.localeCompare(b.id));
  const twinOrder: StoreOrder = {
    ...target,
    id: oid(7),
    customer: `C${500 + i}`,
    finalSale: false,
    status: kind === 'cancel' || kind === 'shipped' ? 'processing' : 'delivered',
    days: 5,
  };
  const customers: StoreCustomer[] = [
    ...(twin
      ? [{ id: `C${500 + i}`, name, email: `${name.toLowerCase().replace(' ', '_')}@post.net`, orders: [twinOrder.id] }]
      : []),
    { id: cid, name, email, orders: mine.map((o) => o.id) },
  ];
  const store: StoreData = {
    customers,
    orders: [...mine, ...(twin ? [twinOrder] : [])],
    flaky: k % 3 === 2 ? ['find_customer'] : k % 4 === 1 ? ['get_order'] : [],
    refundTimeout: kind === 'timeout',
  };
  const facts = `Your email is ${email}. Your size is ${wanted}. Your reason for cancelling is ${reason}.`;
  const opening = `Hi, this is ${name}.`;
  switch (kind) {
    case 'refund':
    case 'late':
    case 'final':
    case 'timeout': {
      const answer = kind === 'late' ? 'escalated' : kind === 'final' ? 'exchanged' : 'refunded';
      const action =
        kind === 'late'
          ? `escalate ${target.id}`
          : kind === 'final'
            ? `exchange ${target.id} ${wanted}`
            : `refund ${target.id} ${price.toFixed(2)}`;
      const wants = `You want your money back for the ${product} you bought, or whatever the store allows instead.`;
      const goal = `${wants} ${facts}`;
      return {
        question: `${opening} I want to return the ${product} I bought and get my money back.`,
        answers: [answer],
        user_goal: goal,
        max_user_turns: 5,
        store,
        expected_actions: [action],
      };
    }
    case 'exchange': {
      const goal = `You want the ${product} you bought exchanged for another size. ${facts}`;
      return {
        question: `${opening} The ${product} I bought does not fit; I would like to exchange it for another size.`,
        answers: ['exchanged'],
        user_goal: goal,
        max_user_turns: 5,
        store,
        expected_actions: [`exchange ${target.id} ${wanted}`],
      };
    }
    case 'cancel':
    case 'shipped': {
      const goal = `You want your order of the ${product} cancelled if the store allows it. ${facts}`;
      const expected = kind === 'cancel' ? [`cancel ${target.id} ${reason}`] : [];
      return {
        question: `${opening} Please cancel my order of the ${product}.`,
        answers: [kind === 'cancel' ? 'cancelled' : 'cannot cancel'],
        user_goal: goal,
        max_user_turns: 5,
        store,
        expected_actions: expected,
      };
    }
  }
}

/** The dataset as a JSON file writes it (its tools come from the environment module). */
export function retailDatasetText(items: readonly RetailItem[] = makeRetailItems()): string {
  const strip = ({ split: _s, kind: _k, ...rest }: RetailItem) => rest;
  const of = (s: RetailItem['split']) => items.filter((x) => x.split === s).map(strip);
  return JSON.stringify({ train: of('train'), val: of('val'), test: of('test') });
}

/** What a customer's opening message asks. */
export type Request = { kind: 'return' | 'exchange' | 'cancel'; name: string; product: string };

export function parseRequest(text: string): Request | null {
  const who = /this is ([A-Z][a-z]+ [A-Z][a-z]+)\./.exec(text)?.[1];
  if (!who) return null;
  let m = /I want to return the ([a-z ]+) I bought/.exec(text);
  if (m) return { kind: 'return', name: who, product: m[1] };
  if ((m = /The ([a-z ]+) I bought does not fit/.exec(text))) return { kind: 'exchange', name: who, product: m[1] };
  if ((m = /cancel my order of the ([a-z ]+)\./.exec(text))) return { kind: 'cancel', name: who, product: m[1] };
  return null;
}

/** How the agent asks for a fact: the simulated user recognises the fact by these words. */
export const ASK = {
  email: 'Could you tell me the email on your account?',
  size: 'Which size would you like instead?',
  reason: 'What is your reason for cancelling?',
} as const;

/** What the customer has said so far (their replies to the agent's questions). */
export function customerFacts(userMessages: readonly string[]): { email?: string; size?: string; reason?: string } {
  const all = userMessages.join('\n');
  const email = /My email is (\S+@\S+?)\.(?:\s|$)/.exec(all)?.[1];
  const size = /My size is ([A-Z]+)\./.exec(all)?.[1];
  const reason = /My reason for cancelling is ([a-z ]+)\./.exec(all)?.[1];
  return { ...(email ? { email } : {}), ...(size ? { size } : {}), ...(reason ? { reason } : {}) };
}
