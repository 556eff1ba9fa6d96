/**
 * What one agent turn may ask of its environment (issue #39 M4): a model that asks for 1 500
 * calls at once, sends megabytes of arguments or gets megabytes back would otherwise fill the
 * store and the next prompt. At most 32 calls a turn are run (the rest are answered with an
 * error), arguments over 64 KB are never sent (and kept only as a note of their size), and a
 * result is cut to 100 KB — whatever the tool: declared, read_file, a module or an MCP server.
 */
import { capResult } from '../core/agent/transcript';
import type { ToolOutcome } from './environment';

export const MAX_TOOL_CALLS_PER_TURN = 32;
export const MAX_ARGUMENT_CHARS = 64 * 1024;
export const MAX_RESULT_CHARS = 100 * 1024;

const cutNote = (n: number) => `{"cut":"arguments of ${n} characters, over the ${MAX_ARGUMENT_CHARS / 1024} KB limit"}`;
const CUT = /^\{"cut":"arguments of \d+ characters, over the \d+ KB limit"\}$/;

/** A call's arguments as a trajectory keeps them: over the limit, a note of their size. */
export function keptArguments(text: string): string {
  return text.length > MAX_ARGUMENT_CHARS ? cutNote(text.length) : text;
}

/** The answer to the call at `index` of its turn, under the limits; `answer` asks the tool. */
export async function limitedAnswer(
  index: number,
  argsText: string,
  answer: () => Promise<ToolOutcome>,
): Promise<ToolOutcome> {
  if (index >= MAX_TOOL_CALLS_PER_TURN)
    return {
      result: `Error: too many tool calls in one turn (at most ${MAX_TOOL_CALLS_PER_TURN}); this call was not run`,
      error: true,
    };
  if (argsText.length > MAX_ARGUMENT_CHARS || CUT.test(argsText))
    return {
      result: `Error: the arguments are larger than ${MAX_ARGUMENT_CHARS / 1024} KB; this call was not run`,
      error: true,
    };
  const out = await answer();
  return out.result.length > MAX_RESULT_CHARS ? { ...out, result: capResult(out.result, MAX_RESULT_CHARS) } : out;
}
