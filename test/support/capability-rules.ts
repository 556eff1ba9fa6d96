/**
 * What the test server's model refuses (issue #44), as OpenAI's models do, with OpenAI's words
 * and `param`: a non-default temperature, max_tokens (max_completion_tokens wanted), reasoning
 * efforts outside a list, function tools beside any effort but `none` on Chat Completions,
 * `parallel_tool_calls`. A pure function of the request and the options.
 */

export interface CapabilityOptions {
  /** Refuse any temperature but the default (1), as a reasoning model does. */
  rejectsTemperature?: boolean;
  /** Refuse max_tokens: "Use 'max_completion_tokens' instead." */
  wantsMaxCompletionTokens?: boolean;
  /** Reasoning efforts accepted; [] refuses the parameter; unset: any is taken (and ignored). */
  efforts?: readonly string[];
  /**
   * A model that reasons by default and takes function tools on Chat Completions only with
   * reasoning_effort "none" (OpenAI's GPT-5.6 and GPT-6 Luna): even a request that sends no
   * effort is refused. The Responses API takes tools with any effort.
   */
  toolsOnlyWithEffortNone?: boolean;
  /** Refuse `parallel_tool_calls`. */
  rejectsParallelToolCalls?: boolean;
}

/** A request as the rules read it (a Responses request is read into this shape, with its wire). */
export interface CapabilityRequest {
  model?: string;
  temperature?: number;
  max_tokens?: number;
  reasoning_effort?: string;
  tools?: unknown[];
  parallel_tool_calls?: boolean;
  /** The Responses API, whose parameters are named `reasoning.effort` and so on. */
  wire?: 'responses';
}

export interface CapabilityRefusal {
  message: string;
  param: string;
  code: string;
}

const quoted = (xs: readonly string[]) =>
  xs.length > 1 ? `${xs.slice(0, -1).map((x) => `'${x}'`).join(', ')}, and '${xs[xs.length - 1]}'` : `'${xs[0]}'`;

export function capabilityRefusal(body: CapabilityRequest, o: CapabilityOptions): CapabilityRefusal | null {
  const responses = body.wire === 'responses';
  const effortParam = responses ? 'reasoning.effort' : 'reasoning_effort';
  if (o.rejectsTemperature && body.temperature !== undefined && body.temperature !== 1)
    return {
      message: `Unsupported value: 'temperature' does not support ${body.temperature} with this model. Only the default (1) value is supported.`,
      param: 'temperature',
      code: 'unsupported_value',
    };
  if (o.wantsMaxCompletionTokens && body.max_tokens !== undefined)
    return {
      message: "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
      param: 'max_tokens',
      code: 'unsupported_parameter',
    };
  const effort = body.reasoning_effort;
  if (effort !== undefined && o.efforts && !o.efforts.includes(effort))
    return o.efforts.length
      ? {
          message: `Unsupported value: '${effortParam}' does not support '${effort}' with this model. Supported values are: ${quoted(o.efforts)}.`,
          param: effortParam,
          code: 'unsupported_value',
        }
      : {
          message: `Unsupported parameter: '${effortParam}' is not supported with this model.`,
          param: effortParam,
          code: 'unsupported_parameter',
        };
  if (o.toolsOnlyWithEffortNone && !responses && body.tools?.length && effort !== 'none')
    return {
      message: `Function tools with reasoning_effort are not supported for ${body.model} in /v1/chat/completions. To use function tools, use /v1/responses or set reasoning_effort to 'none'.`,
      param: 'reasoning_effort',
      code: 'unsupported_value',
    };
  if (o.rejectsParallelToolCalls && body.parallel_tool_calls !== undefined)
    return {
      message: "Unsupported parameter: 'parallel_tool_calls' is not supported with this model.",
      param: 'parallel_tool_calls',
      code: 'unsupported_parameter',
    };
  return null;
}
