/**
 * Settings, including API keys — but keys only after the user explicitly ticks "Remember on
 * this device" (DESIGN §5, §6). Keys are stored nowhere else and are never exported.
 */
import type { SkillwrightDb } from './open-db';

type KeyRole = 'target' | 'optimizer' | 'judge' | 'userSimulator' | 'confirm';

export type RememberedKeys = Partial<Record<KeyRole, string>> & {
  /** The origin each key was typed for (keys are only sent there). */
  hosts?: Partial<Record<KeyRole, string>>;
  /** MCP servers' tokens by the server's URL (issue #31): each sent only to that URL's origin. */
  mcp?: Record<string, string>;
};

const KEYS = 'remembered-keys';

export async function rememberKeys(db: SkillwrightDb, keys: RememberedKeys): Promise<void> {
  await db.put('settings', { key: KEYS, value: keys });
}

export async function forgetKeys(db: SkillwrightDb): Promise<void> {
  await db.delete('settings', KEYS);
}

export async function getRememberedKeys(db: SkillwrightDb): Promise<RememberedKeys> {
  return ((await db.get('settings', KEYS))?.value as RememberedKeys | undefined) ?? {};
}
