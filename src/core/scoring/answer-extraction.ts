/**
 * The final answer in a model response (algorithm doc §5.2): the content of the last
 * <answer>…</answer>, else the last non-empty line, else the trimmed text. Linear time.
 */
export function extractAnswer(response: string): string {
  const tagged = lastTagged(response);
  if (tagged !== null) return tagged;
  const lines = response.split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i].trim();
    if (line) return line;
  }
  return response.trim();
}

/**
 * Content of the last <answer>…</answer> match (case-insensitive), or null. Matches are found the
 * reference's way — left to right, each open tag with the first close after it — so nested tags
 * give `<answer>x` for `<answer><answer>x</answer></answer>`, as its non-greedy findall does.
 */
export function lastTagged(response: string): string | null {
  const open = /<answer\s*>/gi;
  const close = /<\/answer\s*>/gi;
  let found: string | null = null;
  for (;;) {
    const o = open.exec(response);
    if (!o) return found;
    close.lastIndex = o.index + o[0].length;
    const c = close.exec(response);
    if (!c) return found;
    found = response.slice(o.index + o[0].length, c.index).trim();
    open.lastIndex = c.index + c[0].length;
  }
}
