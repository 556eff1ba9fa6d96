/**
 * Where a skill version came from (issue #21), typed. Stores keep the string form they always
 * held — "initial_skill", "step_0007", "appendix_0007", "slow_update_epoch_02",
 * "slow_update_placeholder_epoch_01" — and this module is the only one that writes or reads it.
 */
export type VersionOrigin =
  | { kind: 'initial' }
  /** The candidate a step's gate accepted (or the current skill a step re-scored). */
  | { kind: 'step'; step: number }
  /** The current skill after a step's execution notes were merged into its appendix. */
  | { kind: 'appendix'; step: number }
  /** An epoch boundary's slow update; epoch 1 only places the empty block (a placeholder). */
  | { kind: 'slow_update'; epoch: number; placeholder: boolean };

export const INITIAL_ORIGIN = 'initial_skill';

const digits = (n: number, width: number) => String(n).padStart(width, '0');

export function originKey(o: VersionOrigin): string {
  switch (o.kind) {
    case 'initial':
      return INITIAL_ORIGIN;
    case 'step':
      return `step_${digits(o.step, 4)}`;
    case 'appendix':
      return `appendix_${digits(o.step, 4)}`;
    case 'slow_update':
      return `slow_update_${o.placeholder ? 'placeholder_' : ''}epoch_${digits(o.epoch, 2)}`;
  }
}

/** The typed origin of a stored string; null for one this version does not know. */
export function parseOrigin(s: string): VersionOrigin | null {
  if (s === INITIAL_ORIGIN) return { kind: 'initial' };
  const m = /^(step|appendix)_(\d+)$/.exec(s);
  if (m) return { kind: m[1] as 'step' | 'appendix', step: Number(m[2]) };
  const e = /^slow_update_(placeholder_)?epoch_(\d+)$/.exec(s);
  if (e) return { kind: 'slow_update', epoch: Number(e[2]), placeholder: Boolean(e[1]) };
  return null;
}

/** An origin for people: "step 0007", "slow update epoch 02" (the stored form, spaced). */
export function originLabel(s: string): string {
  return s.replace(/_/g, ' ');
}
