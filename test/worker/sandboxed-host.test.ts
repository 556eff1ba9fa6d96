// The trainer's side of a module's sandbox (issue #39): everything that comes back over the port is
// someone else's code talking. A reply that breaks the contract is refused, named; a message that
// answers no request is ignored, and nothing on the port is served.
import { afterEach, describe, expect, it } from 'vitest';
import { sandboxedHost, type SandboxRequest } from '../../src/worker/sandboxed-host';

/** The sandbox's end of the port, played by the test: each request is answered by `reply`. */
function sandbox(reply: (r: SandboxRequest, port: MessagePort) => void) {
  const { port1, port2 } = new MessageChannel();
  const received: unknown[] = [];
  port2.onmessage = ({ data }) => {
    received.push(data);
    reply(data as SandboxRequest, port2);
  };
  return { host: sandboxedHost(port1), received, close: () => (port1.close(), port2.close()) };
}

const TOOL = { type: 'function', function: { name: 'lookup', parameters: { type: 'object', properties: {} } } };
let open: { close: () => void }[] = [];
afterEach(() => {
  for (const s of open) s.close();
  open = [];
});

describe('a sandboxed module host', () => {
  it('reads replies that keep the contract', async () => {
    const s = sandbox((r, port) => {
      const value =
        r.op === 'describe'
          ? { name: 'catalogue', tools: [TOOL], scores: true }
          : r.op === 'call'
            ? { result: 'Amber bolt', error: false }
            : r.op === 'score'
              ? { hard: 0, soft: 0.5, failReason: 'x'.repeat(5000) }
              : undefined;
      port.postMessage({ id: r.id, ok: true, value });
    });
    open.push(s);
    expect(await s.host.describe()).toEqual({
      name: 'catalogue',
      tools: [{ name: 'lookup', parameters: { type: 'object', properties: {} } }],
      scores: true,
    });
    expect(await s.host.call('e1', 'lookup', { code: '101' })).toEqual({ result: 'Amber bolt' });
    const scored = await s.host.score('e1', [], 'done');
    expect(scored).toMatchObject({ hard: 0, soft: 0.5 });
    expect(scored!.failReason).toHaveLength(2000);
    expect(s.received).toEqual([
      { id: 1, op: 'describe', args: [] },
      { id: 2, op: 'call', args: ['e1', 'lookup', { code: '101' }] },
      { id: 3, op: 'score', args: ['e1', [], 'done'] },
    ]);
  });

  it('refuses replies that break the contract, and says the module’s own error', async () => {
    const answers: Record<string, unknown> = {
      describe: { name: 'x', tools: [{ type: 'function', function: {} }], scores: false },
      call: { result: { not: 'text' } },
      score: { hard: Number.NaN },
    };
    const s = sandbox((r, port) =>
      port.postMessage(
        r.op === 'load'
          ? { id: r.id, ok: false, error: 'SyntaxError: Unexpected token' }
          : { id: r.id, ok: true, value: answers[r.op] },
      ),
    );
    open.push(s);
    await expect(s.host.load('export default {')).rejects.toThrow('SyntaxError: Unexpected token');
    await expect(s.host.describe()).rejects.toThrow(/its tools: tool 1/);
    await expect(s.host.call('e1', 'lookup', {})).rejects.toThrow(
      'its worker answered a tool result {result} with something else',
    );
    await expect(s.host.score('e1', [], null)).rejects.toThrow(/answered a score .* with something else/);
  });

  it('ignores what answers no request, and serves nothing on its port', async () => {
    const s = sandbox((r, port) => {
      if (r.op !== 'describe') return;
      // Before its answer: a call into the trainer in Comlink's words, a reply to no request, and junk.
      port.postMessage({ id: 'x', type: 'APPLY', path: ['listRuns'], argumentList: [] });
      port.postMessage({ id: 99, ok: true, value: 'unasked' });
      port.postMessage('junk');
      port.postMessage({ id: r.id, ok: true, value: { name: 'm', tools: [TOOL], scores: false } });
    });
    open.push(s);
    expect((await s.host.describe()).name).toBe('m');
    // Anything the host had sent back for those messages would have arrived before this request.
    void s.host.close('e1'); // unanswered here: the test reads what reached the sandbox
    await expect.poll(() => s.received.length).toBe(2);
    expect(s.received).toEqual([
      { id: 1, op: 'describe', args: [] },
      { id: 2, op: 'close', args: ['e1'] },
    ]);
  });
});
