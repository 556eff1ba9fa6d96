/**
 * The conversation world's simulated analyst (issue #31): it reads each failed conversation as
 * the engine renders it — the customer's opening ("Task:"), every turn, call and result, and the
 * simulated user's replies ("[user message N]") — and proposes the rules the skill lacked: ask
 * for the name when the agent never did (and drop the rule that forbids questions), ask for the
 * new address, search before refunding (and drop the refund-at-once rule), escalate over the
 * limit. Decided by a hash of its prompt it slips as the agentic world's analyst does: it echoes
 * example edits, proposes empty, harmful and over-broad rules, targets lines that are not there
 * and restates lines the skill has. Merging and ranking are the hard world's; the repairer drops
 * the harmful and over-broad rules; the epoch reviewer, shown no conversations, adds nothing.
 */
import { AGENT_ANALYST } from '../../src/core/simulators/demo-tool-world';
import { BROAD, HARM, RULES, openingKind, type Kind, type RuleId } from './conversation-world';
import { hardOptimizerAnswer } from './hard-optimizer';
import { after, dedupeEdits, exampleEditsIn, hashFraction, section, type SimEdit } from './sim-text';

const RATES = { echo: 0.3, empty: 0.1, harmful: 0.15, broad: 0.15, hallucinate: 0.2, restate: 0.2 };

/** One failed conversation, as the analyst reads it. */
interface Seen {
  kind: Kind;
  assistant: string[];
  users: string[];
  calls: string[];
}

export function conversationsIn(text: string): Seen[] {
  return text
    .split('### Trajectory ')
    .slice(1)
    .flatMap((block) => {
      const opening = openingKind(/^Task: (.*)$/m.exec(block)?.[1] ?? '');
      if (!opening) return [];
      const lines = (block.split('#### Conversation')[1] ?? '').split('\n');
      const of = (tag: RegExp) => lines.filter((l) => tag.test(l)).map((l) => l.replace(/^\[[^\]]*\] ?/, ''));
      return [{ kind: opening.kind, assistant: of(/^\[assistant turn/), users: of(/^\[user message/), calls: of(/^\[tool call turn/) }];
    });
}

const add = (id: RuleId): SimEdit => ({ op: 'append', content: RULES[id].text, support_count: 1, source_type: 'failure', target: '' });
const drop = (text: string): SimEdit => ({ op: 'delete', target: text, content: '', support_count: 1, source_type: 'failure' });

/** The rules one failed conversation shows the skill lacked. */
export function diagnose(c: Seen, skill: string): SimEdit[] {
  const out: SimEdit[] = [];
  const lacks = (id: RuleId) => !skill.includes(RULES[id].text);
  const askedName = c.assistant.some((t) => /full name/i.test(t));
  const gotName = c.users.some((t) => /My full name is/.test(t));
  const askedAddress = c.assistant.some((t) => /new address/i.test(t));
  const refundAt = c.calls.findIndex((t) => t.startsWith('refund('));
  const searchAt = c.calls.findIndex((t) => t.startsWith('search_orders('));
  if (c.kind === 'refund' && refundAt >= 0 && (searchAt < 0 || searchAt > refundAt)) {
    // Refunded unchecked: the rule that refunds at once, or no rule to search first.
    if (skill.includes(HARM.text)) out.push(drop(HARM.text));
    if (lacks('search')) out.push(add('search'));
  } else if (c.kind === 'refund' && refundAt >= 0) {
    if (lacks('limit')) out.push(add('limit'));
  } else if (!askedName && !gotName) {
    // The agent answered without the name it needed: it never asked.
    if (skill.includes(BROAD.text)) out.push(drop(BROAD.text));
    if (lacks('askName')) out.push(add('askName'));
  } else if (c.kind === 'address' && gotName && !askedAddress) {
    if (skill.includes(BROAD.text)) out.push(drop(BROAD.text));
    if (lacks('askAddress')) out.push(add('askAddress'));
  }
  return out;
}

function slips(user: string, system: string, skill: string, noise: number): SimEdit[] {
  const happens = (kind: keyof typeof RATES) => hashFraction(`${kind}\n${user}`) < RATES[kind] * noise;
  const out: SimEdit[] = [];
  const example = exampleEditsIn(system)[0];
  if (example && happens('echo')) out.push({ ...example });
  if (happens('empty')) out.push({ op: 'append', content: '' });
  if (happens('harmful') && !skill.includes(HARM.key)) out.push({ op: 'append', content: HARM.text });
  if (happens('broad') && !skill.includes(BROAD.key)) out.push({ op: 'append', content: BROAD.text });
  const lines = skill.split('\n').filter((l) => l.startsWith('- '));
  const pick = lines[Math.floor(hashFraction(`line\n${user}`) * lines.length)];
  if (pick && happens('hallucinate')) out.push({ op: 'replace', target: pick.replace('- ', '- Always '), content: `${pick} Be polite.` });
  if (pick && happens('restate')) out.push({ op: 'append', content: pick });
  return out.map((e) => ({ support_count: 1, source_type: 'failure', target: '', ...e }));
}

const badRule = (content: string) => content.includes(HARM.key) || content.includes(BROAD.key);

export function conversationOptimizerAnswer(stage: string, system: string, user: string, o: { noise: number }): unknown | undefined {
  if (!system.includes(AGENT_ANALYST) && stage.startsWith('reflect')) return undefined;
  const skill = section(user, '## Current Skill');
  const budget = Number(/L=(\d+)/.exec(user)?.[1] ?? 4);
  switch (stage) {
    case 'reflect_failure': {
      const failures = conversationsIn(after(user, '## Failed Trajectories'));
      const fixes = dedupeEdits(failures.flatMap((c) => diagnose(c, skill))).sort((a, b) => (b.support_count ?? 0) - (a.support_count ?? 0));
      const edits = [...slips(user, system, skill, o.noise), ...fixes].slice(0, budget);
      return {
        batch_size: failures.length,
        failure_summary: failures.length ? [{ failure_type: 'rule_missing', count: failures.length, description: 'conversations that failed the user' }] : [],
        patch: { reasoning: `Fixes for ${failures.length} failed conversations.`, edits },
      };
    }
    case 'reflect_success':
      return { batch_size: 0, success_patterns: [], patch: { reasoning: 'nothing new', edits: [] } };
    case 'repair_edits': {
      const lines = [...section(user, '## Candidate Edits').matchAll(/^\[(\d+)\] (.*)$/gm)];
      const drop_indices = lines.filter((m) => badRule(/content=("(?:[^"\\]|\\.)*")/.exec(m[2])?.[1] ?? '')).map((m) => Number(m[1]));
      return { reasoning: 'drop the rules that broke passing conversations', drop_indices, add_edits: [] };
    }
    case 'slow_update':
      // The epoch comparison shows answers, not conversations: nothing to diagnose from.
      return { reasoning: 'the comparison shows no conversations', slow_update_content: '- Keep the customer informed of each step.' };
    case 'merge_failure':
    case 'merge_success':
    case 'merge_final':
    case 'rank_edits':
      return hardOptimizerAnswer(stage, system, user, { noise: o.noise });
    default:
      return undefined;
  }
}
