/**
 * What the agentic world's simulated analysts read in their prompts (issue #30): each failed
 * trajectory as engine/trajectory.ts renders it — the task, the failure reason, the calls with
 * their arguments and results — or, with `reflectOnTrajectories` off, only the final answer. A
 * failure reason names the calls a trajectory missed or should not have made ("never called
 * lookup with {…} (turn 1 called lookup({…}))"), so the calls are read from it when the
 * conversation is not shown.
 */
import { parseTask, type Task } from './agentic-world';

export interface SeenCall {
  turn: number;
  name: string;
  args: Record<string, unknown>;
  result?: string;
}

/** One failed item, as much of it as the prompt shows. */
export interface Evidence {
  task: Task;
  question: string;
  reason: string;
  predicted: string;
  expected: string[];
  /** The calls the trajectory made, when its conversation is shown; else null. */
  calls: SeenCall[] | null;
}

const json = (text: string): Record<string, unknown> | null => {
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
};

/** Calls a failure reason mentions ("turn 2 called refund({…})", "last: turn 8 called …"). */
export function callsInReason(reason: string): SeenCall[] {
  const out: SeenCall[] = [];
  for (const m of reason.matchAll(/turn (\d+):? called (?:forbidden tool )?(\w+)\((\{[^{}]*\})\)/g)) {
    const args = json(m[3]);
    if (args) out.push({ turn: Number(m[1]), name: m[2], args });
  }
  return out;
}

/** The arguments a failure reason says a call should have had ("never called convert with {…}"). */
export function expectedArgs(reason: string, name: string): Record<string, unknown> | null {
  const m = new RegExp(`never called ${name} with (\\{[^{}]*\\})`).exec(reason);
  return m ? json(m[1]) : null;
}

/** Does the failure reason say anything about the calls (the analysts see whole trajectories)? */
export const reasonNamesCalls = (reason: string) => /never called|forbidden tool|ran out of turns/.test(reason);

/** The calls of a rendered conversation, each with its result. */
export function conversationCalls(conversation: string): SeenCall[] | null {
  const calls: SeenCall[] = [];
  let shown = false;
  let open: SeenCall[] = [];
  const blocks = conversation.split(/\n(?=\[(?:assistant turn|tool call turn|tool result turn|tool error turn|agent|verification)\b)/);
  for (const block of blocks) {
    const head = /^\[(tool call|tool result|tool error|assistant) turn (\d+)\] ?([\s\S]*)$/.exec(block.trim());
    if (!head) continue;
    shown = true;
    const turn = Number(head[2]);
    if (head[1] === 'tool call') {
      const m = /^(\w+)\(([\s\S]*)\)$/.exec(head[3].trim());
      if (m) calls.push({ turn, name: m[1], args: json(m[2]) ?? {} });
      open = calls.filter((c) => c.turn === turn && c.result === undefined);
    } else if (head[1] !== 'assistant') {
      const next = open.shift();
      if (next) next.result = head[3].trim();
    }
  }
  return shown ? calls : null;
}

/** The expected answers of a verification block ("Expected: [\"…\"]"). */
function expectedIn(block: string): string[] {
  try {
    const v: unknown = JSON.parse(/^Expected: (.*)$/m.exec(block)?.[1] ?? '[]');
    return Array.isArray(v) ? v.map(String) : [];
  } catch {
    return [];
  }
}

/** Every trajectory of a prompt section ("### Trajectory 1 (id=…)" blocks). */
export function trajectoriesIn(text: string): Evidence[] {
  return text
    .split('### Trajectory ')
    .slice(1)
    .flatMap((block) => {
      const question = /^Task: (.*)$/m.exec(block)?.[1] ?? '';
      const task = parseTask(question);
      if (!task) return [];
      const conversation = block.split('#### Conversation')[1] ?? '';
      const expected = expectedIn(block);
      return [
        {
          task,
          question,
          reason: /^Failure reason: (.*)$/m.exec(block)?.[1] ?? '',
          predicted: /^Predicted answer: (.*)$/m.exec(block)?.[1]?.trim() ?? '',
          expected,
          calls: conversationCalls(conversation),
        },
      ];
    });
}

/** The tasks of a repair prompt's "### Task" blocks: question, expected answer, the candidate's answer. */
export function tasksIn(text: string): Evidence[] {
  return text
    .split('### Task ')
    .slice(1)
    .flatMap((block) => {
      const question = /^Question: (.*)$/m.exec(block)?.[1] ?? '';
      const task = parseTask(question);
      if (!task) return [];
      const expected = (/^Expected answer: (.*)$/m.exec(block)?.[1] ?? '').split(' | ');
      const predicted = /^Answer with the candidate: (.*)$/m.exec(block)?.[1] ?? '';
      return [{ task, question, reason: '', predicted, expected, calls: null }];
    });
}

/** The tasks of the epoch comparison ("Task id: question", its current fail reason and answer). */
export function comparedTasksIn(text: string): Evidence[] {
  return text
    .split(/\n(?=Task \S+: )/)
    .flatMap((block) => {
      const m = /^Task \S+: (.*)$/m.exec(block);
      const task = m ? parseTask(m[1]) : null;
      if (!m || !task) return [];
      const reason = /^Current fail reason: (.*)$/m.exec(block)?.[1] ?? '';
      const predicted = /^After: \w+ \(soft [\d.]+\), answer: (.*)$/m.exec(block)?.[1] ?? '';
      return [{ task, question: m[1], reason, predicted, expected: expectedIn(block), calls: null }];
    });
}
