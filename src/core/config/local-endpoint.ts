/** Whether a base URL points at the user's own machine or local network (issue #23). */
export function isLocalEndpoint(baseURL: string): boolean {
  const m = /^https?:\/\/(\[[^\]]+\]|[^/:]+)/i.exec(baseURL.trim());
  if (!m) return false;
  const h = m[1].toLowerCase();
  return (
    h === 'localhost' ||
    h === '[::1]' ||
    h === '0.0.0.0' ||
    h.endsWith('.local') ||
    /^127\./.test(h) ||
    /^(10|192\.168|172\.(1[6-9]|2\d|3[01]))\./.test(h)
  );
}
