// Text from outside made safe for a terminal (issue #28 LOW): no escape sequence survives.
import { describe, expect, it } from 'vitest';
import { printable } from '../../../src/core/basics/printable';

describe('printable', () => {
  it('drops every control character but line breaks and tabs', () => {
    expect(printable('a\u001b[2Jb\u001b]0;title\u0007c\r\nd\te\u009bf\u007fg')).toBe('a[2Jb]0;titlec\nd\tefg');
    expect(printable('Ünïcödé — “quotes” ✓')).toBe('Ünïcödé — “quotes” ✓');
  });
});
