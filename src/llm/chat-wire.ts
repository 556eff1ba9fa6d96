/**
 * A request on the Chat Completions wire, built from what the model accepts (llm/capabilities.ts):
 * no temperature where it is refused, the output limit under the parameter it takes, the role's
 * reasoning effort moved to one it accepts (beside tools, too), and the structured output it keeps to.
 */
import type {
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import type { ChatMessage, LlmRequest } from '../engine/ports';
import { effortFor, type Capabilities, type JsonMode } from '../core/config/capabilities';
import type { EndpointConfig } from './endpoint';
import type { Sent } from './refusals';

/** Our message shape as the chat API's: tool calls and tool results in its wire form. */
export function toApiMessage(m: ChatMessage): ChatCompletionMessageParam {
  if (m.role === 'tool') return { role: 'tool', tool_call_id: m.toolCallId, content: m.content };
  if (m.role === 'assistant' && m.toolCalls?.length)
    return {
      role: 'assistant',
      content: m.content || null,
      tool_calls: m.toolCalls.map((c) => ({
        id: c.id,
        type: 'function' as const,
        function: { name: c.name, arguments: c.arguments },
      })),
    };
  return { role: m.role, content: m.content };
}

/** What every wire sends alike: temperature, effort and JSON mode, as the capabilities allow. */
export function sentFor(req: LlmRequest, cfg: EndpointConfig, caps: Capabilities, mode: JsonMode): Sent {
  const tools = Boolean(req.tools?.length);
  return {
    temperature: caps.temperature && cfg.temperature !== undefined,
    effort: effortFor(cfg.reasoningEffort ?? '', caps, tools),
    tools,
    ...(req.jsonSchema ? { jsonMode: mode } : {}),
  };
}

export function chatParams(
  req: LlmRequest,
  cfg: EndpointConfig,
  caps: Capabilities,
  mode: JsonMode,
): { params: ChatCompletionCreateParamsNonStreaming; sent: Sent } {
  const sent = sentFor(req, cfg, caps, mode);
  const p: ChatCompletionCreateParamsNonStreaming = {
    model: cfg.model,
    messages: req.messages.map(toApiMessage),
  };
  if (req.tools?.length)
    p.tools = req.tools.map((t) => ({
      type: 'function' as const,
      function: {
        name: t.name,
        ...(t.description ? { description: t.description } : {}),
        parameters: t.parameters ?? { type: 'object', properties: {} },
      },
    }));
  if (cfg.serviceTier) p.service_tier = cfg.serviceTier;
  if (sent.temperature) p.temperature = cfg.temperature;
  if (cfg.maxOutputTokens) {
    p[caps.tokenLimit] = cfg.maxOutputTokens;
    sent.tokenLimit = caps.tokenLimit;
  }
  if (sent.effort) p.reasoning_effort = sent.effort;
  if (req.jsonSchema && mode === 'json_schema') {
    p.response_format = {
      type: 'json_schema',
      json_schema: { name: req.jsonSchema.name, schema: req.jsonSchema.schema, strict: true },
    };
  } else if (req.jsonSchema && mode === 'json_object') {
    p.response_format = { type: 'json_object' };
  }
  return { params: p, sent };
}
