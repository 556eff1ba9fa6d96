/**
 * Reasoning models and local servers often put their thinking in the reply itself:
 * `<think>…</think>` (DeepSeek R1, Qwen QwQ, many llama.cpp / Ollama builds), sometimes with the
 * opening tag left out by the chat template. The thinking stays in the stored trajectory — the
 * analysts read it — but the answer and any JSON are taken from what follows it (issue #23).
 */
const OPEN = /<think(?:ing)?>/gi;
const CLOSE = /<\/think(?:ing)?>/gi;

/** The reply without its thinking blocks; linear in the text. */
export function stripThinking(text: string): string {
  if (!/<\/?think/i.test(text)) return text;
  let out = '';
  let at = 0;
  // A close tag with no open tag before it: the template swallowed the opening; cut up to it.
  CLOSE.lastIndex = 0;
  const firstClose = CLOSE.exec(text);
  OPEN.lastIndex = 0;
  const firstOpen = OPEN.exec(text);
  if (firstClose && (!firstOpen || firstClose.index < firstOpen.index)) at = firstClose.index + firstClose[0].length;
  for (;;) {
    OPEN.lastIndex = at;
    const o = OPEN.exec(text);
    if (!o) return (out + text.slice(at)).trim();
    out += text.slice(at, o.index);
    CLOSE.lastIndex = o.index + o[0].length;
    const c = CLOSE.exec(text);
    // Still thinking when the reply ended (cut off): nothing after it is an answer.
    if (!c) return out.trim();
    at = c.index + c[0].length;
  }
}
