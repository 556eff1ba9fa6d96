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

/** Content of the last complete <answer>…</answer> pair (case-insensitive), or null. */
export function lastTagged(response: string): string | null {
  let close = -1;
  for (const m of response.matchAll(/<\/answer\s*>/gi)) close = m.index;
  if (close < 0) return null;
  let open = -1;
  let openLen = 0;
  for (const m of response.slice(0, close).matchAll(/<answer\s*>/gi)) {
    open = m.index;
    openLen = m[0].length;
  }
  if (open < 0) return null;
  return response.slice(open + openLen, close).trim();
}
