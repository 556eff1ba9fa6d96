/**
 * The prompts of each update mode (core/skill/update-modes.ts): which analyst and merge prompts a step
 * calls, and under which key their items come back.
 */
import { PAYLOAD_KEYS, type UpdateMode } from '../../core/skill/update-modes';
import type { PromptName } from '../prompts';

export interface ModePrompts {
  /** The key of the items in analyst patches and merge replies. */
  field: (typeof PAYLOAD_KEYS)[UpdateMode];
  reflect: Record<'failure' | 'success', PromptName>;
  merge: Record<'failure' | 'success' | 'final', PromptName>;
}

export const MODE_PROMPTS: Record<UpdateMode, ModePrompts> = {
  patch: {
    field: PAYLOAD_KEYS.patch,
    reflect: { failure: 'reflect_failure', success: 'reflect_success' },
    merge: { failure: 'merge_failure', success: 'merge_success', final: 'merge_final' },
  },
  rewrite: {
    field: PAYLOAD_KEYS.rewrite,
    reflect: { failure: 'reflect_suggestions', success: 'reflect_suggestions' },
    merge: { failure: 'merge_suggestions', success: 'merge_suggestions', final: 'merge_suggestions' },
  },
  full_rewrite: {
    field: PAYLOAD_KEYS.full_rewrite,
    reflect: { failure: 'reflect_full_rewrite', success: 'reflect_full_rewrite' },
    merge: { failure: 'merge_full_rewrite', success: 'merge_full_rewrite', final: 'merge_full_rewrite' },
  },
};
