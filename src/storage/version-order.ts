/**
 * The order a run's skill versions are read in, the same from every store: oldest first, then by
 * step, then by origin — versions saved in one millisecond (a slow update and its step) would
 * otherwise come back in whichever order a store happened to keep them.
 */
import type { SkillVersion } from '../engine/types';

export const versionOrder = (a: SkillVersion, b: SkillVersion): number =>
  a.createdAt - b.createdAt || a.step - b.step || (a.origin < b.origin ? -1 : a.origin > b.origin ? 1 : 0);
