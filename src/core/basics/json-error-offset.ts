/**
 * Where a JSON text first goes wrong, as an offset — for error messages that point at a line
 * and column on every engine (some JSON.parse messages carry no position). Iterative, so deep
 * nesting cannot overflow the stack; linear in the input.
 */
export function jsonErrorOffset(text: string): number {
  const s = new Scanner(text);
  const stack: ('{' | '[')[] = [];
  // State machine: expecting a value, then what may follow it in the enclosing container.
  let expectValue = true;
  s.ws();
  while (s.i <= s.n) {
    if (expectValue) {
      s.ws();
      if (s.i >= s.n) return s.n;
      const c = text[s.i];
      if (c === '{' || c === '[') {
        stack.push(c);
        s.i++;
        s.ws();
        if (text[s.i] === (c === '{' ? '}' : ']')) {
          stack.pop();
          s.i++;
          expectValue = false;
        } else if (c === '{' && !s.key()) return s.i;
        continue;
      }
      if (!s.scalar()) return s.i;
      expectValue = false;
      continue;
    }
    s.ws();
    if (stack.length === 0) return s.i < s.n ? s.i : -1;
    const top = stack[stack.length - 1];
    const c = text[s.i];
    if (c === ',') {
      s.i++;
      s.ws();
      if (top === '{' && !s.key()) return s.i;
      expectValue = true;
    } else if ((top === '{' && c === '}') || (top === '[' && c === ']')) {
      stack.pop();
      s.i++;
    } else return s.i;
  }
  return -1;
}

/** A position in the text and the tokens read from it; each read returns false where the text goes wrong. */
class Scanner {
  i = 0;
  readonly n: number;
  constructor(private readonly text: string) {
    this.n = text.length;
  }

  ws(): void {
    while (this.i < this.n) {
      const c = this.text.charCodeAt(this.i);
      if (c === 32 || c === 9 || c === 10 || c === 13) this.i++;
      else break;
    }
  }

  str(): boolean {
    const { text } = this;
    this.i++; // opening quote
    while (this.i < this.n) {
      const c = text.charCodeAt(this.i);
      if (c === 34) {
        this.i++;
        return true;
      }
      if (c < 32) return false;
      if (c === 92) {
        const e = text[this.i + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(this.i + 2, this.i + 6))) return false;
          this.i += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) this.i += 2;
        else return false;
      } else this.i++;
    }
    return false;
  }

  /** An object's key and its colon. */
  key(): boolean {
    if (this.text[this.i] !== '"' || !this.str()) return false;
    this.ws();
    if (this.text[this.i] !== ':') return false;
    this.i++;
    return true;
  }

  scalar(): boolean {
    const { text } = this;
    if (text[this.i] === '"') return this.str();
    for (const lit of ['true', 'false', 'null']) {
      if (text.startsWith(lit, this.i)) {
        this.i += lit.length;
        return true;
      }
    }
    const m = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(this.i, this.i + 400));
    if (!m) return false;
    this.i += m[0].length;
    return true;
  }
}
