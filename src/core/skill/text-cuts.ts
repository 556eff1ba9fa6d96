/**
 * Cutting markers and spans out of a skill in one pass (issue #28: a hostile text of nested or
 * repeated markers made the cut-and-search-again loops quadratic, seconds on 240 KB).
 */

/** Text with every occurrence of these strings removed, also those that removing others would join (a stack). */
export function removeAll(text: string, strings: readonly string[]): string {
  if (!strings.some((s) => text.includes(s))) return text;
  const ends = new Set(strings.map((s) => s[s.length - 1]));
  const out: string[] = [];
  for (const ch of text) {
    out.push(ch);
    if (!ends.has(ch)) continue;
    for (const s of strings) {
      if (out.length < s.length) continue;
      let match = true;
      for (let i = 0; i < s.length && match; i++) match = out[out.length - s.length + i] === s[i];
      if (match) {
        out.length -= s.length;
        break;
      }
    }
  }
  return out.join('');
}

const leadingNewlines = (t: string) => {
  let n = 0;
  while (n < t.length && t.charCodeAt(n) === 10) n++;
  return n;
};

/**
 * Pieces left by cuts, joined: at each cut the newlines on both sides shrink to the larger run
 * (at most one blank line); a cut inside a line leaves the line whole, and none are added at the
 * start or the end.
 */
export function joinCuts(pieces: readonly string[]): string {
  const out: string[] = [];
  pieces.forEach((piece, i) => {
    if (i === 0) return void out.push(piece);
    let lead = 0;
    while (out.length) {
      const last = out[out.length - 1];
      let keep = last.length;
      while (keep > 0 && last.charCodeAt(keep - 1) === 10) keep--;
      lead += last.length - keep;
      if (keep > 0) {
        if (keep < last.length) out[out.length - 1] = last.slice(0, keep);
        break;
      }
      out.pop();
    }
    const trail = leadingNewlines(piece);
    const tail = piece.slice(trail);
    if (!out.length) return void out.push(tail);
    if (tail) out.push('\n'.repeat(Math.min(2, Math.max(lead, trail))), tail);
  });
  return out.join('');
}
