/** Text from a run made safe in HTML text and attributes: the one escape every report section uses. */
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/** A number to render; anything else (an imported bundle may hold anything in its place) is not one. */
export const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
