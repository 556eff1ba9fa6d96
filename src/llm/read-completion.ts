import type OpenAI from 'openai';
import {
  LlmError,
  type LlmRequest,
  type LlmUsage,
  type ReasoningItem,
  type Role,
  type ToolCallRequest,
} from '../engine/ports';
import type { EndpointConfig } from './endpoint';

/** What a reply says, whichever wire brought it. */
export interface CompletionRead {
  text: string;
  usage: LlmUsage;
  usageEstimated?: true;
  finishReason?: string;
  toolCalls?: ToolCallRequest[];
  reasoning?: ReasoningItem[];
}

/**
 * What a chat completion says: its text and usage, or — for a reply that is no answer (a
 * refusal, a filter, an output budget spent before answering) — the LlmError it is. Shared by
 * live calls and batch result lines.
 */
export function readCompletion(
  res: Pick<OpenAI.Chat.Completions.ChatCompletion, 'choices' | 'usage'>,
  req: Pick<LlmRequest, 'messages'>,
  role: Role,
  cfg: Pick<EndpointConfig, 'maxOutputTokens'>,
): CompletionRead {
  const choice = res.choices?.[0];
  const text = choice?.message?.content ?? '';
  const toolCalls = readToolCalls(choice?.message?.tool_calls);
  // No usage in the reply: estimate from characters (about 4 per token) rather than count it free.
  const promptChars = req.messages.reduce((n, m) => n + m.content.length, 0);
  const cached = res.usage?.prompt_tokens_details?.cached_tokens ?? 0;
  const usage: LlmUsage = res.usage
    ? {
        promptTokens: res.usage.prompt_tokens ?? 0,
        completionTokens: res.usage.completion_tokens ?? 0,
        reasoningTokens: res.usage.completion_tokens_details?.reasoning_tokens ?? 0,
        // Where the endpoint says which prompt tokens came from its cache, they are billed at that price.
        ...(cached ? { cachedTokens: cached } : {}),
      }
    : { promptTokens: Math.ceil(promptChars / 4), completionTokens: Math.ceil(text.length / 4), reasoningTokens: 0 };
  const refusal = (choice?.message as { refusal?: unknown } | undefined)?.refusal;
  if (toolCalls) {
    // A turn of an agent: its calls are the reply (the text beside them, often empty, is kept).
    return {
      text,
      usage,
      ...(res.usage ? {} : { usageEstimated: true as const }),
      finishReason: choice?.finish_reason ?? undefined,
      toolCalls,
    };
  }
  if (!text && (choice?.finish_reason === 'content_filter' || (typeof refusal === 'string' && refusal))) {
    // Not an answer: an error row for this item, never a wrong answer shown to the analysts.
    const why =
      typeof refusal === 'string' && refusal
        ? `refused: ${refusal.slice(0, 200)}`
        : 'its content filter blocked the reply';
    throw new LlmError('item_refused', `The ${role} model did not answer this item (${why}).`, { role, usage });
  }
  if (!text && choice?.finish_reason === 'length') {
    throw new LlmError(
      'truncated',
      `The ${role} model used its whole output budget (${cfg.maxOutputTokens ?? 'default'} tokens) before answering. Raise the maximum output tokens.`,
      { role, usage },
    );
  }
  return {
    text,
    usage,
    ...(res.usage ? {} : { usageEstimated: true as const }),
    finishReason: choice?.finish_reason ?? undefined,
  };
}

/**
 * The function calls of a reply, or undefined when it has none. A call without an id gets one
 * from its position (some local servers omit it; the tool message must still name its call).
 */
function readToolCalls(raw: unknown): ToolCallRequest[] | undefined {
  if (!Array.isArray(raw) || raw.length === 0) return undefined;
  const calls = raw.flatMap((c, i): ToolCallRequest[] => {
    const f = (c as { function?: { name?: unknown; arguments?: unknown } } | null)?.function;
    if (!f || typeof f.name !== 'string' || !f.name) return [];
    const id = (c as { id?: unknown }).id;
    const args = typeof f.arguments === 'string' ? f.arguments : JSON.stringify(f.arguments ?? {});
    return [{ id: typeof id === 'string' && id ? id : `call_${i + 1}`, name: f.name, arguments: args }];
  });
  return calls.length ? calls : undefined;
}
