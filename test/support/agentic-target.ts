/**
 * The agentic world's target on the test server (issue #30): a chat completion request with
 * `tools` — system, user, then assistant turns with `tool_calls` and `role: 'tool'` answers — read
 * as the simulated agent's request (agentic-agent.ts), and its action written back as the API
 * writes it: `tool_calls` with `finish_reason: 'tool_calls'`, or the final answer as content.
 */
import { agentAction, replyText, type AgentRequest, type TargetNoise } from './agentic-agent';

export interface WireToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export interface WireMessage {
  role: string;
  content?: string | null;
  tool_calls?: WireToolCall[];
  tool_call_id?: string;
}

export interface ToolRequestBody {
  messages?: WireMessage[];
  tools?: { type?: string; function?: { name?: string }; name?: string }[];
}

const parse = (text: string): Record<string, unknown> => {
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
};

/** The agent's view of a request: its prompts, the tools offered, every call with its result. */
export function agentRequestOf(body: ToolRequestBody): AgentRequest {
  const messages = body.messages ?? [];
  const text = (role: string) => messages.filter((m) => m.role === role).map((m) => String(m.content ?? '')).join('\n');
  const calls = new Map<string, WireToolCall>();
  const history: AgentRequest['history'][number][] = [];
  for (const m of messages) {
    for (const c of m.role === 'assistant' ? (m.tool_calls ?? []) : []) calls.set(c.id, c);
    const c = m.role === 'tool' ? calls.get(m.tool_call_id ?? '') : undefined;
    if (c) history.push({ name: c.function.name, args: parse(c.function.arguments), result: String(m.content ?? '') });
  }
  const tools = (body.tools ?? []).map((t) => t.function?.name ?? t.name ?? '').filter(Boolean);
  return { system: text('system'), user: text('user'), tools, history };
}

/** What identifies a request as a sample: the k-th identical request is the k-th draw. */
export const requestKey = (body: ToolRequestBody) => JSON.stringify([body.messages ?? [], (body.tools ?? []).map((t) => t.function?.name ?? t.name)]);

/** The reply message of the agent: its calls (ids unique within the turn), or its final answer. */
export function agenticReply(body: ToolRequestBody, draw: number, noise?: TargetNoise): { content: string | null; toolCalls?: WireToolCall[] } {
  const req = agentRequestOf(body);
  const action = agentAction(req, draw, noise);
  if ('answer' in action) return { content: replyText(action) };
  const turn = (body.messages ?? []).filter((m) => m.role === 'assistant').length + 1;
  return {
    content: null,
    toolCalls: action.calls.map((c, i) => ({ id: `call_${turn}_${i + 1}`, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.args) } })),
  };
}
