/** Editing the Connect screen's draft connection in the app store, and the labels its fields share. */
import { setApp, type ConnectionDraft } from '../../store/app-store';
import type { StoredEndpoint } from '../../worker/api-types';

export const ROLE_LABEL = { target: 'Target', optimizer: 'Optimizer' } as const;
export const ROLE_NAMES: Record<string, string> = {
  target: 'Target',
  optimizer: 'Optimizer',
  judge: 'Judge',
  userSimulator: 'User simulator',
};

/** Options whose label is their value. */
export const choices = (values: readonly string[]) => values.map((value) => ({ value, label: value }));

export function patchConnection(p: Partial<ConnectionDraft>) {
  setApp((s) => ({ connection: { ...s.connection, ...p } }));
}

export function patchEndpoint(role: 'target' | 'optimizer', p: Partial<StoredEndpoint>) {
  setApp((s) => ({ connection: { ...s.connection, [role]: { ...s.connection[role], ...p } } }));
}
