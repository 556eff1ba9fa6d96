/** Turning a full disk into a paused run with a message that says what to do (DESIGN §5). */
import { PauseError } from '../engine/pause';

export function isQuotaError(e: unknown): boolean {
  return e instanceof Error && (e.name === 'QuotaExceededError' || /quota/i.test(e.message));
}

function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export async function quotaPause(estimate?: () => Promise<{ usage?: number; quota?: number }>): Promise<PauseError> {
  let used = '';
  try {
    const fallback = (): Promise<{ usage?: number; quota?: number }> =>
      typeof navigator !== 'undefined' && navigator.storage ? navigator.storage.estimate() : Promise.resolve({});
    const e = await (estimate ?? fallback)();
    if (e.usage !== undefined)
      used = ` Skillwright uses ${mb(e.usage)}${e.quota ? ` of the ${mb(e.quota)} this browser allows` : ''}.`;
  } catch {
    // No estimate available; the message still says how to free space.
  }
  return new PauseError(
    'storage',
    `The browser refused to store more data (storage quota exceeded).${used} Free space by deleting old runs or exporting and deleting them (Runs), then resume.`,
  );
}

/** Run a write; a quota failure becomes a PauseError. */
export async function guardQuota<T>(
  write: () => Promise<T>,
  estimate?: () => Promise<{ usage?: number; quota?: number }>,
): Promise<T> {
  try {
    return await write();
  } catch (e) {
    if (isQuotaError(e)) throw await quotaPause(estimate);
    throw e;
  }
}
