/**
 * The test server's user simulator (issue #31): it reads the prompt the engine sends
 * (prompts/user_simulator.md) — its goal, its persona, the conversation so far — and follows its
 * goal. A goal states the user's facts as sentences "Your full name is Dana Reyes."; the user
 * gives a fact when the assistant's last message asks for it by name, is satisfied by an answer
 * (`<answer>…</answer>` that is not "unknown"), and otherwise asks again — or, told the
 * conversation ends, gives up. The "never" user is never satisfied: it always goes on (the
 * engine's limit ends it).
 */
export type UserSimulatorKind = 'goal' | 'never';

export interface UserReply {
  message: string;
  status: 'continue' | 'goal_met' | 'gave_up';
}

/** The user's facts from its goal: "Your new address is 12 Elm Street, Oslo." → {"new address": "12 Elm Street, Oslo"}. */
export function goalFacts(goal: string): Record<string, string> {
  return Object.fromEntries([...goal.matchAll(/Your ([a-z ]+?) is ([^.]+(?:\.[^ .][^.]*)*)\./g)].map((m) => [m[1], m[2]]));
}

/** The last thing the assistant said, from the prompt's conversation. */
export function lastAssistantMessage(conversation: string): string {
  const parts = conversation.split(/\n\n(?=(?:User|Assistant): )/);
  const last = [...parts].reverse().find((p) => p.startsWith('Assistant: '));
  return last ? last.slice('Assistant: '.length) : '';
}

const answered = (text: string) => {
  const a = /<answer>([\s\S]*?)<\/answer>/.exec(text)?.[1]?.trim().toLowerCase();
  return a !== undefined && a !== '' && a !== 'unknown' && a !== 'i do not know.';
};

/** The goal-following user's reply to what the assistant last said; `ending`: the conversation ends after it. */
export function goalReply(goal: string, said: string, ending: boolean): UserReply {
  if (answered(said)) return { message: 'Thank you, that is all I needed.', status: 'goal_met' };
  if (ending) return { message: 'You could not help me. Goodbye.', status: 'gave_up' };
  const asked = Object.entries(goalFacts(goal)).filter(([fact]) => said.toLowerCase().includes(fact));
  if (asked.length) return { message: asked.map(([fact, value]) => `My ${fact} is ${value}.`).join(' '), status: 'continue' };
  return { message: 'That does not answer my question. Can you help me with it?', status: 'continue' };
}

/** The reply to the engine's prompt (prompts/user_simulator.md), as the test server gives it. */
export function simulatedUserReply(system: string, user: string, kind: UserSimulatorKind = 'goal'): UserReply {
  if (kind === 'never') return { message: 'Hmm. Tell me more.', status: 'continue' };
  const goal = /^Your goal: (.*)$/m.exec(system)?.[1] ?? '';
  const conversation = user.split('## The conversation so far')[1]?.split('\n## Your turn')[0]?.trim() ?? '';
  return goalReply(goal, lastAssistantMessage(conversation), /The conversation ends here/.test(user));
}
