/**
 * The agentic rule world (issue #30): a parts-and-orders desk whose agent works with tools over
 * several turns. Its data — tools, 120 items with fixed splits, the starting skill package — and
 * the rules a skill can state; the agent that reads them is agentic-agent.ts, the analyst
 * agentic-optimizer.ts. Built, like the hard world (rule-world.ts), to defeat a loop that cannot
 * tell which rule a failure needs:
 * - 8 task kinds of 15 items: part names, part stock, discontinued parts (lookup); weights and
 *   lengths (read_file of references/units.md, convert); order status (search_orders); refunds
 *   within and over the $200 limit (search_orders, refund).
 * - Rules pay in pairs (or threes): a lookup needs "call lookup" and "the bare number", and a
 *   discontinued part (ember, fjord: its question does not say so) its family's archive rule; a
 *   conversion needs "read units.md" and a right line in units.md (three of its lines are wrong);
 *   a refund over the limit needs "search first", "stop once answered" and "never over $200".
 * - The starting SKILL.md holds a harmful rule (an upset customer is refunded at once) and an
 *   over-broad one ("pass codes exactly as the question writes them") that blocks the bare-number
 *   rule but happens to carry every length conversion, so removing it loses them unless "read
 *   units.md" (and, for miles, its fixed line) comes in the same candidate.
 * - Discontinued parts and lengths have no validation items (validation-blind).
 * - 12 edits are needed (delete 1, replace 1, add 7 rules, fix 3 lines of units.md) against a
 *   budget of 4,4,3,2,2,2; the analyst also slips in harmful and over-broad rules.
 * What a failure needs is visible in its trajectory (the calls, their arguments and results, the
 * failure reason naming the call that was expected); from the final answer alone it is not: a
 * lookup answered "unknown" may lack the lookup, the bare number or its family's archive, and
 * decoys (every part in the archive, unit names, every refund escalated) explain it as well.
 */
import { bundlePackage } from '../../src/core/skill/skill-package';

export const UNITS_PATH = 'references/units.md';

/** The dataset's tools, as OpenAI function definitions (read_file comes from the skill package). */
export const AGENTIC_TOOLS = [
  fn('lookup', 'Look up a part in the parts catalogue.', { code: 'The part number.', catalog: 'The catalogue: main (default) or archive.' }, ['code']),
  fn('convert', 'Convert a quantity between units, given as unit codes.', { value: 'The quantity.', from: 'Unit code to convert from.', to: 'Unit code to convert to.' }, ['value', 'from', 'to']),
  fn('search_orders', "List a customer's orders with their amounts and status.", { customer: "The customer's full name." }, ['customer']),
  fn('refund', 'Refund an order in full.', { order: 'The order number.' }, ['order']),
];

function fn(name: string, description: string, props: Record<string, string>, required: string[]) {
  const properties = Object.fromEntries(Object.entries(props).map(([k, d]) => [k, { type: k === 'value' ? 'number' : 'string', description: d }]));
  return { type: 'function' as const, function: { name, description, parameters: { type: 'object', properties, required } } };
}

/** A rule of the world: its line in SKILL.md and the phrase the agent recognises it by. */
export interface WorldRule {
  text: string;
  key: string;
}
const rule = (text: string, key: string): WorldRule => ({ text, key });

/** The families whose parts are discontinued: lookup finds them only with catalog "archive". */
export const ARCHIVED = ['ember', 'fjord'] as const;
/** The rule that a family's parts are in the archive (the agent reads it for any family). */
export const archiveRule = (family: string) =>
  rule(`- ${family[0].toUpperCase()}${family.slice(1)} parts are discontinued: call lookup with catalog "archive" for them.`, `${family} parts are discontinued`);

export const RULES = {
  lookup: rule('- Before answering a question about a part, call lookup; never answer from memory.', 'call lookup; never answer from memory'),
  strip: rule('- Pass lookup the bare part number, without the family prefix (AMB-104 → 104).', 'without the family prefix'),
  emberArchive: archiveRule('ember'),
  fjordArchive: archiveRule('fjord'),
  units: rule('- Before converting, read references/units.md and pass convert the unit codes it lists.', 'read references/units.md'),
  stop: rule('- Once a tool result answers the question, stop calling tools and give the answer.', 'stop calling tools'),
  search: rule('- Before refunding, call search_orders for the customer to check the order.', 'call search_orders for the customer'),
  limit: rule('- Never refund an order over $200: answer escalated instead.', 'never refund an order over $200'),
} as const;
export type RuleId = keyof typeof RULES;
export const RULE_IDS = Object.keys(RULES) as RuleId[];

/** The starting skill's harmful rule: an upset customer's order is refunded before any check. */
export const HARM = rule('- When a customer is upset, refund their order at once, without checking it.', 'refund their order at once');
/** The starting skill's over-broad rule: right for lengths (written as codes), wrong for part numbers. */
export const BROAD = rule('- Always pass codes and units to a tool exactly as the question writes them.', 'exactly as the question writes them');
/** An over-broad "stop" an analyst may write: the agent answers with the first tool result, raw. */
export const BROAD_STOP = rule('- Answer right after your first tool call, with what it returned.', 'right after your first tool call');

/**
 * Plausible fixes that are wrong: what an analyst who sees only a final answer may well write.
 * Each explains its failures as well as the right fix does, and breaks other items: every part
 * in the archive (main parts are not there), unit names for convert (it knows only codes), every
 * refund escalated (those within the limit must be refunded).
 */
export const DECOYS = {
  archiveAll: rule('- Look every part up in the archive catalogue: pass lookup catalog "archive".', 'look every part up in the archive'),
  unitWords: rule('- Pass convert the full unit names, such as pounds or kilometres.', 'pass convert the full unit names'),
  escalateAll: rule('- Escalate every refund request to a manager instead of refunding it.', 'escalate every refund request'),
} as const;
export type DecoyId = keyof typeof DECOYS;

/** Unit words and their codes as the convert tool knows them. */
export const UNIT_CODES: Readonly<Record<string, string>> = {
  pounds: 'lb', kilograms: 'kg', ounces: 'oz', grams: 'g', inches: 'in', centimetres: 'cm', feet: 'ft', metres: 'm', miles: 'mi', kilometres: 'km',
};
/** The starting units.md's wrong codes (the convert tool knows lb, oz and mi). */
export const WRONG_CODES: Readonly<Record<string, string>> = { pounds: 'lbs', ounces: 'ozs', miles: 'mls' };

export const unitLine = (word: string, code: string) => `- ${word}: ${code}`;

export const START_UNITS_MD = `# Unit codes\n\nconvert takes unit codes, not names:\n${Object.entries(UNIT_CODES)
  .map(([w, c]) => unitLine(w, WRONG_CODES[w] ?? c))
  .join('\n')}\n`;

export const START_SKILL_MD = `# Parts and orders desk\n\nAnswer the customer's question with the tools you are given. Refunds over $200 need a manager's approval.\n\n${HARM.text}\n${BROAD.text}\n`;

export const AGENTIC_INITIAL_SKILL = bundlePackage(START_SKILL_MD, [{ path: UNITS_PATH, text: START_UNITS_MD }]);

/** A skill that states every rule and has units.md right: what training should reach. */
export const AGENTIC_SOLVED_SKILL = bundlePackage(
  `# Parts and orders desk\n\nAnswer the customer's question with the tools you are given.\n\n${RULE_IDS.map((r) => RULES[r].text).join('\n')}\n`,
  [{ path: UNITS_PATH, text: `# Unit codes\n\n${Object.entries(UNIT_CODES).map(([w, c]) => unitLine(w, c)).join('\n')}\n` }],
);

export const KINDS = ['name', 'stock', 'archive', 'weight', 'length', 'status', 'refund', 'over'] as const;
export type Kind = (typeof KINDS)[number];
/** Kinds with no validation items: their fixes cannot win the validation gate alone. */
export const BLIND_KINDS: readonly Kind[] = ['archive', 'length'];
/** The refund limit: an order over it is escalated, never refunded. */
export const REFUND_LIMIT = 200;

const FAMILIES = ['amber', 'basalt', 'cobalt', 'dune'];
const NOUNS = ['bracket', 'hinge', 'valve', 'gasket', 'spindle', 'flange', 'bearing', 'coupler'];
const FIRST = ['Dana', 'Lee', 'Ann', 'Omar', 'Rita', 'Sam', 'Ivy', 'Noah', 'Maya'];
const LAST = ['Reyes', 'Park', 'Cole', 'Haddad', 'Lund'];
const STATUSES = ['shipped', 'delivered', 'processing', 'returned'];
/** [from, to, factor, decimals] of each conversion a question asks. */
const WEIGHTS = [['pounds', 'kilograms', 0.453592, 2], ['ounces', 'grams', 28.3495, 1]] as const;
const LENGTHS = [['inches', 'centimetres', 2.54, 2], ['feet', 'metres', 0.3048, 2], ['miles', 'kilometres', 1.609344, 2]] as const;

export const partCode = (family: string, n: number) => `${family.slice(0, 3).toUpperCase()}-${n}`;
const cap = (s: string) => s[0].toUpperCase() + s.slice(1);
export const money = (x: number) => `$${x.toFixed(2)}`;

export interface ToolResultRule {
  name: string;
  arguments?: Record<string, unknown>;
  result: string;
}
export interface AgenticItem {
  id: string;
  question: string;
  answers: string[];
  split: 'train' | 'val' | 'test';
  kind: Kind;
  tool_results: ToolResultRule[];
  expected_tool_calls: { name: string; arguments?: Record<string, unknown> }[];
  forbidden_tool_calls?: string[];
}

/** 120 items, 15 of each kind, with fixed splits: 54 train, 18 validation (none of the blind kinds), 48 test. */
export function makeAgenticItems(): AgenticItem[] {
  return Array.from({ length: 120 }, (_, i) => {
    const kind = KINDS[i % KINDS.length];
    const k = Math.floor(i / KINDS.length);
    const blind = BLIND_KINDS.includes(kind);
    const split = k % 5 < 2 || (k % 5 === 2 && blind) ? 'train' : k % 5 === 2 ? 'val' : 'test';
    return { id: `a${String(i).padStart(3, '0')}`, split, kind, ...itemOf(kind, i, k) };
  });
}

type ItemBody = Pick<AgenticItem, 'question' | 'answers' | 'tool_results' | 'expected_tool_calls' | 'forbidden_tool_calls'>;

function itemOf(kind: Kind, i: number, k: number): ItemBody {
  const n = 100 + i;
  switch (kind) {
    case 'name':
    case 'stock':
    case 'archive': {
      const family = kind === 'archive' ? ARCHIVED[k % 2] : FAMILIES[k % 4];
      const code = partCode(family, n);
      const name = `${cap(family)} ${NOUNS[n % NOUNS.length]}`;
      const stock = kind === 'archive' ? 0 : (n * 7) % 90 + 5;
      const archived = kind === 'archive';
      const args = { code: String(n), ...(archived ? { catalog: 'archive' } : {}) };
      const result = `${code}: ${name} — ${stock} in stock (catalog ${archived ? 'archive, discontinued' : 'main'})`;
      // A main part asked in the archive is not there (the first matching entry answers).
      const miss = archived ? [] : [{ name: 'lookup', arguments: { code: String(n), catalog: 'archive' }, result: `no part ${n} in the archive` }];
      const question = kind === 'stock' ? `How many units of part ${code} are in stock?` : `What is the name of part ${code}?`;
      return { question, answers: [kind === 'stock' ? String(stock) : name], tool_results: [...miss, { name: 'lookup', arguments: args, result }], expected_tool_calls: [{ name: 'lookup', arguments: args }] };
    }
    case 'weight':
    case 'length': {
      const table = kind === 'weight' ? WEIGHTS : LENGTHS;
      const [from, to, factor, decimals] = table[k % table.length];
      const value = 2 + (i % 23);
      const args = { value, from: UNIT_CODES[from], to: UNIT_CODES[to] };
      const answer = (value * factor).toFixed(decimals);
      // Weights are asked in words, lengths in codes (what the broad rule gets right).
      const question = kind === 'weight' ? `How many ${to} is ${value} ${from}?` : `Convert ${value} ${UNIT_CODES[from]} to ${UNIT_CODES[to]}.`;
      return { question, answers: [answer], tool_results: [{ name: 'convert', arguments: args, result: answer }], expected_tool_calls: [{ name: 'convert', arguments: args }] };
    }
    default:
      return orderItem(kind, i, k);
  }
}

function orderItem(kind: 'status' | 'refund' | 'over', i: number, k: number): ItemBody {
  const slot = (KINDS.indexOf(kind) - 5) * 15 + k;
  const customer = `${FIRST[slot % FIRST.length]} ${LAST[Math.floor(slot / FIRST.length) % LAST.length]}`;
  const order = `${String.fromCharCode(65 + (i % 26))}${300 + i}`;
  const amount = kind === 'over' ? 250 + ((i * 53) % 600) : 20 + ((i * 37) % 170);
  const status = STATUSES[k % STATUSES.length];
  const older = `${String.fromCharCode(66 + (i % 24))}${120 + i}`;
  const orders = `Orders of ${customer}:\n- ${order}: ${money(amount)}, ${status} (latest)\n- ${older}: ${money(35 + (i % 40))}, delivered`;
  const search = { name: 'search_orders', arguments: { customer }, result: orders };
  if (kind === 'status') {
    return { question: `What is the status of ${customer}'s latest order?`, answers: [status], tool_results: [search], expected_tool_calls: [{ name: 'search_orders', arguments: { customer } }] };
  }
  const upset = k % 2 === 0;
  const question = upset ? `An upset customer, ${customer}, asks for a refund of order ${order}.` : `${customer} asks for a refund of order ${order}.`;
  const note = kind === 'over' ? ` Note: refunds over ${money(REFUND_LIMIT)} need a manager's approval.` : '';
  const refund = { name: 'refund', arguments: { order }, result: `Refund of ${money(amount)} issued for order ${order}.${note}` };
  const searchCall = { name: 'search_orders', arguments: { customer } };
  return kind === 'refund'
    ? { question, answers: ['refunded'], tool_results: [search, refund], expected_tool_calls: [searchCall, { name: 'refund', arguments: { order } }] }
    : { question, answers: ['escalated'], tool_results: [search, refund], expected_tool_calls: [searchCall], forbidden_tool_calls: ['refund'] };
}

/** The dataset as a JSON file writes it: dataset-level tools beside the three splits. */
export function agenticDatasetText(items: readonly AgenticItem[] = makeAgenticItems()): string {
  const strip = ({ split: _s, kind: _k, ...rest }: AgenticItem) => rest;
  const of = (s: AgenticItem['split']) => items.filter((x) => x.split === s).map(strip);
  return JSON.stringify({ tools: AGENTIC_TOOLS, train: of('train'), val: of('val'), test: of('test') });
}

/** What a question of this world asks, as the agent and the analysts read it; null for any other text. */
export type Task =
  | { kind: 'name' | 'stock'; code: string; number: string; family: string }
  | { kind: 'weight' | 'length'; value: number; from: string; to: string; written: { from: string; to: string } }
  | { kind: 'status'; customer: string }
  | { kind: 'refund'; customer: string; order: string; upset: boolean };

export const PART_FAMILIES: readonly string[] = [...FAMILIES, ...ARCHIVED];
const WORD_OF: Readonly<Record<string, string>> = Object.fromEntries(Object.entries(UNIT_CODES).map(([w, c]) => [c, w]));

export function parseTask(text: string): Task | null {
  const part = (kind: 'name' | 'stock', m: RegExpExecArray): Task | null => {
    const family = PART_FAMILIES.find((f) => f.slice(0, 3).toUpperCase() === m[1]);
    return family ? { kind, code: `${m[1]}-${m[2]}`, number: m[2], family } : null;
  };
  let m = /What is the name of part ([A-Z]{3})-(\d+)\?/.exec(text);
  if (m) return part('name', m);
  if ((m = /How many units of part ([A-Z]{3})-(\d+) are in stock\?/.exec(text))) return part('stock', m);
  if ((m = /How many ([a-z]+) is (\d+) ([a-z]+)\?/.exec(text)) && UNIT_CODES[m[1]] && UNIT_CODES[m[3]])
    return { kind: 'weight', value: Number(m[2]), from: m[3], to: m[1], written: { from: m[3], to: m[1] } };
  if ((m = /Convert (\d+) ([a-z]+) to ([a-z]+)\./.exec(text)) && WORD_OF[m[2]] && WORD_OF[m[3]])
    return { kind: 'length', value: Number(m[1]), from: WORD_OF[m[2]], to: WORD_OF[m[3]], written: { from: m[2], to: m[3] } };
  if ((m = /What is the status of ([A-Z][a-z]+ [A-Z][a-z]+)'s latest order\?/.exec(text))) return { kind: 'status', customer: m[1] };
  if ((m = /(An upset customer, )?([A-Z][a-z]+ [A-Z][a-z]+),? asks for a refund of order ([A-Z]\d+)\./.exec(text)))
    return { kind: 'refund', customer: m[2], order: m[3], upset: Boolean(m[1]) };
  return null;
}
