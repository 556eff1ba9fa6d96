/**
 * JSON schemas sent as response_format json_schema (strict) with each optimizer call; the
 * schema name is the stage (DESIGN §4). Strict mode needs every property required and no
 * extra ones, so optional fields are empty strings.
 */
const str = { type: 'string' } as const;
const int = { type: 'integer' } as const;

const edit = {
  type: 'object',
  additionalProperties: false,
  required: ['op', 'target', 'content', 'support_count', 'source_type'],
  properties: {
    op: { type: 'string', enum: ['append', 'insert_after', 'replace', 'delete'] },
    target: str,
    content: str,
    support_count: int,
    source_type: { type: 'string', enum: ['failure', 'success'] },
  },
} as const;

const patch = {
  type: 'object',
  additionalProperties: false,
  required: ['reasoning', 'edits'],
  properties: { reasoning: str, edits: { type: 'array', items: edit } },
} as const;

const obj = (properties: Record<string, unknown>) => ({
  type: 'object',
  additionalProperties: false,
  required: Object.keys(properties),
  properties,
});

export const STAGE_SCHEMAS: Record<string, Record<string, unknown>> = {
  reflect_failure: obj({
    batch_size: int,
    failure_summary: { type: 'array', items: obj({ failure_type: str, count: int, description: str }) },
    patch,
  }),
  reflect_success: obj({ batch_size: int, success_patterns: { type: 'array', items: str }, patch }),
  merge_failure: patch,
  merge_success: patch,
  merge_final: patch,
  rank_edits: obj({ reasoning: str, selected_indices: { type: 'array', items: int } }),
  repair_edits: obj({ reasoning: str, drop_indices: { type: 'array', items: int }, add_edits: { type: 'array', items: edit } }),
  lr_decision: obj({ learning_rate: int, reasoning: str, confidence: { type: 'string', enum: ['low', 'medium', 'high'] }, risk_notes: { type: 'array', items: str } }),
  slow_update: obj({ reasoning: str, slow_update_content: str }),
  meta_skill: obj({ reasoning: str, meta_skill_content: str }),
  judge: obj({ pass: { type: 'boolean' }, score: { type: 'number' }, reason: str }),
  feedback_edits: obj({ reasoning: str, edits: { type: 'array', items: edit } }),
};
