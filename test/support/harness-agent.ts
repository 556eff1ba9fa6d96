/**
 * The simulated model as a real agent harness drives it (issue #42): pi, Codex, Qwen Code and
 * OpenCode send their own system prompt, their own tools and their own list of skills, and the
 * skill is wherever the harness found it. Like a real model, the simulated one loads a listed
 * skill whose description matches the task (with the harness's skill tool, its read tool, or a
 * shell `cat`), opens the references the skill names, then answers from everything it read.
 * Harnesses also ask housekeeping questions (a title, a memory update, a next-speaker check):
 * those are their own stage and never count as the target's answers.
 */
import { stageOf } from '../../src/core/simulators/demo-optimizer';
import { parseQuestion } from './rule-world';
import type { AgentReply, WireMessage } from './llm-server';

type Part = { type?: string; text?: unknown };

/** A message's text: a string, or the text parts of a content array (pi, Qwen Code, Codex send arrays). */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return content == null ? '' : JSON.stringify(content);
  return (content as Part[]).map((p) => (typeof p?.text === 'string' ? p.text : '')).join('');
}

/** The housekeeping a harness asks of its model, from the request's system prompt, or null. */
export function housekeepingOf(system: string): 'title' | 'memory' | 'next_speaker' | 'summary' | null {
  if (/You are a title generator|Generate a (brief |short )?title/i.test(system)) return 'title';
  if (/managed memory extraction subagent|memory (extraction|consolidation)/i.test(system)) return 'memory';
  if (/next_speaker|who should speak next/i.test(system)) return 'next_speaker';
  if (/summari[sz]e (this|the) conversation|<state_snapshot>|conversation summary/i.test(system)) return 'summary';
  return null;
}

export function housekeepingReply(kind: NonNullable<ReturnType<typeof housekeepingOf>>): string {
  if (kind === 'title') return 'Specimen code question';
  if (kind === 'next_speaker') return JSON.stringify({ reasoning: 'The answer was given.', next_speaker: 'user' });
  if (kind === 'memory') return 'Nothing durable to remember.';
  return 'The user asked a question and it was answered.';
}

interface ListedSkill {
  name: string;
  description: string;
  /** The SKILL.md path, when the harness gives one. */
  path: string | null;
}

const tag = (block: string, name: string) =>
  new RegExp(`<${name}>\\s*([\\s\\S]*?)\\s*</${name}>`).exec(block)?.[1] ?? '';

/** Skills a harness lists: `<skill><name>…<description>…<location>…` blocks (pi, OpenCode, Qwen Code) and Codex's roots table. */
export function listedSkills(text: string): ListedSkill[] {
  const out: ListedSkill[] = [];
  for (const m of text.matchAll(/<skill>([\s\S]*?)<\/skill>/g)) {
    const location = tag(m[1], 'location').replace(/&lt;|&gt;/g, '');
    out.push({
      name: tag(m[1], 'name'),
      description: tag(m[1], 'description'),
      path: location.startsWith('/') ? location : null,
    });
  }
  const roots = new Map([...text.matchAll(/- `(r\d+)` = `([^`]+)`/g)].map((m) => [m[1], m[2]]));
  for (const m of text.matchAll(/^- ([\w.-]+): (.*) \(file: (r\d+)\/([^)]+)\)$/gm)) {
    const root = roots.get(m[3]);
    out.push({ name: m[1], description: m[2], path: root ? `${root}/${m[4]}` : null });
  }
  return out.filter((s) => s.name);
}

/** Words a task and a skill's description share decide whether, and which, skill the model loads. */
function overlap(skill: ListedSkill, task: string): number {
  const words = (s: string) => new Set((s.toLowerCase().match(/[a-z]{5,}/g) ?? []).map((w) => w.replace(/s$/, '')));
  const taskWords = words(task);
  return [...words(skill.description)].filter((w) => taskWords.has(w)).length;
}

interface Tool {
  name: string;
  description?: string;
  parameters?: unknown;
}

/** The tool's first required parameter (pi `path`, Qwen Code `file_path`, OpenCode `filePath`, Codex `cmd`…). */
const firstParam = (t: Tool, fallback: string) =>
  (t.parameters as { required?: string[] } | undefined)?.required?.[0] ?? fallback;

/** The call that opens a file with the harness's own tools: its read tool, else a shell `cat`. */
function readCall(tools: readonly Tool[], path: string): { name: string; arguments: unknown } | null {
  const read = tools.find((t) => /^(read|Read|read_file)$/.test(t.name));
  if (read) return { name: read.name, arguments: { [firstParam(read, 'path')]: path } };
  const shell = tools.find((t) => /^(exec_command|bash|Bash|run_shell_command|shell)$/.test(t.name));
  if (shell) return { name: shell.name, arguments: { [firstParam(shell, 'command')]: `cat ${path}` } };
  return null;
}

export interface HarnessTurn {
  messages: readonly WireMessage[];
  tools: readonly Tool[];
}

/** Everything the model has read: system, user and tool messages, and the tools' descriptions. */
function contextOf(turn: HarnessTurn): string {
  return turn.messages
    .filter((m) => m.role !== 'assistant')
    .map((m) => textOf(m.content))
    .join('\n');
}

/** The task: the user message holding a world question, else the last user message. */
export function taskOf(messages: readonly WireMessage[]): string {
  const users = messages.filter((m) => m.role === 'user').map((m) => textOf(m.content));
  return users.find((u) => parseQuestion(u)) ?? users[users.length - 1] ?? '';
}

/**
 * An optimizer's prompt a harness was given as its task (an agent CLI as the optimizer, issue #42
 * item 3), under the harness's own system prompt: the stage its words announce, and the prompt —
 * or null for any other task.
 */
export function optimizerTaskOf(messages: readonly WireMessage[]): { stage: string; prompt: string } | null {
  for (const m of messages) {
    if (m.role !== 'user') continue;
    const prompt = textOf(m.content);
    const stage = stageOf({ messages: [{ role: 'system', content: prompt }] });
    if (stage !== 'target') return { stage, prompt };
  }
  return null;
}

/** The skill this turn would load, when the harness lists one that matches the task. */
export function skillToLoad(turn: HarnessTurn & { toolText: string }): ListedSkill | null {
  const task = taskOf(turn.messages);
  const listed = listedSkills(`${contextOf(turn)}\n${turn.toolText}`);
  // The skill whose description fits the task best (a harness lists its own too: Qwen Code's qc-helper).
  let best: ListedSkill | null = null;
  let most = 0;
  for (const s of listed) {
    const n = overlap(s, task);
    if (n > most) [best, most] = [s, n];
  }
  return best;
}

/**
 * The next turn of a harness's model: load the matching skill, open each reference it names
 * (once), then answer — `answer` gets everything read so far and the task.
 */
export function harnessTurn(turn: HarnessTurn, answer: (context: string, task: string) => string): AgentReply {
  const toolText = turn.tools.map((t) => t.description ?? '').join('\n');
  const skill = skillToLoad({ ...turn, toolText });
  const called = turn.messages.flatMap((m) => m.tool_calls ?? []).map((c) => c.function.arguments);
  const results = turn.messages.filter((m) => m.role === 'tool').map((m) => textOf(m.content));
  const task = taskOf(turn.messages);
  if (skill) {
    const loaded = called.some((a) => (skill.path && a.includes(skill.path)) || a.includes(JSON.stringify(skill.name)));
    if (!loaded) {
      const skillTool = turn.tools.find((t) => /^(skill|Skill)$/.test(t.name));
      if (skillTool)
        return { toolCalls: [{ name: skillTool.name, arguments: { [firstParam(skillTool, 'skill')]: skill.name } }] };
      const call = skill.path ? readCall(turn.tools, skill.path) : null;
      if (call) return { toolCalls: [call] };
    } else {
      const base = skill.path ? skill.path.replace(/\/SKILL\.md$/, '') : baseDirIn(results.join('\n'));
      const refs = [...new Set(results.join('\n').match(/references\/[\w.-]+\.md/g) ?? [])];
      const unread = refs.map((r) => (base ? `${base}/${r}` : r)).filter((p) => !called.some((a) => a.includes(p)));
      const call = unread.length ? readCall(turn.tools, unread[0]) : null;
      if (call) return { toolCalls: [call] };
    }
  }
  return { content: answer(`${contextOf(turn)}\n${results.join('\n')}`, task) };
}

/** The skill's folder a skill tool reports ("Base directory for this skill: /…"). */
function baseDirIn(text: string): string | null {
  return /[Bb]ase directory[^:\n]*:\s*(\/\S+)/.exec(text)?.[1]?.replace(/\/$/, '') ?? null;
}
