/** Text normalisation and string measures shared by the scorers (algorithm doc §5.2). */

const ASCII_PUNCTUATION = /[!"#$%&'()*+,\-./:;<=>?@[\\\]^_`{|}~]/g;
const ARTICLES = /(?<![\p{L}\p{N}_])(?:a|an|the)(?![\p{L}\p{N}_])/gu;

/** SQuAD normalisation: lower-case, drop ASCII punctuation, drop a/an/the, collapse spaces. */
export function squadNormalise(text: string): string {
  return text.toLowerCase().replace(ASCII_PUNCTUATION, '').replace(ARTICLES, ' ').replace(/\s+/g, ' ').trim();
}

/** Token F1 with multiset overlap between two already-normalised strings. */
export function tokenF1(prediction: string, gold: string): number {
  const p = prediction.split(' ').filter(Boolean);
  const g = gold.split(' ').filter(Boolean);
  if (p.length === 0 || g.length === 0) return p.length === g.length ? 1 : 0;
  const counts = new Map<string, number>();
  for (const t of g) counts.set(t, (counts.get(t) ?? 0) + 1);
  let common = 0;
  for (const t of p) {
    const c = counts.get(t) ?? 0;
    if (c > 0) {
      common++;
      counts.set(t, c - 1);
    }
  }
  if (common === 0) return 0;
  const precision = common / p.length;
  const recall = common / g.length;
  return (2 * precision * recall) / (precision + recall);
}

/** Levenshtein distance over UTF-16 code units, O(n·m) time and O(m) memory. */
export function levenshtein(a: string, b: string): number {
  if (a === b) return 0;
  if (!a.length) return b.length;
  if (!b.length) return a.length;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  let cur = new Array<number>(b.length + 1);
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
    }
    [prev, cur] = [cur, prev];
  }
  return prev[b.length];
}

/** Quote a value the way Python's repr quotes a str (for fail reasons that match the reference). */
export function pyRepr(s: string): string {
  if (s.includes("'") && !s.includes('"')) return `"${s}"`;
  return `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** A Python-style list of strings: ['a', 'b']. */
export function pyList(items: readonly string[]): string {
  return `[${items.map(pyRepr).join(', ')}]`;
}
