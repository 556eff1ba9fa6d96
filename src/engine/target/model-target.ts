/**
 * The target a model endpoint is: the tool loop for an item whose skill offers tools (or that
 * talks with a simulated user), the chat call for any other — and the chat call for every item of
 * a one-shot phase answered by a batch (an agent's turns each wait on the last: never a batch).
 * What the run service chooses for an OpenAI-compatible target, and the engine's default.
 */
import type { Target } from '../target-port';
import { runChat } from './chat';
import { toolLoop } from './tool-loop';

export const modelTarget: Target = {
  label: 'the target model',
  agentic: false,
  run: (job, deps) =>
    deps.agent.active && !job.batched ? toolLoop(job, deps, () => runChat(job, deps)) : runChat(job, deps),
};
