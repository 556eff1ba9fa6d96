import { afterEach, describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { anyText } from '../../support/arbitraries';
import { contentId, skillHash } from '../../../src/core/basics/hash';

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

describe('skillHash without WebCrypto (issue #20 item 14)', () => {
  afterEach(() => vi.unstubAllGlobals());
  it('a page on plain http (no crypto.subtle) gets the same digest', async () => {
    const texts = ['', 'abc', '# Skill\n- é rule 🚀\n'];
    const withSubtle = await Promise.all(texts.map(skillHash));
    vi.stubGlobal('crypto', { getRandomValues: globalThis.crypto.getRandomValues.bind(globalThis.crypto) });
    expect(globalThis.crypto.subtle).toBeUndefined();
    expect(await Promise.all(texts.map(skillHash))).toEqual(withSubtle);
    await fc.assert(
      fc.asyncProperty(anyText(), async (t) => {
        const js = await skillHash(t);
        vi.unstubAllGlobals();
        expect(await skillHash(t)).toBe(js);
        vi.stubGlobal('crypto', {});
      }),
      { numRuns: 50 },
    );
  });
});

describe('contentId', () => {
  it('is stable, 16 hex digits, and differs for different text', () => {
    expect(contentId('hello')).toMatch(/^[0-9a-f]{16}$/);
    expect(contentId('hello')).toBe(contentId('hello'));
    expect(contentId('hello')).not.toBe(contentId('hellp'));
  });
});
