/**
 * The retail world's store as an environment module (issue #43 item 2; the contract of
 * src/engine/module-environment.ts): each episode's state is a copy of the item's store plus the
 * actions taken on it; `call` answers the lookups and applies the actions; `score` compares the
 * final state's actions with the item's `expected_actions` — so a wrong refund, a second refund
 * after a timeout or a cancelled parcel stays, whatever the agent answers. Transient faults: a
 * flaky lookup fails its first call; a timed-out refund went through before it failed.
 * Written as a user writes a module (plain data in, text out); the bench serves it through the
 * engine's module host, as the runner serves a module file.
 */
import type { StoreData, StoreOrder } from './retail-world';

interface StoreState {
  store: StoreData;
  /** The actions taken, as `actionOf` writes them: the final state the score reads. */
  actions: string[];
  calls: Record<string, number>;
}

type Args = Record<string, unknown>;
const str = (v: unknown) => (typeof v === 'string' ? v.trim() : '');
const money = (x: number) => `$${x.toFixed(2)}`;

const tool = (name: string, description: string, props: Record<string, string>, required = Object.keys(props)) => ({
  type: 'function' as const,
  function: {
    name,
    description,
    parameters: {
      type: 'object',
      properties: Object.fromEntries(Object.entries(props).map(([k, d]) => [k, { type: 'string', description: d }])),
      required,
    },
  },
});

export const RETAIL_TOOLS = [
  tool(
    'find_customer',
    'Find a customer by email or by full name; lists their orders.',
    { email: 'The email on the account.', name: 'The full name.' },
    [],
  ),
  tool('get_order', 'Read an order: its item, size, price, terms, status and what was done to it.', {
    order: 'The order id, e.g. W1001.',
  }),
  tool('refund', "Refund an order's item in full to the original payment. Cannot be undone.", {
    order: 'The order id.',
  }),
  tool('exchange', "Exchange an order's item for another size. Cannot be undone.", {
    order: 'The order id.',
    size: 'The new size: XS, S, M, L or XL.',
  }),
  tool('cancel', 'Cancel an order. Cannot be undone.', { order: 'The order id.', reason: "The customer's reason." }),
  tool('escalate', 'Hand the case to a manager.', { order: 'The order id.', summary: 'What the customer wants.' }),
];

/** An action as the final state records it. */
export const actionOf = {
  refund: (o: StoreOrder) => `refund ${o.id} ${o.price.toFixed(2)}`,
  exchange: (o: StoreOrder, size: string) => `exchange ${o.id} ${size}`,
  cancel: (o: StoreOrder, reason: string) => `cancel ${o.id} ${reason}`,
  escalate: (o: StoreOrder) => `escalate ${o.id}`,
};

function customerLine(s: StoreData, id: string): string {
  const c = s.customers.find((x) => x.id === id)!;
  return `${c.id} ${c.name} <${c.email}>: orders ${c.orders.join(', ')}`;
}

function findCustomer(s: StoreData, args: Args): string {
  const email = str(args.email).toLowerCase();
  const name = str(args.name).toLowerCase();
  const found = s.customers.filter((c) => (email ? c.email === email : name ? c.name.toLowerCase() === name : false));
  if (!email && !name) throw new Error('give an email or a name');
  if (!found.length) return 'No customer found.';
  if (found.length === 1) return `Customer ${customerLine(s, found[0].id)}`;
  const lines = found.map((c) => `- ${customerLine(s, c.id)}`);
  return `${found.length} customers named ${found[0].name}:\n${lines.join('\n')}`;
}

function orderText(st: StoreState, o: StoreOrder): string {
  const status =
    o.status === 'processing'
      ? 'processing, not shipped yet'
      : o.status === 'shipped'
        ? `shipped ${o.days} days ago, in transit`
        : `delivered ${o.days} days ago`;
  const done = st.actions.filter((a) => a.split(' ')[1] === o.id);
  const history = done.length ? `; done: ${done.map((a) => a.replace(` ${o.id}`, '')).join(', ')}` : '';
  const terms = o.finalSale ? ', final sale' : '';
  return `Order ${o.id} of ${o.customer}: ${o.item}, size ${o.size}, ${money(o.price)}${terms}; ${status}${history}`;
}

function orderOf(s: StoreData, args: Args): StoreOrder {
  const id = str(args.order).toUpperCase();
  const o = s.orders.find((x) => x.id === id);
  if (!o) throw new Error(`no order ${id || '(none given)'}`);
  return o;
}

function call(name: string, args: Args, st: StoreState): string {
  const s = st.store;
  const n = (st.calls[name] = (st.calls[name] ?? 0) + 1);
  if (n === 1 && s.flaky.includes(name)) throw new Error('the store service is temporarily unavailable; try again');
  switch (name) {
    case 'find_customer':
      return findCustomer(s, args);
    case 'get_order':
      return orderText(st, orderOf(s, args));
    case 'refund': {
      const o = orderOf(s, args);
      if (o.status !== 'delivered') throw new Error(`order ${o.id} has not been delivered: cancel it instead`);
      st.actions.push(actionOf.refund(o));
      // The payment gateway answers late: the refund went through, the call fails.
      if (n === 1 && s.refundTimeout) throw new Error('payment gateway timeout after 30 s');
      return `Refund of ${money(o.price)} issued for the ${o.item} of order ${o.id}.`;
    }
    case 'exchange': {
      const o = orderOf(s, args);
      const size = str(args.size).toUpperCase();
      if (!size) throw new Error('give the new size');
      if (o.status !== 'delivered') throw new Error(`order ${o.id} has not been delivered yet`);
      st.actions.push(actionOf.exchange(o, size));
      return `Exchange of the ${o.item} of order ${o.id} for size ${size} placed.`;
    }
    case 'cancel': {
      const o = orderOf(s, args);
      if (o.status === 'delivered') throw new Error(`order ${o.id} was delivered: it cannot be cancelled`);
      st.actions.push(actionOf.cancel(o, str(args.reason) || 'none given'));
      return o.status === 'shipped'
        ? `Order ${o.id} was in transit: recalled and cancelled, with a $15.00 recall fee charged to the customer.`
        : `Order ${o.id} cancelled.`;
    }
    case 'escalate': {
      const o = orderOf(s, args);
      st.actions.push(actionOf.escalate(o));
      return `Order ${o.id} escalated to a manager (ticket T-${o.id}).`;
    }
    default:
      throw new Error(`unknown tool ${name}`);
  }
}

const list = (actions: readonly string[]) => (actions.length ? [...actions].sort().join(', ') : 'no action');

/** The module's default export, as a user's module writes it. */
const retailStore = {
  name: 'retail store',
  tools: RETAIL_TOOLS,
  reset(item: Record<string, unknown>): StoreState {
    return { store: structuredClone(item.store as StoreData), actions: [], calls: {} };
  },
  call(name: string, args: unknown, state: unknown): string {
    return call(name, (args ?? {}) as Args, state as StoreState);
  },
  score({ item, state }: { item: Record<string, unknown>; state: unknown }) {
    const got = list((state as StoreState).actions);
    const want = list((item.expected_actions as string[] | undefined) ?? []);
    return got === want
      ? { hard: 1, soft: 1 }
      : { hard: 0, soft: 0, failReason: `final state: ${got}; expected: ${want}` };
  },
};
export default retailStore;
