/**
 * An agent CLI as the optimizer (issue #42 item 3): a run whose every optimizer call — analysts,
 * merges, ranks, the slow update, the meta skill, and the judge and user simulator when they have
 * no endpoint of their own — is one non-interactive run of the agent, so a person can optimise on
 * the CLI's own login with no API key. The request's prompts and its JSON schema become one task;
 * the agent's final answer is the reply, parsed by the engine as any optimizer reply is (an
 * unusable one falls back). The agent's fatal words stop the run, transient failures are asked
 * again by the harness (cli/agent-cli-target.ts), and every error says it was the optimizer's.
 */
import {
  isLlmError,
  LlmError,
  type ChatMessage,
  type LlmPort,
  type LlmRequest,
  type LlmResponse,
} from '../engine/ports';
import type { Role } from '../engine/types';
import type { AgentHarness } from '../engine/target/harness';

/**
 * One task for the agent: the instructions (the system prompt), the JSON schema its one object
 * must match, then the material (the user prompt) — the contract before the data it is about.
 */
export function agentTaskOf(req: Pick<LlmRequest, 'messages' | 'jsonSchema'>): string {
  const text = (m: ChatMessage) => (m.role === 'system' || m.role === 'user' ? m.content : `[${m.role}] ${m.content}`);
  const system = req.messages.filter((m) => m.role === 'system').map(text);
  const rest = req.messages.filter((m) => m.role !== 'system').map(text);
  const contract = req.jsonSchema
    ? [
        `Reply with one JSON object and nothing else (no tools are needed), matching this JSON schema: ${JSON.stringify(req.jsonSchema.schema)}`,
      ]
    : [];
  return [...system, ...contract, ...rest].filter((t) => t.trim()).join('\n\n');
}

/** The agent's answer to one request, as the LLM port's reply; its failures named the optimizer's. */
async function ask(harness: AgentHarness, req: LlmRequest, now: () => number): Promise<LlmResponse> {
  if (req.tools?.length)
    throw new LlmError('bad_request', `The ${req.role}'s ${harness.label} cannot be offered tools.`, {
      role: req.role,
    });
  const started = now();
  try {
    const res = await harness.solve({
      skill: '',
      prompt: agentTaskOf(req),
      signal: req.signal ?? new AbortController().signal,
    });
    return {
      text: res.text,
      usage: res.usage,
      latencyMs: now() - started,
      attempts: 1,
      jsonMode: 'text',
      ...(res.usageEstimated ? { usageEstimated: true } : {}),
    };
  } catch (e) {
    if (!isLlmError(e) || e.kind === 'aborted') throw e;
    throw new LlmError(e.kind, `The ${req.role} (${harness.label}): ${e.message}`, {
      role: req.role,
      ...(e.status !== undefined ? { status: e.status } : {}),
      ...(e.usage ? { usage: e.usage } : {}),
    });
  }
}

/** The port with `roles` answered by the agent CLI, every other role by `base`. */
export function withAgentRoles(
  base: LlmPort,
  harness: AgentHarness,
  roles: readonly Role[],
  now: () => number = Date.now,
): LlmPort {
  return {
    ...base,
    complete: (req) => (roles.includes(req.role) ? ask(harness, req, now) : base.complete(req)),
  };
}
