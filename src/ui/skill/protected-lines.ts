import { findProtectedRegions, type RegionKind } from '../../core/skill/protected-regions';

const LABEL: Record<RegionKind, string> = {
  slow_update: 'Epoch guidance (slow update)',
  appendix: 'Execution notes appendix',
};

/** The 1-based line of a character offset. */
const lineOf = (text: string, pos: number) => text.slice(0, pos).split('\n').length;

/**
 * 1-based line ranges of the protected regions of a skill, for highlighting: exactly the
 * regions the engine protects (core/skill/protected-regions.ts; an unpaired marker is no region).
 */
export function protectedLineRanges(text: string): { start: number; end: number; kind: string }[] {
  return findProtectedRegions(text)
    .sort((a, b) => a.start - b.start)
    .map((r) => ({ start: lineOf(text, r.start), end: lineOf(text, r.end - 1), kind: LABEL[r.kind] }));
}
