/**
 * Matching a call's arguments against a stated subset (issue #30): `tool_results` and
 * `expected_tool_calls` name only the arguments that matter. A stated key must be present with
 * an equal value; objects compare key by key the same way, lists element by element, and
 * scalars by their text ("104" matches 104: models are loose about JSON types).
 */

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function matchesSubset(stated: unknown, actual: unknown): boolean {
  if (isRecord(stated)) {
    if (!isRecord(actual)) return false;
    return Object.entries(stated).every(([k, v]) => k in actual && matchesSubset(v, actual[k]));
  }
  if (Array.isArray(stated)) {
    return (
      Array.isArray(actual) && stated.length === actual.length && stated.every((v, i) => matchesSubset(v, actual[i]))
    );
  }
  if (stated === null || actual === null) return stated === actual;
  if (typeof actual === 'object') return false;
  return String(stated) === String(actual);
}

/** A call's arguments as an object: the model writes them as JSON text, which may be broken. */
export function parseArguments(
  text: string,
): { ok: true; args: Record<string, unknown> } | { ok: false; error: string } {
  if (!text.trim()) return { ok: true, args: {} };
  try {
    const v: unknown = JSON.parse(text);
    if (isRecord(v)) return { ok: true, args: v };
    return { ok: false, error: 'the arguments must be a JSON object' };
  } catch (e) {
    return { ok: false, error: `the arguments are not valid JSON (${e instanceof Error ? e.message : String(e)})` };
  }
}

/** Arguments as the analysts and the inspector read them: compact JSON, stable. */
export function showArguments(args: unknown): string {
  return typeof args === 'string' ? args : JSON.stringify(args ?? {});
}
