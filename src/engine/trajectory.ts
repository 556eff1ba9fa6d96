/**
 * How a rolled-out item is shown to the optimizer (algorithm doc §1.3, §3.1): task, failure
 * reason, the exact prompts the target saw, its response, and the evaluation block that lets
 * the analyst see why it failed. Prompts are re-rendered from the skill and the item rather
 * than stored per row.
 */
import type { DatasetItem } from '../core/dataset-types';
import { renderRollout, type RolloutTemplate } from '../core/templates';
import type { RolloutRow } from './types';

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

export function renderTrajectory(
  index: number,
  row: RolloutRow,
  item: DatasetItem,
  skill: string,
  template: RolloutTemplate,
  contextLimit: number,
): string {
  const prompts = renderRollout(template, skill.trim() ? SKILL_STAND_IN : '', item, contextLimit);
  return [
    `### Trajectory ${index} (id=${row.itemId})`,
    `Task: ${item.question}`,
    `Task type: ${item.taskType ?? ''}`,
    ...(row.failReason ? [`Failure reason: ${row.failReason}`] : []),
    'Steps: 1',
    '#### Target System Prompt',
    prompts.system,
    '#### Target User Prompt',
    prompts.user,
    '#### Conversation',
    `[agent] ${row.response}`,
    `[verification] ${evaluationBlock(row, item)}`,
  ].join('\n');
}
