/**
 * The retail world's simulated analyst (issue #43 item 2): it reads each failed conversation as
 * the engine renders it — the customer's opening ("Task:"), every call with its arguments and
 * result, the customer's replies — and knows the store's vocabulary as a capable model knows its
 * domain; what it must find out is which rule a failure needs:
 * - `diagnose` (trajectories shown): the middle result that the agent's action contradicts — a
 *   refund of an item get_order showed as final sale or delivered over 30 days ago, a second
 *   refund after a timeout, a cancel of a shipped order, two customers of one name and no email
 *   asked, an exchange or cancel with a size or reason never asked (and the "do not ask" rule
 *   that blocked asking, the "refund at once" rule that blocked the limits);
 * - `guess` (final answers only, the ablation): one or two causes drawn from those that explain
 *   the answer as well — the right ones, a harmless generic rule, and the world's decoys
 *   (exchange or escalate every return), which break other kinds.
 * Reading conversations it also over-reacts, a quarter of the time, to a single one: beside the
 * right rule it writes the one it read too broadly (exchange every return, escalate every refund
 * or those over $100, never cancel).
 * Decided by a hash of its prompt it slips as the other worlds' analysts do (echoed example
 * edits, empty, harmful and over-broad rules, lines that are not there, restated lines). Merging
 * and ranking are the hard world's; the repairer sees answers only: it drops the harmful, the
 * over-broad and decoy rules behind regressions; the epoch reviewer adds a harmless line.
 */
import { AGENT_ANALYST } from '../../src/core/simulators/demo-tool-world';
import { readOrder, type SeenOrder } from './retail-agent';
import {
  BROAD,
  DECOYS,
  HARM,
  HERRING,
  REFUND_DAYS,
  RULES,
  parseRequest,
  type DecoyId,
  type Request,
  type RuleId,
  type WorldRule,
} from './retail-world';
import { hardOptimizerAnswer } from './hard-optimizer';
import { after, dedupeEdits, exampleEditsIn, hashFraction, section, type SimEdit } from './sim-text';

const RATES = { echo: 0.3, empty: 0.1, harmful: 0.15, broad: 0.15, hallucinate: 0.2, restate: 0.2 };

interface SeenCall {
  name: string;
  args: Record<string, unknown>;
  result: string;
}

/** One failed conversation, as much of it as the prompt shows. */
export interface Evidence {
  request: Request;
  predicted: string;
  expected: string[];
  /** The calls and the agent's own messages, when the conversation is shown; else null. */
  calls: SeenCall[] | null;
  said: string[];
}

const json = (text: string): Record<string, unknown> => {
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
};

/** The calls and the agent's messages of a rendered conversation (null when only the answer is shown). */
function conversationOf(text: string): { calls: SeenCall[]; said: string[] } | null {
  const blocks = text.split(
    /\n(?=\[(?:assistant turn|tool call turn|tool result turn|tool error turn|user message|agent|verification)\b)/,
  );
  const calls: SeenCall[] = [];
  const said: string[] = [];
  let shown = false;
  for (const block of blocks) {
    const head = /^\[(tool call|tool result|tool error|assistant) turn \d+\] ?([\s\S]*)$/.exec(block.trim());
    if (!head) continue;
    shown = true;
    if (head[1] === 'assistant') said.push(head[2]);
    else if (head[1] === 'tool call') {
      const m = /^(\w+)\(([\s\S]*)\)$/.exec(head[2].trim());
      if (m) calls.push({ name: m[1], args: json(m[2]), result: '' });
    } else if (calls.length)
      calls[calls.length - 1].result =
        `${head[1] === 'tool error' ? 'Error: ' : ''}${head[2].trim().replace(/^Error: /, '')}`;
  }
  return shown ? { calls, said } : null;
}

function expectedIn(block: string): string[] {
  try {
    const v: unknown = JSON.parse(/^Expected: (.*)$/m.exec(block)?.[1] ?? '[]');
    return Array.isArray(v) ? v.map(String) : [];
  } catch {
    return [];
  }
}

/** Every failed conversation of a prompt section ("### Trajectory" blocks). */
export function evidenceIn(text: string): Evidence[] {
  return text
    .split('### Trajectory ')
    .slice(1)
    .flatMap((block) => {
      const request = parseRequest(/^Task: (.*)$/m.exec(block)?.[1] ?? '');
      if (!request) return [];
      const conv = conversationOf(block.split('#### Conversation')[1] ?? '');
      const predicted = /^Predicted answer: (.*)$/m.exec(block)?.[1]?.trim() ?? '';
      return [{ request, predicted, expected: expectedIn(block), calls: conv?.calls ?? null, said: conv?.said ?? [] }];
    });
}

const has = (skill: string, key: string) => skill.toLowerCase().includes(key.toLowerCase());
const failure = (e: SimEdit): SimEdit => ({ support_count: 1, source_type: 'failure', target: '', ...e });
const add = (skill: string, r: WorldRule): SimEdit | null =>
  has(skill, r.key) ? null : failure({ op: 'append', content: r.text });
const rule = (skill: string, id: RuleId) => add(skill, RULES[id]);
const drop = (skill: string, r: WorldRule): SimEdit | null =>
  skill.includes(r.text) ? failure({ op: 'delete', target: r.text, content: '' }) : null;
const dropDecoy = (skill: string, d: DecoyId) => drop(skill, DECOYS[d]);
/** An asking rule comes with the removal of the rule that forbids asking. */
const askFix = (skill: string, id: RuleId) => [drop(skill, BROAD), rule(skill, id)];
/** A refund limit comes with the removal of the rule that refunds at once. */
const limitFix = (skill: string, id: RuleId) => [drop(skill, HARM), rule(skill, id)];
const present = (list: (SimEdit | null | false | undefined)[]) => list.filter((e): e is SimEdit => Boolean(e));

/** What a failed conversation shows the skill lacked or got wrong. */
export function diagnose(ev: Evidence, skill: string): SimEdit[] {
  const calls = ev.calls ?? [];
  const fixes: (SimEdit | null | false)[] = [];
  const ok = (c: SeenCall) => !c.result.startsWith('Error:');
  const orders = new Map<string, SeenOrder>();
  for (const c of calls) {
    const o = c.name === 'get_order' && ok(c) ? readOrder(c.result) : null;
    if (o && !orders.has(o.id)) orders.set(o.id, o);
  }
  const askedFor = (word: string) => ev.said.some((t) => t.toLowerCase().includes(word));
  // Two customers of the name, the first one taken, no email asked.
  const twins = calls.find((c) => c.name === 'find_customer' && /^\d+ customers named/.test(c.result));
  if (twins && !calls.some((c) => c.name === 'find_customer' && c.args.email)) fixes.push(...askFix(skill, 'email'));
  const refunds = calls.filter((c) => c.name === 'refund');
  for (const c of refunds) {
    const o = orders.get(String(c.args.order));
    if (o?.finalSale) fixes.push(...limitFix(skill, 'finalSale'));
    if (o && o.status === 'delivered' && o.days > REFUND_DAYS) fixes.push(...limitFix(skill, 'window'));
  }
  if (refunds.length > 1 && /timeout/.test(refunds[0].result)) fixes.push(rule(skill, 'timeout'));
  for (const c of calls.filter((x) => x.name === 'exchange')) {
    if (!askedFor('size')) fixes.push(...askFix(skill, 'size'));
    const o = orders.get(String(c.args.order));
    if (ev.request.kind === 'return' && o && !o.finalSale) fixes.push(dropDecoy(skill, 'exchangeAll'));
  }
  for (const c of calls.filter((x) => x.name === 'cancel')) {
    if (orders.get(String(c.args.order))?.status === 'shipped') fixes.push(rule(skill, 'shipped'));
    else if (ok(c) && !askedFor('reason')) fixes.push(...askFix(skill, 'reason'));
  }
  for (const c of calls.filter((x) => x.name === 'escalate')) {
    const o = orders.get(String(c.args.order));
    if (o && o.days <= REFUND_DAYS) fixes.push(dropDecoy(skill, 'escalateAll'), dropDecoy(skill, 'overAmount'));
  }
  // Refused a cancellation of an order still processing.
  const processing = [...orders.values()].some((o) => o.item === ev.request.product && o.status === 'processing');
  if (ev.request.kind === 'cancel' && ev.predicted === 'cannot cancel' && processing)
    fixes.push(dropDecoy(skill, 'cancelNone'));
  return present(fixes);
}

/** Causes that explain a failure seen only by its final answer, each with how plausible it is. */
function suspects(ev: Evidence, skill: string): [SimEdit[], number][] {
  const herring: [SimEdit[], number] = [present([add(skill, HERRING)]), 1];
  const want = (a: string) => ev.expected.includes(a);
  const got = (a: string) => ev.predicted === a;
  const email: [SimEdit[], number] = [present(askFix(skill, 'email')), 1];
  // The answer says what should have happened, not why: the condition (30 days, final sale,
  // shipped) is in a tool result it does not see, so the right rule is one guess among others.
  if (want('escalated') && got('refunded'))
    return [
      [present(limitFix(skill, 'window')), 1],
      [present([add(skill, DECOYS.escalateAll)]), 2],
      [present([add(skill, DECOYS.overAmount)]), 2],
      [present([drop(skill, HARM)]), 1],
      herring,
    ];
  if (want('exchanged') && got('refunded'))
    return [
      [present(limitFix(skill, 'finalSale')), 1],
      [present([add(skill, DECOYS.exchangeAll)]), 3],
      [present([drop(skill, HARM)]), 1],
      herring,
    ];
  if (want('exchanged')) return [[present(askFix(skill, 'size')), 2], email, herring];
  // Right as text, wrong in the store: a second refund or the other customer, neither in sight.
  if (want('refunded') && got('refunded')) return [email, [present([rule(skill, 'timeout')]), 0.25], [herring[0], 2]];
  if (want('refunded'))
    return [
      [present([dropDecoy(skill, 'escalateAll'), dropDecoy(skill, 'overAmount'), dropDecoy(skill, 'exchangeAll')]), 3],
      herring,
    ];
  if (want('cancelled') && got('cannot cancel')) return [[present([dropDecoy(skill, 'cancelNone')]), 3], herring];
  if (want('cancelled')) return [[present(askFix(skill, 'reason')), 2], email, herring];
  if (want('cannot cancel'))
    return [[present([rule(skill, 'shipped')]), 1], [present([add(skill, DECOYS.cancelNone)]), 2], herring];
  return [herring];
}

/** An analyst's guess without the conversation: one suspect drawn by plausibility, a second one half the time. */
export function guess(ev: Evidence, skill: string, draw: (k: number) => number): SimEdit[] {
  const pool = suspects(ev, skill).filter(([edits]) => edits.length);
  const out: SimEdit[] = [];
  const count = draw(0) < 0.5 ? 2 : 1;
  for (let k = 1; k <= count && pool.length; k++) {
    const total = pool.reduce((a, [, w]) => a + w, 0);
    let x = draw(k) * total;
    const i = pool.findIndex(([, w]) => (x -= w) < 0);
    out.push(...pool.splice(i < 0 ? pool.length - 1 : i, 1)[0][0]);
  }
  return out;
}

/** The edits an analyst proposes for these failures: diagnosed from conversations, else guessed. */
export function fixesFor(failures: readonly Evidence[], skill: string, seed: string, noise = 1): SimEdit[] {
  const edits = failures.flatMap((ev, i) => {
    if (!ev.calls) return guess(ev, skill, (k) => hashFraction(`guess ${i} ${k}\n${seed}`));
    const fixes = diagnose(ev, skill);
    const draw = hashFraction(`overreach ${i}\n${seed}`);
    return draw < OVERREACH * noise ? [...fixes, ...overreach(fixes, skill, draw)] : fixes;
  });
  return dedupeEdits(edits).sort((a, b) => (b.support_count ?? 0) - (a.support_count ?? 0));
}

/** How often, at noise 1, an analyst generalises one conversation's fix too far. */
const OVERREACH = 0.25;

/**
 * Reflection over-reacting to a single trajectory (issue #43; R2PO, HALO): beside the right rule,
 * the rule it read too broadly — exchange every return, escalate every refund (or those over $100),
 * never cancel — which breaks other kinds.
 */
function overreach(fixes: readonly SimEdit[], skill: string, draw: number): SimEdit[] {
  const wrote = (id: RuleId) => fixes.some((e) => e.content === RULES[id].text);
  const broader: (SimEdit | null)[] = [];
  if (wrote('finalSale')) broader.push(add(skill, DECOYS.exchangeAll));
  if (wrote('window')) broader.push(add(skill, draw < OVERREACH / 2 ? DECOYS.escalateAll : DECOYS.overAmount));
  if (wrote('shipped')) broader.push(add(skill, DECOYS.cancelNone));
  return present(broader);
}

function slips(user: string, system: string, skill: string, noise: number): SimEdit[] {
  const happens = (kind: keyof typeof RATES) => hashFraction(`${kind}\n${user}`) < RATES[kind] * noise;
  const out: SimEdit[] = [];
  const example = exampleEditsIn(system)[0];
  if (example && happens('echo')) out.push({ ...example });
  if (happens('empty')) out.push({ op: 'append', content: '' });
  if (happens('harmful') && !has(skill, HARM.key)) out.push({ op: 'append', content: HARM.text });
  if (happens('broad') && !has(skill, BROAD.key)) out.push({ op: 'append', content: BROAD.text });
  const lines = skill.split('\n').filter((l) => l.startsWith('- '));
  const pick = lines[Math.floor(hashFraction(`line\n${user}`) * lines.length)];
  if (pick && happens('hallucinate'))
    out.push({ op: 'replace', target: pick.replace('- ', '- Always '), content: `${pick} Be polite.` });
  if (pick && happens('restate')) out.push({ op: 'append', content: pick });
  return out.map((e) => failure(e));
}

/** A bad rule: the harmful or over-broad one, or a decoy. */
const badRule = (content: string) => [HARM, BROAD, ...Object.values(DECOYS)].some((r) => has(content, r.key));

export function retailOptimizerAnswer(
  stage: string,
  system: string,
  user: string,
  o: { noise: number },
): unknown | undefined {
  if (!system.includes(AGENT_ANALYST) && stage.startsWith('reflect')) return undefined;
  const skill = section(user, '## Current Skill');
  const budget = Number(/L=(\d+)/.exec(user)?.[1] ?? 4);
  switch (stage) {
    case 'reflect_failure': {
      const failures = evidenceIn(after(user, '## Failed Trajectories'));
      const fixes = fixesFor(failures, skill, user, o.noise);
      const edits = [...slips(user, system, skill, o.noise), ...fixes].slice(0, budget);
      const seen = failures.filter((f) => f.calls).length;
      return {
        batch_size: failures.length,
        failure_summary: failures.length
          ? [
              {
                failure_type: 'rule_missing',
                count: failures.length,
                description: `${seen} of ${failures.length} conversations shown in full`,
              },
            ]
          : [],
        patch: { reasoning: `Fixes for ${failures.length} failed conversations.`, edits },
      };
    }
    case 'reflect_success':
      return { batch_size: 0, success_patterns: [], patch: { reasoning: 'nothing new', edits: [] } };
    case 'repair_edits': {
      const lines = [...section(user, '## Candidate Edits').matchAll(/^\[(\d+)\] (.*)$/gm)];
      const written = (line: string) => /content=("(?:[^"\\]|\\.)*")/.exec(line)?.[1] ?? '';
      const drop_indices = lines.filter((m) => badRule(written(m[2]))).map((m) => Number(m[1]));
      return { reasoning: 'drop the rules that broke passing conversations', drop_indices, add_edits: [] };
    }
    case 'slow_update':
      // The epoch comparison shows answers, not conversations: nothing to diagnose from.
      return {
        reasoning: 'the comparison shows no conversations',
        slow_update_content: '- Keep the customer informed of each step.',
      };
    case 'merge_failure':
    case 'merge_success':
    case 'merge_final':
    case 'rank_edits':
      return hardOptimizerAnswer(stage, system, user, { noise: o.noise });
    default:
      return undefined;
  }
}
