/**
 * A request on OpenAI's Responses API (issue #44), behind the same port as Chat Completions: the
 * conversation as input items, a reasoning model's reasoning items passed back before the calls
 * they led to (so an agent reasons on across its turns), nothing stored at the provider
 * (`store: false`), and the answer read into the same text, calls, usage and errors.
 */
import type {
  Response,
  ResponseCreateParamsNonStreaming,
  ResponseInputItem,
} from 'openai/resources/responses/responses';
import { LlmError, type LlmRequest, type Role } from '../engine/ports';
import type { Capabilities, JsonMode } from '../core/config/capabilities';
import { sentFor } from './chat-wire';
import type { EndpointConfig } from './endpoint';
import type { CompletionRead } from './read-completion';
import type { Sent } from './refusals';

/** The conversation as Responses input items. */
export function inputItems(req: Pick<LlmRequest, 'messages'>): ResponseInputItem[] {
  return req.messages.flatMap((m): ResponseInputItem[] => {
    if (m.role === 'tool') return [{ type: 'function_call_output', call_id: m.toolCallId, output: m.content }];
    if (m.role !== 'assistant') return [{ role: m.role, content: m.content }];
    return [
      ...((m.reasoning ?? []) as unknown as ResponseInputItem[]),
      ...(m.content ? [{ role: 'assistant' as const, content: m.content }] : []),
      ...(m.toolCalls ?? []).map((c) => ({
        type: 'function_call' as const,
        call_id: c.id,
        name: c.name,
        arguments: c.arguments,
      })),
    ];
  });
}

export function responsesParams(
  req: LlmRequest,
  cfg: EndpointConfig,
  caps: Capabilities,
  mode: JsonMode,
): { params: ResponseCreateParamsNonStreaming; sent: Sent } {
  const sent = sentFor(req, cfg, caps, mode);
  const p: ResponseCreateParamsNonStreaming = { model: cfg.model, input: inputItems(req), store: false };
  if (req.tools?.length)
    p.tools = req.tools.map((t) => ({
      type: 'function' as const,
      name: t.name,
      ...(t.description ? { description: t.description } : {}),
      parameters: t.parameters ?? { type: 'object', properties: {} },
      strict: false,
    }));
  if (cfg.serviceTier) p.service_tier = cfg.serviceTier;
  if (sent.temperature) p.temperature = cfg.temperature;
  if (cfg.maxOutputTokens) {
    p.max_output_tokens = cfg.maxOutputTokens;
    sent.tokenLimit = 'max_output_tokens';
  }
  if (sent.effort) p.reasoning = { effort: sent.effort };
  if (req.jsonSchema && mode === 'json_schema')
    p.text = {
      format: { type: 'json_schema', name: req.jsonSchema.name, schema: req.jsonSchema.schema, strict: true },
    };
  else if (req.jsonSchema && mode === 'json_object') p.text = { format: { type: 'json_object' } };
  return { params: p, sent };
}

/** What a response says, as a chat completion's reading does (llm/read-completion.ts). */
export function readResponse(
  res: Pick<Response, 'output' | 'usage' | 'status' | 'incomplete_details'>,
  role: Role,
  cfg: Pick<EndpointConfig, 'maxOutputTokens'>,
): CompletionRead {
  let text = '';
  let refusal = '';
  const toolCalls: NonNullable<CompletionRead['toolCalls']> = [];
  const reasoning: NonNullable<CompletionRead['reasoning']> = [];
  for (const item of res.output ?? []) {
    if (item.type === 'message')
      for (const part of item.content) {
        if (part.type === 'output_text') text += part.text;
        else if (part.type === 'refusal') refusal += part.refusal;
      }
    else if (item.type === 'function_call')
      toolCalls.push({
        id: item.call_id || `call_${toolCalls.length + 1}`,
        name: item.name,
        arguments: item.arguments,
      });
    else if (item.type === 'reasoning') reasoning.push(item as unknown as Record<string, unknown>);
  }
  const u = res.usage;
  const cached = u?.input_tokens_details?.cached_tokens ?? 0;
  const usage = {
    promptTokens: u?.input_tokens ?? 0,
    completionTokens: u?.output_tokens ?? 0,
    reasoningTokens: u?.output_tokens_details?.reasoning_tokens ?? 0,
    ...(cached ? { cachedTokens: cached } : {}),
  };
  const why = res.status === 'incomplete' ? res.incomplete_details?.reason : undefined;
  const finishReason = toolCalls.length ? 'tool_calls' : why === 'max_output_tokens' ? 'length' : (why ?? 'stop');
  const read: CompletionRead = {
    text,
    usage,
    finishReason,
    ...(toolCalls.length ? { toolCalls } : {}),
    ...(reasoning.length ? { reasoning } : {}),
  };
  if (toolCalls.length || text) return read;
  if (refusal || why === 'content_filter')
    throw new LlmError(
      'item_refused',
      `The ${role} model did not answer this item (${refusal ? `refused: ${refusal.slice(0, 200)}` : 'its content filter blocked the reply'}).`,
      { role, usage },
    );
  if (why === 'max_output_tokens')
    throw new LlmError(
      'truncated',
      `The ${role} model used its whole output budget (${cfg.maxOutputTokens ?? 'default'} tokens) before answering. Raise the maximum output tokens.`,
      { role, usage },
    );
  return read;
}
