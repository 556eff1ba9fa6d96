/**
 * OpenAI's Responses API on the test server (issue #42): Codex CLI speaks only this wire API
 * (`wire_api = "responses"`; its Chat Completions support was removed in 2026), and Skillwright
 * does for OpenAI's reasoning models (issue #44). A request is read into the chat form the
 * simulated models answer (its parameters under their chat names, marked `wire: 'responses'`), and
 * the answer written back as a response object or as its server-sent events (response.created …
 * response.completed), tool calls as `function_call` items. Errors keep the chat route's status
 * and body. A reasoning model (`reasoningLedger`) puts a reasoning item before the calls of a
 * turn and refuses a later request that sends those calls back without it, as OpenAI does.
 */
import type http from 'node:http';
import { textOf } from './harness-agent';
import type { WireMessage } from './llm-server';

interface ResponsesItem {
  type?: string;
  id?: string;
  role?: string;
  content?: unknown;
  call_id?: string;
  name?: string;
  arguments?: string;
  output?: unknown;
  encrypted_content?: string;
}

export interface ResponsesBody {
  model?: string;
  instructions?: string;
  input?: string | ResponsesItem[];
  tools?: { type: string; name?: string; description?: string; parameters?: unknown }[];
  stream?: boolean;
  text?: { format?: { type?: string; name?: string } };
  temperature?: number;
  max_output_tokens?: number;
  reasoning?: { effort?: string };
  parallel_tool_calls?: boolean;
}

/** The chat request a Responses request stands for (developer and system become one system message). */
export function chatOfResponses(body: ResponsesBody): Record<string, unknown> {
  const messages: WireMessage[] = [];
  const system = [body.instructions ?? ''];
  const items = typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : (body.input ?? []);
  for (const it of items) {
    if (it.type === 'function_call') {
      const last = messages[messages.length - 1];
      const call = {
        id: it.call_id ?? '',
        type: 'function' as const,
        function: { name: it.name ?? '', arguments: it.arguments ?? '' },
      };
      if (last?.role === 'assistant' && last.tool_calls) last.tool_calls.push(call);
      else messages.push({ role: 'assistant', content: null, tool_calls: [call] });
    } else if (it.type === 'function_call_output') {
      messages.push({ role: 'tool', tool_call_id: it.call_id, content: textOf(it.output) });
    } else if (it.role === 'developer' || it.role === 'system') {
      system.push(textOf(it.content));
    } else if (it.role === 'user' || it.role === 'assistant') {
      messages.push({ role: it.role, content: textOf(it.content) });
    }
  }
  const tools = (body.tools ?? [])
    .filter((t) => t.type === 'function' && t.name)
    .map((t) => ({
      type: 'function',
      function: { name: t.name, description: t.description, parameters: t.parameters },
    }));
  const format = body.text?.format;
  return {
    model: body.model,
    wire: 'responses',
    messages: [{ role: 'system', content: system.filter(Boolean).join('\n\n') }, ...messages],
    ...(tools.length ? { tools } : {}),
    ...(format?.type === 'json_schema'
      ? { response_format: { type: 'json_schema', json_schema: { name: format.name } } }
      : format?.type === 'json_object'
        ? { response_format: { type: 'json_object' } }
        : {}),
    ...(body.temperature !== undefined ? { temperature: body.temperature } : {}),
    ...(body.max_output_tokens !== undefined ? { max_completion_tokens: body.max_output_tokens } : {}),
    ...(body.reasoning?.effort !== undefined ? { reasoning_effort: body.reasoning.effort } : {}),
    ...(body.parallel_tool_calls !== undefined ? { parallel_tool_calls: body.parallel_tool_calls } : {}),
  };
}

/**
 * A reasoning model's reasoning items: one issued before each turn's calls, and a later request
 * that sends a call back without the item that led to it refused (OpenAI: "Item … of type
 * 'function_call' was provided without its required 'reasoning' item"). `carried` counts the calls
 * that came back with their reasoning.
 */
export function reasoningLedger() {
  const byCall = new Map<string, { id: string; encrypted: string }>();
  let issued = 0;
  const ledger = {
    carried: 0,
    issue(callIds: readonly string[]): Record<string, unknown> {
      const item = { id: `rs_${++issued}`, encrypted: `enc:${issued}:${callIds.join(',')}` };
      for (const c of callIds) byCall.set(c, item);
      return { type: 'reasoning', id: item.id, summary: [], encrypted_content: item.encrypted, status: 'completed' };
    },
    problem(body: ResponsesBody): string | null {
      const seen = new Map<string, string>();
      for (const it of typeof body.input === 'string' ? [] : (body.input ?? [])) {
        if (it.type === 'reasoning' && it.id) seen.set(it.id, it.encrypted_content ?? '');
        if (it.type !== 'function_call' || !it.call_id) continue;
        const needed = byCall.get(it.call_id);
        if (!needed) continue;
        if (seen.get(needed.id) !== needed.encrypted)
          return `Item '${it.call_id}' of type 'function_call' was provided without its required 'reasoning' item: '${needed.id}'.`;
        ledger.carried++;
      }
      return null;
    },
  };
  return ledger;
}

interface ChatCompletion {
  id: string;
  model: string;
  choices: {
    message: { content: string | null; tool_calls?: { id: string; function: { name: string; arguments: string } }[] };
  }[];
  usage?: {
    prompt_tokens: number;
    completion_tokens: number;
    total_tokens: number;
    prompt_tokens_details?: { cached_tokens?: number };
    completion_tokens_details?: { reasoning_tokens?: number };
  };
}

/** A chat completion as a Responses `response` object; `reasoning` goes before the turn's calls. */
export function responseOfChat(c: ChatCompletion, reasoning?: Record<string, unknown>): Record<string, unknown> {
  const m = c.choices[0]?.message;
  const output: Record<string, unknown>[] = (m?.tool_calls ?? []).map((t, i) => ({
    type: 'function_call',
    id: `fc_${c.id}_${i}`,
    call_id: t.id,
    name: t.function.name,
    arguments: t.function.arguments,
    status: 'completed',
  }));
  if (m?.content) {
    const content = [{ type: 'output_text', text: m.content, annotations: [] }];
    output.unshift({ type: 'message', id: `msg_${c.id}`, role: 'assistant', status: 'completed', content });
  }
  if (reasoning) output.unshift(reasoning);
  const u = c.usage;
  return {
    id: `resp_${c.id}`,
    object: 'response',
    created_at: 0,
    model: c.model,
    status: 'completed',
    output,
    ...(u
      ? {
          usage: {
            input_tokens: u.prompt_tokens,
            input_tokens_details: { cached_tokens: u.prompt_tokens_details?.cached_tokens ?? 0 },
            output_tokens: u.completion_tokens,
            output_tokens_details: { reasoning_tokens: u.completion_tokens_details?.reasoning_tokens ?? 0 },
            total_tokens: u.total_tokens,
          },
        }
      : {}),
  };
}

/** The response as the server-sent events a streaming client reads, text in small deltas. */
export function writeResponseEvents(res: http.ServerResponse, response: Record<string, unknown>): void {
  let seq = 0;
  const emit = (type: string, data: Record<string, unknown>) =>
    res.write(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: seq++, ...data })}\n\n`);
  const output = response.output as Record<string, unknown>[];
  emit('response.created', { response: { ...response, status: 'in_progress', output: [] } });
  output.forEach((item, output_index) => {
    if (item.type === 'message') {
      const text = (item.content as { text: string }[])[0].text;
      emit('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', content: [] } });
      const part = { type: 'output_text', text: '', annotations: [] };
      emit('response.content_part.added', { item_id: item.id, output_index, content_index: 0, part });
      for (const delta of text.match(/[\s\S]{1,16}/g) ?? [])
        emit('response.output_text.delta', { item_id: item.id, output_index, content_index: 0, delta });
      emit('response.output_text.done', { item_id: item.id, output_index, content_index: 0, text });
      emit('response.content_part.done', { item_id: item.id, output_index, content_index: 0, part: { ...part, text } });
    } else if (item.type === 'reasoning') {
      emit('response.output_item.added', { output_index, item: { ...item, status: 'in_progress' } });
    } else {
      emit('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', arguments: '' } });
      emit('response.function_call_arguments.delta', { item_id: item.id, output_index, delta: item.arguments });
      emit('response.function_call_arguments.done', { item_id: item.id, output_index, arguments: item.arguments });
    }
    emit('response.output_item.done', { output_index, item });
  });
  emit('response.completed', { response });
  res.end();
}
