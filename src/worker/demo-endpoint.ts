/**
 * The zero-key demo (issue #11): an OpenAI-compatible endpoint simulated inside the worker,
 * running the rule world (core/simulators/demo-world.ts, core/simulators/demo-optimizer.ts), the activation track's
 * trigger world (core/simulators/demo-trigger-world.ts) and the agent example's parts desk
 * (core/simulators/demo-tool-world.ts). Requests to its base URL
 * never leave the page — the `.invalid` domain cannot resolve, so nothing could reach a
 * network even by mistake. Everything it answers is a simulation, and the app says so.
 */
import { DEMO_BASE_URL, DEMO_LATENCY_MS, DEMO_MODELS, simulatedTargetAnswer } from '../core/simulators/demo-world';
import { simulatedOptimizerAnswer, stageOf, type ChatBody } from '../core/simulators/demo-optimizer';
import { describerReply, isTriggerPrompt, triggerReply } from '../core/simulators/demo-trigger-world';
import { toolWorldOptimizer, toolWorldPolicy, type DeskRequest } from '../core/simulators/demo-tool-world';

export { DEMO_BASE_URL, DEMO_KEY, DEMO_MODELS } from '../core/simulators/demo-world';

/** A stable number in [0, 1) from a text (FNV-1a): the simulation's "randomness". */
export function fnvFraction(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h / 0x100000000;
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const tokens = (text: string) => Math.max(1, Math.ceil(text.length / 4));

function complete(body: ChatBody): Response {
  const tools = (body as { tools?: { function?: { name: string } }[] }).tools;
  if (tools?.length && stageOf(body) === 'target') return agentTurn(body, tools);
  const messages = body.messages ?? [];
  const system = messages.find((m) => m.role === 'system')?.content ?? '';
  const user = messages
    .filter((m) => m.role === 'user')
    .map((m) => m.content)
    .join('\n');
  const stage = stageOf(body);
  // The activation track's question and rewrite (core/simulators/demo-trigger-world.ts).
  const trigger = stage === 'target' && isTriggerPrompt(system);
  const content = trigger
    ? triggerReply(system, user)
    : stage === 'target'
      ? `Looking at the question and the rules.\n<answer>${simulatedTargetAnswer(system, user)}</answer>`
      : stage === 'describe_skill'
        ? JSON.stringify(describerReply(user, fnvFraction(user), 0.25))
        : JSON.stringify(
            toolWorldOptimizer(stage, system, user) ??
              simulatedOptimizerAnswer(stage, user, { harmfulRate: 0.25, fraction: fnvFraction }, system),
          );
  const prompt = tokens(system + user);
  const completion = tokens(content);
  return json(200, {
    id: `demo-${fnvFraction(user).toString(36).slice(2, 10)}`,
    object: 'chat.completion',
    created: 0,
    model: body.model ?? DEMO_MODELS.target,
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
  });
}

/** An agent's turn in the parts desk: the calls it makes next, or its final answer. */
function agentTurn(body: ChatBody, tools: { function?: { name: string } }[]): Response {
  const messages = (body.messages ?? []) as unknown as DeskRequest['messages'];
  const system = messages.find((m) => m.role === 'system')?.content ?? '';
  const user = messages.find((m) => m.role === 'user')?.content ?? '';
  const reply = toolWorldPolicy({
    system,
    user,
    messages,
    tools: tools.flatMap((t) => (t.function ? [t.function] : [])),
  });
  const turn = messages.filter((m) => m.role === 'assistant').length + 1;
  const message =
    'toolCalls' in reply
      ? {
          role: 'assistant',
          content: null,
          tool_calls: reply.toolCalls.map((c, i) => ({
            id: `demo_${turn}_${i + 1}`,
            type: 'function',
            function: { name: c.name, arguments: JSON.stringify(c.arguments) },
          })),
        }
      : { role: 'assistant', content: reply.content };
  const prompt = tokens(messages.map((m) => m.content ?? '').join('\n'));
  return json(200, {
    id: `demo-${fnvFraction(JSON.stringify(messages)).toString(36).slice(2, 10)}`,
    object: 'chat.completion',
    created: 0,
    model: body.model ?? DEMO_MODELS.target,
    choices: [{ index: 0, message, finish_reason: 'toolCalls' in reply ? 'tool_calls' : 'stop' }],
    usage: { prompt_tokens: prompt, completion_tokens: 20, total_tokens: prompt + 20 },
  });
}

/** A fetch that answers the demo endpoint here and passes every other request on. */
export function withDemoEndpoint(base?: typeof fetch, latencyMs = DEMO_LATENCY_MS): typeof fetch {
  const pass = base ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init));
  return async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (!url.startsWith(DEMO_BASE_URL)) return pass(input, init);
    // A short pause, like a fast model: the dashboard has something to show.
    await new Promise((r) => setTimeout(r, latencyMs));
    init?.signal?.throwIfAborted();
    const path = url.slice(DEMO_BASE_URL.length).split('?')[0];
    if (path === '/models')
      return json(200, {
        object: 'list',
        data: Object.values(DEMO_MODELS).map((id) => ({ id, object: 'model', owned_by: 'skillwright-demo' })),
      });
    if (path === '/chat/completions' && (init?.method ?? 'GET').toUpperCase() === 'POST') {
      const text = typeof init?.body === 'string' ? init.body : await new Response(init?.body as BodyInit).text();
      return complete(JSON.parse(text) as ChatBody);
    }
    return json(404, { error: { message: `The demo endpoint has no ${path}.`, type: 'invalid_request_error' } });
  };
}
