/** Automatic field mapping (DESIGN §3.1): which source field plays which role. */
import type { FieldMapping, MappingRole, RawRow } from './dataset-types';

/** Candidate source names per role, in order of preference (matched case-insensitively). */
export const FIELD_ALIASES: Record<MappingRole, readonly string[]> = {
  id: ['id', '_id', 'key', 'uid'],
  question: ['question', 'input', 'prompt', 'query', 'instruction', 'task'],
  expected: ['answers', 'answer', 'expected', 'expected_output', 'output', 'target', 'ground_truth', 'label'],
  context: ['context'],
  choices: ['choices', 'options'],
  correctChoice: ['correct_choice', 'correct', 'correct_label'],
  split: ['split'],
  taskType: ['task_type', 'type', 'category'],
  rubric: ['rubric'],
};

/** Field names seen in the first rows, in order of first appearance. */
export function sampleFieldNames(rows: readonly RawRow[], limit = 1000): string[] {
  const seen = new Set<string>();
  for (const r of rows.slice(0, limit)) for (const k of Object.keys(r.record)) seen.add(k);
  return [...seen];
}

/** The mapping detected from field names; each source field fills at most one role. */
export function detectMapping(fieldNames: readonly string[]): FieldMapping {
  const byLower = new Map<string, string>();
  for (const f of fieldNames) if (!byLower.has(f.toLowerCase())) byLower.set(f.toLowerCase(), f);
  const used = new Set<string>();
  const mapping: FieldMapping = {};
  for (const role of Object.keys(FIELD_ALIASES) as MappingRole[]) {
    for (const alias of FIELD_ALIASES[role]) {
      const f = byLower.get(alias);
      if (f && !used.has(f)) {
        mapping[role] = f;
        used.add(f);
        break;
      }
    }
  }
  return mapping;
}
