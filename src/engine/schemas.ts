/**
 * JSON schemas sent as response_format json_schema (strict) with each optimizer call; the
 * schema name is the stage (DESIGN §4). Strict mode needs every property required and no
 * extra ones, so optional fields are empty strings.
 */
const str = { type: 'string' } as const;
const int = { type: 'integer' } as const;

/** An object whose every property is required and no other allowed (strict mode). */
const obj = (properties: Record<string, unknown>) => ({
  type: 'object',
  additionalProperties: false,
  required: Object.keys(properties),
  properties,
});

const source_type = { type: 'string', enum: ['failure', 'success'] } as const;

const edit = obj({
  op: { type: 'string', enum: ['append', 'insert_after', 'replace', 'delete'] },
  target: str,
  content: str,
  support_count: int,
  source_type,
});

const patch = obj({ reasoning: str, edits: { type: 'array', items: edit } });

const suggestion = obj({
  type: { type: 'string', enum: ['add_rule', 'remove_rule', 'merge_rules', 'reorganize', 'compress', 'clarify'] },
  title: str,
  motivation: str,
  instruction: str,
  priority_hint: { type: 'string', enum: ['high', 'medium', 'low'] },
  support_count: int,
  source_type,
});

const skillCandidate = obj({
  title: str,
  change_summary: { type: 'array', items: str },
  new_skill: str,
  support_count: int,
  source_type,
});

const failure_summary = { type: 'array', items: obj({ failure_type: str, count: int, description: str }) };
const success_patterns = { type: 'array', items: str };

/** Rewrite mode's patch: suggestions for one rewrite. Full-rewrite mode's: whole skills. */
const suggestions = obj({ reasoning: str, revise_suggestions: { type: 'array', items: suggestion } });
const candidates = obj({ reasoning: str, skill_candidates: { type: 'array', items: skillCandidate } });
/** An analyst of both kinds of trajectories: what it read, and its patch (a merge answers with the patch alone). */
const analysis = (patch: Record<string, unknown>) => obj({ batch_size: int, failure_summary, success_patterns, patch });

export const STAGE_SCHEMAS: Record<string, Record<string, unknown>> = {
  reflect_failure: obj({
    batch_size: int,
    failure_summary,
    patch,
  }),
  reflect_success: obj({ batch_size: int, success_patterns, patch }),
  merge_failure: patch,
  merge_success: patch,
  merge_final: patch,
  rank_edits: obj({ reasoning: str, selected_indices: { type: 'array', items: int } }),
  repair_edits: obj({
    reasoning: str,
    drop_indices: { type: 'array', items: int },
    add_edits: { type: 'array', items: edit },
  }),
  lr_decision: obj({
    learning_rate: int,
    reasoning: str,
    confidence: { type: 'string', enum: ['low', 'medium', 'high'] },
    risk_notes: { type: 'array', items: str },
  }),
  slow_update: obj({ reasoning: str, slow_update_content: str }),
  describe_skill: obj({ reasoning: str, description: str }),
  meta_skill: obj({ reasoning: str, meta_skill_content: str }),
  judge: obj({ pass: { type: 'boolean' }, score: { type: 'number' }, reason: str }),
  user_simulator: obj({ message: str, status: { type: 'string', enum: ['continue', 'goal_met', 'gave_up'] } }),
  // Rewrite mode (§3.5): suggestions instead of edits, then one rewrite.
  reflect_suggestions: analysis(suggestions),
  merge_suggestions: suggestions,
  rank_suggestions: obj({ reasoning: str, selected_indices: { type: 'array', items: int } }),
  rewrite_skill: obj({ reasoning: str, change_summary: { type: 'array', items: str }, new_skill: str }),
  // Full-rewrite mode: each analyst and merge returns one whole skill.
  reflect_full_rewrite: analysis(candidates),
  merge_full_rewrite: candidates,
  appendix_consolidate: obj({ appendix_notes: { type: 'array', items: str } }),
  feedback_edits: obj({ reasoning: str, edits: { type: 'array', items: edit } }),
};

/** An analyst schema with the skill-aware reminders key (§3.8). */
export function withAppendixNotes(schema: Record<string, unknown>): Record<string, unknown> {
  const props = schema.properties as Record<string, unknown>;
  return obj({ ...props, appendix_notes: { type: 'array', items: str } });
}
