/**
 * Declared tools (issue #30): no code, the dataset says what each call returns. A call is
 * answered by the first of the item's `tool_results` with its name whose arguments are a subset
 * of the call's.
 */
import type { ToolResultRule } from './agent-item';
import { matchesSubset } from './tool-match';

export const NO_RESULT = 'no result for these arguments';

export function declaredResult(rules: readonly ToolResultRule[] | undefined, name: string, args: unknown): string {
  const rule = (rules ?? []).find((r) => r.name === name && matchesSubset(r.arguments ?? {}, args));
  return rule ? rule.result : NO_RESULT;
}
