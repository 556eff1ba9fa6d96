/**
 * How a rolled-out item is shown to the optimizer (algorithm doc §1.3, §3.1): task, failure
 * reason, the exact prompts the target saw, its response, and the evaluation block that lets
 * the analyst see why it failed. Prompts are re-rendered from the skill and the item rather
 * than stored per row. An agent's row (issue #30) shows its whole trajectory: every turn, call,
 * argument and (capped) result, the references it read, and the turn that failed.
 */
import type { DatasetItem } from '../core/dataset/dataset-types';
import { renderRollout, type RolloutTemplate } from '../core/config/templates';
import { conversationLines, referencesRead } from '../core/agent/transcript';
import { toolTally, turnsOf } from '../core/agent/trajectory';
import { OUT_OF_TURNS } from '../core/agent/trajectory-checks';
import { CHECK_FAILED } from '../core/agent/workspace-task';
import type { RolloutRow } from './types';
import { onDemandSkill } from '../core/agent/references-on-demand';
import type { TargetDeps } from './target-port';

export function evaluationBlock(row: RolloutRow, item: DatasetItem): string {
  const lines = [
    `Question: ${item.question}`,
    `Predicted answer: ${row.predicted}`,
    `Expected: ${JSON.stringify(item.correctChoice ? [item.correctChoice] : item.answers)}`,
    `hard=${row.hard} soft=${row.soft.toFixed(2)}`,
  ];
  if (row.judge) lines.push(`Judge: ${row.judge.reason}`);
  return lines.join('\n');
}

/** Written where the target's prompt held the skill; the skill itself is shown once, above. */
export const SKILL_STAND_IN = '[the Current Skill shown above, word for word]';

/** How an agent's trajectory is shown: whole (the default), or its final answer only (the ablation). */
export interface TrajectoryView {
  full: boolean;
  resultChars: number;
  /** References on demand: the files the agent could read (its prompt held SKILL.md only). */
  onDemandFiles?: readonly string[];
}

/** How the analysts are shown this run's trajectories: the run's settings, and the files a skill's agent could read. */
export function trajectoryView(ctx: Pick<TargetDeps, 'config' | 'agent'>, skill: string): TrajectoryView {
  const files = ctx.config.referencesOnDemand ? onDemandSkill(skill, ctx.agent.packageFiles) : null;
  return {
    full: ctx.config.reflectOnTrajectories ?? true,
    resultChars: ctx.config.toolResultChars ?? 400,
    ...(files ? { onDemandFiles: [...files.files.keys()].filter((p) => p !== 'SKILL.md') } : {}),
  };
}

export function renderTrajectory(
  index: number,
  row: RolloutRow,
  item: DatasetItem,
  skill: string,
  template: RolloutTemplate,
  contextLimit: number,
  view: TrajectoryView = { full: true, resultChars: 400 },
): string {
  const prompts = renderRollout(template, skill.trim() ? SKILL_STAND_IN : '', item, contextLimit);
  const agent = row.trajectory ? view : null;
  const failReason = shownFailReason(row, view);
  const onDemand =
    agent?.full && agent.onDemandFiles?.length
      ? [
          `(References on demand: the prompt held SKILL.md and the list of its files — ${agent.onDemandFiles.join(', ')} — which the agent reads with read_file.)`,
        ]
      : [];
  const trajectory = row.trajectory ?? [];
  const tally = toolTally(trajectory);
  const read = referencesRead(trajectory);
  return [
    `### Trajectory ${index} (id=${row.itemId})`,
    `Task: ${item.question}`,
    `Task type: ${item.taskType ?? ''}`,
    ...(failReason ? [`Failure reason: ${failReason}`] : []),
    `Steps: ${agent?.full ? turnsOf(trajectory) : 1}`,
    ...(agent?.full ? [`Tools called: ${tally || 'none'}`, `References read: ${read.join(', ') || 'none'}`] : []),
    '#### Target System Prompt',
    prompts.system,
    ...onDemand,
    '#### Target User Prompt',
    prompts.user,
    '#### Conversation',
    ...conversationBlock(row, item, view),
  ].join('\n');
}

/** The conversation and its verification: an agent's turns, or the single answer. */
export function conversationBlock(row: RolloutRow, item: DatasetItem, view: TrajectoryView): string[] {
  const turns = row.trajectory && view.full ? conversationLines(row.trajectory, view.resultChars) : null;
  return [...(turns ?? [`[agent] ${row.response}`]), `[verification] ${evaluationBlock(row, item)}`];
}

/** A row's failure reason as this view may show it. */
export function shownFailReason(row: RolloutRow, view: TrajectoryView): string | undefined {
  return row.failReason && row.trajectory && !view.full ? answerPartOf(row.failReason) : row.failReason;
}

/**
 * A failure reason without what only the trajectory shows (for reflection on final answers):
 * the final answer's part, or a plain statement that tool checks failed.
 */
export function answerPartOf(reason: string): string {
  // A check's verdict comes last and is kept whole: its output is what the analysts must read.
  const at = reason.indexOf(CHECK_FAILED);
  const check = at >= 0 && (at === 0 || reason.slice(at - 2, at) === '; ') ? reason.slice(at) : '';
  const parts = (check ? reason.slice(0, at) : reason).split('; ');
  const answer = parts.find((p) => /^turn \d+: [A-Z]+[=<]/.test(p))?.replace(/^turn \d+: /, '');
  if (answer || check) return [answer, check].filter(Boolean).join('; ');
  if (parts.some((p) => p.startsWith(OUT_OF_TURNS))) return 'no final answer';
  return 'the trajectory failed its tool checks';
}
