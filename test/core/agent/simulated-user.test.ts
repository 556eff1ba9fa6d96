// Simulated users (issue #31), the pure part: the item's fields, the conversation's entries as
// the analysts and the judge read them, the user's verdict as a check, the calls in the estimate.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { importDatasetText } from '../../../src/core/dataset/dataset-import';
import { formatProblem } from '../../../src/core/dataset/dataset-types';
import { finalAnswerOf, userEndOf, type TrajectoryEntry } from '../../../src/core/agent/trajectory';
import { conversationLines } from '../../../src/core/agent/transcript';
import { combineChecks, userGoalCheck } from '../../../src/core/agent/trajectory-checks';
import { estimateRunCalls, lowRunCalls } from '../../../src/core/config/call-count';
import { DEFAULT_RUN_CONFIG } from '../../../src/core/config/run-config';
import { callStageOfPrompt, CALL_STAGES, OPTIMIZER_STAGES } from '../../../src/core/config/stages';
import { estimateCost } from '../../../src/engine/cost-estimate';
import { rolloutTemplateOf } from '../../../src/engine/context';
import { Meter } from '../../../src/engine/meter';
import { loadPrompts } from '../../support/prompts';
import { maxUserMessages } from '../../../src/engine/target/simulated-user';

const talk: TrajectoryEntry[] = [
  { kind: 'assistant', turn: 1, content: 'Could you tell me your full name?' },
  { kind: 'user', message: 2, content: 'My full name is Dana Reyes.' },
  { kind: 'assistant', turn: 2, content: '', toolCalls: [{ id: 'c2', name: 'search_orders', arguments: '{"customer":"Dana Reyes"}' }] },
  { kind: 'tool', turn: 2, callId: 'c2', name: 'search_orders', arguments: '{"customer":"Dana Reyes"}', result: 'A1: shipped' },
  { kind: 'assistant', turn: 3, content: '<answer>shipped</answer>' },
  { kind: 'user', message: 3, content: 'Thanks!', end: 'goal_met' },
];

describe('an item’s simulated user', () => {
  it('reads user_goal, user_persona and max_user_turns; such an item needs no expected answer', () => {
    const r = importDatasetText(JSON.stringify([{ id: 'a', question: 'Where is my order?', user_goal: 'Know the status. Your full name is Dana Reyes.', user_persona: 'terse', max_user_turns: '3' }]));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.dataset.items[0].answers).toEqual([]);
    expect(r.dataset.items[0].agent).toEqual({ user: { goal: 'Know the status. Your full name is Dana Reyes.', persona: 'terse', maxTurns: 3 } });
  });

  it('names the row and field of a bad one', () => {
    const r = importDatasetText(
      JSON.stringify([
        { question: 'Q1?', answer: 'A', user_goal: 7 },
        { question: 'Q2?', answer: 'A', user_persona: 'shy' },
        { question: 'Q3?', answer: 'A', user_goal: 'g', max_user_turns: 0 },
        { question: 'Q4?', answer: 'A', user_goal: 'g', max_user_turns: 2.5 },
      ]),
    );
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.problems.map(formatProblem)).toEqual([
      'Row 1, field "user_goal": must be text',
      'Row 2, field "user_persona": needs a user_goal: what the simulated user wants',
      'Row 3, field "max_user_turns": must be a whole number from 1 to 20',
      'Row 4, field "max_user_turns": must be a whole number from 1 to 20',
    ]);
  });
});

describe('a conversation’s trajectory', () => {
  it('shows the user’s messages in order and how the conversation ended', () => {
    expect(conversationLines(talk, 100)).toEqual([
      '[assistant turn 1] Could you tell me your full name?',
      '[user message 2] My full name is Dana Reyes.',
      '[tool call turn 2] search_orders({"customer":"Dana Reyes"})',
      '[tool result turn 2] A1: shipped',
      '[assistant turn 3] <answer>shipped</answer>',
      '[user message 3, goal met] Thanks!',
    ]);
    expect(finalAnswerOf(talk)).toBe('<answer>shipped</answer>');
    expect(userEndOf(talk)).toBe('goal_met');
    expect(userEndOf(talk.slice(0, 5))).toBeNull();
  });

  it('scores a conversation nothing else checks by the user’s verdict', () => {
    expect(userGoalCheck(talk)).toEqual({ hard: 1, soft: 1 });
    const gaveUp: TrajectoryEntry[] = [...talk.slice(0, 5), { kind: 'user', message: 3, content: 'Wrong order. Bye.', end: 'gave_up' }];
    expect(userGoalCheck(gaveUp)).toEqual({ hard: 0, soft: 0, failReason: 'the user gave up at message 3: Wrong order. Bye.' });
    const limit: TrajectoryEntry[] = [...talk.slice(0, 5), { kind: 'user', message: 3, content: 'More?', end: 'limit' }];
    expect(combineChecks([userGoalCheck(limit)]).failReason).toBe("the user's goal was not met within 2 messages");
  });
});

describe('the user simulator’s calls', () => {
  it('are their own stage, answered by their own role, billed at the optimizer’s price unless priced', () => {
    expect(callStageOfPrompt('user_simulator')).toBe('userSimulator');
    expect(CALL_STAGES.userSimulator).toEqual({ label: 'User simulator', pipeline: 'rollout' });
    expect(OPTIMIZER_STAGES).toContain('userSimulator');
    const usage = { promptTokens: 1_000_000, completionTokens: 1_000_000, reasoningTokens: 0 };
    const m = new Meter({ optimizer: { input: 1, output: 2 } }, {});
    m.add('userSimulator', 'userSimulator', usage);
    expect(m.totalCostUsd).toBe(3);
  });

  it('are counted per rollout of a conversation in the estimate, and scale the target’s turns', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 200 }), fc.integer({ min: 1, max: 50 }), fc.double({ min: 0.01, max: 1, noNaN: true }), fc.integer({ min: 1, max: 20 }), (train, val, share, calls) => {
        const splits = { train, val, test: val };
        const plain = estimateRunCalls(DEFAULT_RUN_CONFIG, splits);
        const talks = estimateRunCalls(DEFAULT_RUN_CONFIG, splits, { conversations: { share, simulatorCalls: calls } });
        const rollouts = ['baseline', 'rollout', 'trainCheck', 'gate', 'slowUpdateRollout', 'slowUpdateGate', 'finalValidation', 'test'] as const;
        expect(talks.userSimulator).toBe(Math.round(rollouts.reduce((n, s) => n + plain[s], 0) * share * calls));
        expect(plain.userSimulator).toBe(0);
        expect(lowRunCalls(talks, DEFAULT_RUN_CONFIG).userSimulator).toBeLessThanOrEqual(talks.userSimulator);
      }),
    );
    const prompts = loadPrompts();
    const r = importDatasetText(
      JSON.stringify([
        ...Array.from({ length: 4 }, (_, i) => ({ question: `Q${i}?`, answer: 'a', user_goal: 'g', max_user_turns: 3, split: 'train' })),
        ...Array.from({ length: 4 }, (_, i) => ({ question: `R${i}?`, answer: 'a', split: i < 2 ? 'val' : 'test' })),
      ]),
    );
    if (!r.ok) throw new Error('invalid');
    const args = { config: DEFAULT_RUN_CONFIG, items: r.dataset.items, splits: { train: 4, val: 2, test: 2 }, skill: '# S\n', template: rolloutTemplateOf(DEFAULT_RUN_CONFIG, prompts), prompts };
    const upper = estimateCost(args);
    const counts = estimateRunCalls(DEFAULT_RUN_CONFIG, args.splits, { conversations: { share: 0.5, simulatorCalls: 3 } });
    expect(upper.stages.userSimulator?.calls).toBe(counts.userSimulator);
    // Half the items are conversations of up to 3 answers: 2 target calls per rollout on average.
    expect(upper.stages.rollout?.calls).toBe(counts.rollout * 2);
    expect(upper.assumptions.some((a) => a.startsWith('50% of the items are conversations with a simulated user: up to 3.0 user messages each'))).toBe(true);
    const measured = estimateCost({ ...args, simulator: { calls: 1.5 } });
    expect(measured.stages.userSimulator?.calls).toBe(estimateRunCalls(DEFAULT_RUN_CONFIG, args.splits, { conversations: { share: 0.5, simulatorCalls: 1.5 } }).userSimulator);
  });
});

describe('a conversation’s limit (issue #39 M5)', () => {
  it('holds to the datasets’ limit whatever a record says', () => {
    expect(maxUserMessages({ goal: 'g' })).toBe(5);
    expect(maxUserMessages({ goal: 'g', maxTurns: 3 })).toBe(3);
    expect(maxUserMessages({ goal: 'g', maxTurns: 1e9 })).toBe(20);
    for (const maxTurns of [0, -1, 2.5, NaN, '7' as unknown as number]) expect(maxUserMessages({ goal: 'g', maxTurns })).toBe(5);
  });
});
