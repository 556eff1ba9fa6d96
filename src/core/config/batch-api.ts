/**
 * Provider batch APIs (issue #22 item 4): the target's one-shot phases — baseline, final
 * validation, test, evaluation — sent as one batch at about half price, answered in minutes
 * to 24 hours. Two wire shapes cover the providers that accept calls from a browser page:
 * OpenAI's (upload a JSONL file, then create the batch; servers that copy it too) and
 * OpenRouter's (the requests inline). Anthropic's batch endpoint refuses browser calls, and
 * Gemini's batch mode is not OpenAI-compatible: neither is offered.
 */
export const BATCH_APIS = ['openai', 'openrouter'] as const;
export type BatchApi = (typeof BATCH_APIS)[number];

export const BATCH_API_LABELS: Record<BatchApi, string> = {
  openai: 'OpenAI Batch API (file upload)',
  openrouter: 'OpenRouter Batch API (inline requests)',
};

/** Batch lines are billed at half the list price by OpenAI, OpenRouter and the providers behind it. */
export const BATCH_PRICE_FACTOR = 0.5;

/** Providers answer within minutes to hours: a poll every 30 s is plenty and cheap. */
export const DEFAULT_BATCH_POLL_MS = 30_000;

/** The call stages a batch API answers (with evaluations outside a run): the one-shot phases. */
export const BATCH_CALL_STAGES: ReadonlySet<string> = new Set(['baseline', 'finalValidation', 'test']);
