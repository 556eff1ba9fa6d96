/**
 * Where a JSON text first goes wrong, as an offset — for error messages that point at a line
 * and column on every engine (some JSON.parse messages carry no position). Iterative, so deep
 * nesting cannot overflow the stack; linear in the input.
 */
export function jsonErrorOffset(text: string): number {
  let i = 0;
  const n = text.length;
  const stack: ('{' | '[')[] = [];
  const ws = () => {
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 32 || c === 9 || c === 10 || c === 13) i++;
      else break;
    }
  };
  const str = (): boolean => {
    i++; // opening quote
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c === 34) {
        i++;
        return true;
      }
      if (c < 32) return false;
      if (c === 92) {
        const e = text[i + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) return false;
          i += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i += 2;
        else return false;
      } else i++;
    }
    return false;
  };
  const scalar = (): boolean => {
    const c = text[i];
    if (c === '"') return str();
    for (const lit of ['true', 'false', 'null']) {
      if (text.startsWith(lit, i)) {
        i += lit.length;
        return true;
      }
    }
    const m = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (!m) return false;
    i += m[0].length;
    return true;
  };
  // State machine: expecting a value, then what may follow it in the enclosing container.
  let expectValue = true;
  ws();
  while (i <= n) {
    if (expectValue) {
      ws();
      if (i >= n) return n;
      const c = text[i];
      if (c === '{' || c === '[') {
        stack.push(c);
        i++;
        ws();
        if (text[i] === (c === '{' ? '}' : ']')) {
          stack.pop();
          i++;
          expectValue = false;
          continue;
        }
        if (c === '{') {
          if (text[i] !== '"' || !str()) return i;
          ws();
          if (text[i] !== ':') return i;
          i++;
        }
        continue;
      }
      if (!scalar()) return i;
      expectValue = false;
      continue;
    }
    ws();
    if (stack.length === 0) return i < n ? i : -1;
    const top = stack[stack.length - 1];
    const c = text[i];
    if (c === ',') {
      i++;
      ws();
      if (top === '{') {
        if (text[i] !== '"' || !str()) return i;
        ws();
        if (text[i] !== ':') return i;
        i++;
      }
      expectValue = true;
    } else if ((top === '{' && c === '}') || (top === '[' && c === ']')) {
      stack.pop();
      i++;
    } else return i;
  }
  return -1;
}
