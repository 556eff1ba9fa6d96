/**
 * The simulated optimizer of the agentic world (issue #30): a plausible but fallible analyst that
 * reads trajectories. Shown a failed trajectory (the calls, their arguments and results, the
 * failure reason naming the turn), it proposes exactly the rules the skill lacked
 * (agentic-fixes.ts `diagnose`); shown only the final answer (`reflectOnTrajectories` off, the
 * ablation), it guesses among the plausible causes. Either way, decided by a hash of its prompt,
 * it slips as the hard world's analyst does (hard-optimizer.ts rates): it echoes example edits,
 * proposes empty, harmful (the upset-refund rule) and over-broad ("answer right after your first
 * tool call") rules, targets lines that are not in the skill and restates lines it has. Merging
 * and ranking are the hard world's (they read only the edits). The repairer sees answers only (the
 * repair prompt shows no trajectories): it drops bad rules and wrong ones that broke tasks of
 * their kind, and guesses what restores the regressed tasks. The epoch reviewer writes the rules
 * persistent failures lack. Other stages fall back to the rule world's simulated optimizer.
 */
import { comparedTasksIn, tasksIn, trajectoriesIn, type Evidence } from './agentic-evidence';
import { FORMAT_RULE, decoyWritten, diagnose, guess, informed } from './agentic-fixes';
import { BROAD, BROAD_STOP, HARM } from './agentic-world';
import { hardOptimizerAnswer } from './hard-optimizer';
import { after, dedupeEdits, exampleEditsIn, hashFraction, section, type SimEdit } from './sim-text';

/** How often each slip happens at noise 1 (the hard world's rates). */
const RATES = { echo: 0.3, empty: 0.1, harmful: 0.15, broad: 0.15, hallucinate: 0.2, restate: 0.2 };

/** The edits an analyst proposes for these failures: diagnosed from trajectories, else guessed. */
export function fixesFor(failures: readonly Evidence[], skill: string, seed: string): SimEdit[] {
  const edits = failures.flatMap((ev, i) => (informed(ev) ? diagnose(ev, skill) : guess(ev, skill, (k) => hashFraction(`guess ${i} ${k}\n${seed}`))));
  return dedupeEdits(edits).sort((a, b) => (b.support_count ?? 0) - (a.support_count ?? 0));
}

function slips(user: string, system: string, skill: string, rejected: string, noise: number): SimEdit[] {
  const happens = (kind: keyof typeof RATES) => hashFraction(`${kind}\n${user}`) < RATES[kind] * noise;
  const out: SimEdit[] = [];
  const example = exampleEditsIn(system)[0];
  if (example && happens('echo')) out.push({ ...example });
  if (happens('empty')) out.push({ op: 'append', content: '' });
  if (happens('harmful') && !skill.includes(HARM.key) && !rejected.includes(HARM.key)) out.push({ op: 'append', content: HARM.text });
  if (happens('broad') && !skill.includes(BROAD_STOP.key) && !rejected.includes(BROAD_STOP.key)) out.push({ op: 'append', content: BROAD_STOP.text });
  const lines = skill.split('\n').filter((l) => l.startsWith('- ') && !/^- [a-z]+: \S+$/.test(l));
  const pick = lines[Math.floor(hashFraction(`line\n${user}`) * lines.length)];
  if (pick && happens('hallucinate')) out.push({ op: 'replace', target: pick.replace('- ', '- Always '), content: `${pick} Double-check it.` });
  if (pick && happens('restate')) out.push({ op: 'append', content: pick });
  return out.map((e) => ({ support_count: 1, source_type: 'failure', target: '', ...e }));
}

function wasRejected(e: SimEdit, rejected: string): boolean {
  const text = e.op === 'delete' ? (e.target ?? '') : e.content;
  return text.length > 0 && rejected.includes(text.slice(0, 120));
}

/** An edit is a bad rule when what it writes in is the harmful or an over-broad rule. */
const writesBadRule = (content: string) => [HARM, BROAD, BROAD_STOP].some((r) => content.includes(r.key));

export interface AgenticOptimizerOptions {
  /** How often the analyst slips (0 = never, 1 = the hard world's rates). */
  noise: number;
}

export function agenticOptimizerAnswer(stage: string, system: string, user: string, o: AgenticOptimizerOptions): unknown | undefined {
  const skill = section(user, '## Current Skill');
  const budget = Number(/L=(\d+)/.exec(user)?.[1] ?? 4);
  const rejected = section(user, '## Previous Steps in This Epoch');
  switch (stage) {
    case 'reflect_failure': {
      const failures = trajectoriesIn(after(user, '## Failed Trajectories'));
      const fixes = fixesFor(failures, skill, user).filter((e) => !wasRejected(e, rejected));
      const edits = [...slips(user, system, skill, rejected, o.noise), ...fixes].slice(0, budget);
      const seen = failures.filter(informed).length;
      return {
        batch_size: failures.length,
        failure_summary: failures.length ? [{ failure_type: 'rule_missing', count: failures.length, description: `${seen} of ${failures.length} trajectories show what went wrong` }] : [],
        patch: { reasoning: `Fixes for ${failures.length} failures.`, edits },
      };
    }
    case 'repair_edits': {
      const lines = [...section(user, '## Candidate Edits').matchAll(/^\[(\d+)\] (.*)$/gm)];
      const written = (line: string) => /content=("(?:[^"\\]|\\.)*")/.exec(line)?.[1] ?? '';
      const candidate = section(user, '## Candidate Skill');
      const regressed = tasksIn(after(user, '## Regressed Items'));
      // An edit that wrote in a wrong rule is to blame when tasks it touches regressed.
      const blamed = (content: string) => {
        const d = decoyWritten(content);
        const family = /^"?- (\w+) parts are discontinued/i.exec(content)?.[1]?.toLowerCase();
        return d !== null && regressed.some((t) => d.kinds.includes(t.task.kind) && (!family || ('family' in t.task && t.task.family === family)));
      };
      // A bad rule in the bundle explains its regressions; else a wrong rule of their kind does.
      const bad = lines.filter((m) => writesBadRule(written(m[2])));
      const dropIndices = (bad.length ? bad : lines.filter((m) => blamed(written(m[2])))).map((m) => Number(m[1]));
      const add = fixesFor(regressed, candidate, `repair\n${user}`).filter((e) => !decoyWritten(e.content));
      return { reasoning: 'drop what broke passing tasks; restore what they need', drop_indices: dropIndices, add_edits: add };
    }
    case 'slow_update': {
      const comparison = after(user, '## Same tasks, before and after');
      const persistent = after(comparison, '### Persistent failures').split('### Improved')[0] || comparison;
      const curr = section(user, '## Skill at the end of this epoch');
      const lines: string[] = [];
      for (const e of fixesFor(comparedTasksIn(persistent), curr, user))
        if (e.op === 'append' && !e.file?.startsWith('references/') && e.content !== FORMAT_RULE && !writesBadRule(e.content) && !lines.includes(e.content)) lines.push(e.content);
      const content = lines.length ? lines.slice(0, 3).join('\n') : '- Check each answer against the tool results before giving it.';
      return { reasoning: `persistent failures: ${lines.length} rules missing`, slow_update_content: content };
    }
    case 'merge_failure':
    case 'merge_success':
    case 'merge_final':
    case 'rank_edits':
      return hardOptimizerAnswer(stage, system, user, { noise: o.noise });
    default:
      return undefined;
  }
}
