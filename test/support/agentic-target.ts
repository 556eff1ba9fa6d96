/**
 * The agentic world's target on the test server (issue #30): the server's `agentPolicy` hook
 * (llm-server.ts) hands over a tool-calling request — system, the task, the conversation in the
 * chat API's wire form, the tools offered — which is read as the simulated agent's request
 * (agentic-agent.ts); its action goes back as the calls of the next turn or the final answer.
 */
import { agentAction, replyText, type AgentRequest as WorldRequest, type TargetNoise, type ToolStep } from './agentic-agent';
import type { AgentPolicy, AgentRequest, WireMessage } from './llm-server';

const parse = (text: string): Record<string, unknown> => {
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
};

/** Every call of a conversation with its result, in order (a call is known by its id). */
export function historyOf(messages: readonly WireMessage[]): ToolStep[] {
  const calls = new Map<string, { name: string; arguments: string }>();
  const history: ToolStep[] = [];
  for (const m of messages) {
    for (const c of m.role === 'assistant' ? (m.tool_calls ?? []) : []) calls.set(c.id, c.function);
    const c = m.role === 'tool' ? calls.get(m.tool_call_id ?? '') : undefined;
    if (c) history.push({ name: c.name, args: parse(c.arguments), result: String(m.content ?? '') });
  }
  return history;
}

export function worldRequestOf(req: AgentRequest): WorldRequest {
  return { system: req.system, user: req.user, tools: req.tools.map((t) => t.name), history: historyOf(req.messages) };
}

/** The agentic world's agent as the server's policy; `noise()` reads the server's current target noise. */
export function agenticPolicy(noise: () => TargetNoise | undefined): AgentPolicy {
  return (req, draw) => {
    const action = agentAction(worldRequestOf(req), draw, noise());
    return 'answer' in action ? { content: replyText(action) } : { toolCalls: action.calls.map((c) => ({ name: c.name, arguments: c.args })) };
  };
}
