/** Whether a base URL points at the user's own machine or local network (issue #23). */
export function isLocalEndpoint(baseURL: string): boolean {
  const m = /^https?:\/\/(\[[^\]]+\]|[^/:]+)/i.exec(baseURL.trim());
  if (!m) return false;
  const h = m[1].toLowerCase();
  return (
    h === 'localhost' ||
    h === '[::1]' ||
    h === '0.0.0.0' ||
    h.endsWith('.local') ||
    /^127\./.test(h) ||
    /^(10|192\.168|172\.(1[6-9]|2\d|3[01]))\./.test(h)
  );
}

/** How to give each local server a longer context (the connection test's context probe). */
export function contextFix(baseURL: string, truncatedAt: number): string {
  const h = /^https?:\/\/(\[[^\]]+\]|[^/]+)/i.exec(baseURL.trim())?.[1] ?? baseURL;
  const need = 'a context that holds the skill, the task and the answer (16 384 tokens or more for long skills)';
  if (/:11434$/.test(h))
    return `Ollama cuts prompts at ${truncatedAt} tokens here: start it with OLLAMA_CONTEXT_LENGTH=16384 ollama serve, or set PARAMETER num_ctx 16384 in the model's Modelfile — ${need}.`;
  if (/:8080$/.test(h))
    return `llama-server cuts prompts at ${truncatedAt} tokens: start it with -c 16384 (--ctx-size) — ${need}.`;
  if (/:1234$/.test(h))
    return `LM Studio cuts prompts at ${truncatedAt} tokens: raise the model's context length when loading it — ${need}.`;
  return `The server cuts prompts at about ${truncatedAt} tokens: raise its context size (for vLLM, --max-model-len) — ${need}.`;
}
