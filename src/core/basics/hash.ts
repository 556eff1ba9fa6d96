import { sha256 } from '@noble/hashes/sha2.js';

/**
 * Identity of a skill: the first 16 hex digits of SHA-256 over its exact UTF-8 bytes (§1.4).
 * WebCrypto's digest where the page has it; a page served over plain http from another host than
 * localhost has no `crypto.subtle` (a secure-context API), and gets the same digest in JavaScript.
 */
export async function skillHash(text: string): Promise<string> {
  const bytes = new TextEncoder().encode(text);
  const subtle = typeof crypto === 'undefined' ? undefined : crypto.subtle;
  const digest = subtle ? new Uint8Array(await subtle.digest('SHA-256', bytes)) : sha256(bytes);
  let hex = '';
  for (const b of digest.subarray(0, 8)) hex += b.toString(16).padStart(2, '0');
  return hex;
}

/**
 * A fast synchronous 64-bit FNV-1a hash as 16 hex digits, for ids derived from content
 * (dataset rows without an id). Not cryptographic; collisions surface as duplicate-id errors.
 */
export function contentId(text: string): string {
  let h1 = 0x811c9dc5;
  let h2 = 0xcbf29ce4;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 0x01000193) >>> 0;
    h2 = Math.imul(h2 ^ c ^ (h1 >>> 7), 0x01000193) >>> 0;
  }
  return h1.toString(16).padStart(8, '0') + h2.toString(16).padStart(8, '0');
}
