/** The agent harnesses Skillwright has presets for (issue #42: core/agent/harness-presets.ts). */
export const HARNESSES = ['codex', 'claude', 'opencode', 'pi', 'qwen', 'gemini'] as const;
export type HarnessName = (typeof HARNESSES)[number];
