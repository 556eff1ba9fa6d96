/**
 * An agent harness as the target (issue #31): a program that works in its own loop — an agent
 * CLI the runner starts per item (cli/agent-cli-target.ts) — given the skill and the task, and
 * answering with its final text and, when it writes one, its own transcript. Its every rollout
 * is an agent's; the transcript, with the final answer as its last turn, is scored and shown to
 * the analysts as any trajectory is. The process part stays with the host; this is the port's side.
 */
import { renderRollout } from '../../core/config/templates';
import type { DatasetItem } from '../../core/dataset/dataset-types';
import { turnsOf, type TrajectoryEntry } from '../../core/agent/trajectory';
import type { CheckOutcome, CheckSpec } from '../../core/agent/workspace-task';
import type { LlmUsage } from '../ports';
import type { Target, TargetRun } from '../target-port';
import { meteredCall, replyNotes } from './metered-call';

/** What a harness answered for one task. */
export interface HarnessAnswer {
  text: string;
  usage: LlmUsage;
  /** The harness reports no usage: the counts are estimated from characters. */
  usageEstimated?: boolean;
  /** Its own record of how it worked, when it writes one. */
  transcript?: TrajectoryEntry[];
  /** The item's check, run where the agent worked. */
  check?: CheckOutcome;
}

/** What the harness is told of the item besides its prompt: its id (for messages), its workspace and check. */
export interface HarnessItem {
  id: string;
  workspace?: string;
  check?: CheckSpec;
}

export interface AgentHarness {
  /** For messages, e.g. "agent CLI codex". */
  label: string;
  /** It copies an item's workspace into the agent's folder and runs its check there (issue #42 item 4). */
  workspaces?: boolean;
  /**
   * Run the agent once: the skill installed where it reads skills, the task its prompt. An
   * LlmError says why it failed (a fatal kind stops the run); it is never a wrong answer.
   */
  solve(task: { skill: string; prompt: string; signal: AbortSignal; item?: HarnessItem }): Promise<HarnessAnswer>;
}

/** A transcript with the final answer as its last turn. */
function withAnswer(transcript: readonly TrajectoryEntry[], answer: string): TrajectoryEntry[] {
  return [...transcript, { kind: 'assistant', turn: turnsOf(transcript) + 1, content: answer }];
}

function harnessItem(item: DatasetItem): HarnessItem {
  const { workspace, check } = item.agent ?? {};
  return { id: item.id, ...(workspace ? { workspace } : {}), ...(check ? { check } : {}) };
}

export function harnessTarget(h: AgentHarness): Target {
  return {
    label: h.label,
    agentic: true,
    ...(h.workspaces ? { workspaces: true } : {}),
    async run(job, deps): Promise<TargetRun> {
      deps.onCall();
      // A harness takes a target slot: the target concurrency knob bounds agents at work too.
      const res = await deps.slots.target.run(() => {
        const m = renderRollout(deps.rolloutTemplate, job.skill, job.item, deps.config.rollout.contextLimit);
        return meteredCall(deps, job.phase, m.system.length + m.user.length, () =>
          h.solve({ skill: job.skill, prompt: m.user, signal: deps.signal, item: harnessItem(job.item) }),
        );
      });
      return {
        answer: res.text,
        ...(res.transcript?.length ? { entries: withAnswer(res.transcript, res.text) } : {}),
        usage: res.usage,
        messages: [],
        episode: null,
        notes: replyNotes(deps, res),
        ...(res.check ? { check: res.check } : {}),
      };
    },
  };
}
