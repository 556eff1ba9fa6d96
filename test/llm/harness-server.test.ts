// The test server as real agent harnesses use it (issue #42), through the official SDK: streamed
// Chat Completions that call tools (pi, Qwen Code, OpenCode), the Responses API (Codex), content
// sent as part arrays, a skill loaded wherever the harness listed it and the reference it names
// opened before the answer, and housekeeping requests (titles) kept apart from the target's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import OpenAI from 'openai';
import { startLlmServer, type LlmTestServer } from '../support/llm-server';
import { ruleText } from '../support/rule-world';

let srv: LlmTestServer;
let client: OpenAI;
beforeAll(async () => {
  srv = await startLlmServer();
  client = new OpenAI({ baseURL: srv.url, apiKey: 'sk-test' });
});
afterAll(() => srv.close());

const WS = '/tmp/skillwright-agent-x';
const SKILL = `---\nname: specimens\ndescription: Answers specimen code questions.\n---\n# Specimens\n\nThe amber codes are in references/codes.md.\n`;
const TASK = 'What is the amber code for specimen 104?';
const listing = `<available_skills>\n  <skill>\n    <name>specimens</name>\n    <description>Answers specimen code questions.</description>\n    <location>${WS}/.agents/skills/specimens/SKILL.md</location>\n  </skill>\n</available_skills>`;
const readTool = {
  type: 'function' as const,
  function: {
    name: 'read',
    parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  },
};

/** One streamed turn, its tool calls put together from their deltas. */
async function turn(messages: OpenAI.ChatCompletionMessageParam[]) {
  const stream = await client.chat.completions.create({
    model: 'sim-target',
    stream: true,
    messages,
    tools: [readTool],
  });
  let content = '';
  const calls: { id: string; name: string; args: string }[] = [];
  for await (const chunk of stream) {
    const d = chunk.choices[0]?.delta;
    content += d?.content ?? '';
    for (const c of d?.tool_calls ?? []) {
      calls[c.index] ??= { id: '', name: '', args: '' };
      calls[c.index].id ||= c.id ?? '';
      calls[c.index].name ||= c.function?.name ?? '';
      calls[c.index].args += c.function?.arguments ?? '';
    }
  }
  return { content, calls };
}

describe('the test server as harnesses use it', () => {
  it('streams a pi-like agent’s tool calls: the listed skill, then its reference, then the answer', async () => {
    const messages: OpenAI.ChatCompletionMessageParam[] = [
      { role: 'system', content: `You are pi.\n${listing}` },
      { role: 'user', content: [{ type: 'text', text: TASK }] },
    ];
    const files: Record<string, string> = {
      [`${WS}/.agents/skills/specimens/SKILL.md`]: SKILL,
      [`${WS}/.agents/skills/specimens/references/codes.md`]: ruleText('amber'),
    };
    const opened: string[] = [];
    for (let i = 0; i < 2; i++) {
      const t = await turn(messages);
      expect(t.calls).toHaveLength(1);
      const path = (JSON.parse(t.calls[0].args) as { path: string }).path;
      opened.push(path);
      messages.push({
        role: 'assistant',
        content: null,
        tool_calls: [{ id: t.calls[0].id, type: 'function', function: { name: 'read', arguments: t.calls[0].args } }],
      });
      messages.push({ role: 'tool', tool_call_id: t.calls[0].id, content: files[path] });
    }
    expect(opened).toEqual(Object.keys(files));
    expect((await turn(messages)).content).toContain('<answer>AMB9-104</answer>');
  });

  it('answers Codex on the Responses API: a shell call to read the skill, then the answer', async () => {
    const roots = `## Skills\n### Skill roots\n- \`r1\` = \`${WS}/.agents/skills\`\n### Available skills\n- specimens: Answers specimen code questions. (file: r1/specimens/SKILL.md)`;
    const tools = [
      {
        type: 'function' as const,
        name: 'exec_command',
        strict: false,
        parameters: { type: 'object', properties: { cmd: { type: 'string' } }, required: ['cmd'] },
      },
    ];
    const input: OpenAI.Responses.ResponseInput = [
      { role: 'developer', content: [{ type: 'input_text', text: roots }] },
      { role: 'user', content: [{ type: 'input_text', text: TASK }] },
    ];
    const events: string[] = [];
    let call: OpenAI.Responses.ResponseFunctionToolCall | undefined;
    for await (const e of await client.responses.create({ model: 'sim-target', input, tools, stream: true })) {
      events.push(e.type);
      if (e.type === 'response.output_item.done' && e.item.type === 'function_call') call = e.item;
    }
    expect(events[0]).toBe('response.created');
    expect(events.at(-1)).toBe('response.completed');
    expect(call).toMatchObject({
      name: 'exec_command',
      arguments: JSON.stringify({ cmd: `cat ${WS}/.agents/skills/specimens/SKILL.md` }),
    });
    // A skill holding its rule: nothing more to open.
    input.push(call!, {
      type: 'function_call_output',
      call_id: call!.call_id,
      output: `# Specimens\n\n${ruleText('amber')}`,
    });
    const done = await client.responses.create({ model: 'sim-target', input, tools });
    expect(done.output_text).toContain('<answer>AMB9-104</answer>');
  });

  it('keeps a harness’s housekeeping (a title) apart from the target’s answers', async () => {
    const r = await client.chat.completions.create({
      model: 'sim-target',
      messages: [
        { role: 'system', content: 'You are a title generator. You output ONLY a thread title.' },
        { role: 'user', content: TASK },
      ],
    });
    expect(r.choices[0].message.content).toBe('Specimen code question');
    expect(srv.log.at(-1)?.stage).toBe('housekeeping');
  });
});
