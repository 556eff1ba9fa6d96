// A model target built for a ranking flip (issue #42 item 5): it knows every code of the rule world
// by itself and is thrown by any rule a skill states — so a skill trained on sim-target, which helps
// only by the rules it states, surely lowers its score. Any model named sim-contrarian… plays it.
import { expectedAnswer, parseQuestion } from './rule-world';

export function contrarian(model: string, system: string, user: string): string | undefined {
  if (!model.startsWith('sim-contrarian')) return undefined;
  const q = parseQuestion(user);
  if (!q) return 'I do not know.';
  return /use the prefix/.test(system) ? 'unknown' : expectedAnswer(q.topics, q.specimen);
}
