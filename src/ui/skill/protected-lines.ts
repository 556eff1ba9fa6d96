import { APPENDIX_END, APPENDIX_START, SLOW_UPDATE_END, SLOW_UPDATE_START } from '../../core/protected-regions';

/** 1-based line ranges of the protected regions of a skill, for highlighting. */
export function protectedLineRanges(text: string): { start: number; end: number; kind: string }[] {
  const lines = text.split('\n');
  const out: { start: number; end: number; kind: string }[] = [];
  let open: { start: number; kind: string } | null = null;
  lines.forEach((l, i) => {
    if (l.includes(SLOW_UPDATE_START)) open = { start: i + 1, kind: 'Epoch guidance (slow update)' };
    else if (l.includes(APPENDIX_START)) open = { start: i + 1, kind: 'Execution notes appendix' };
    if (open && (l.includes(SLOW_UPDATE_END) || l.includes(APPENDIX_END))) {
      out.push({ start: open.start, end: i + 1, kind: open.kind });
      open = null;
    }
  });
  return out;
}
