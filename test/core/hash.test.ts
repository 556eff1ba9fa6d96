import { describe, expect, it } from 'vitest';
import { contentId, skillHash } from '../../src/core/hash';

describe('skillHash', () => {
  it('is the first 16 hex digits of SHA-256 over UTF-8', async () => {
    // sha256("") = e3b0c44298fc1c149afbf4c8996fb924…, sha256("abc") = ba7816bf8f01cfea…
    expect(await skillHash('')).toBe('e3b0c44298fc1c14');
    expect(await skillHash('abc')).toBe('ba7816bf8f01cfea');
  });
  it('hashes exact bytes, without normalisation', async () => {
    expect(await skillHash('a\n')).not.toBe(await skillHash('a'));
    expect(await skillHash('\u00e9')).not.toBe(await skillHash('e\u0301'));
  });
});

describe('contentId', () => {
  it('is stable, 16 hex digits, and differs for different text', () => {
    expect(contentId('hello')).toMatch(/^[0-9a-f]{16}$/);
    expect(contentId('hello')).toBe(contentId('hello'));
    expect(contentId('hello')).not.toBe(contentId('hellp'));
  });
});
