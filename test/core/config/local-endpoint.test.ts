import { describe, expect, it } from 'vitest';
import { isLocalEndpoint } from '../../../src/core/config/local-endpoint';

describe('isLocalEndpoint', () => {
  it.each([
    ['http://localhost:11434/v1', true],
    ['http://127.0.0.1:8080/v1', true],
    ['http://[::1]:8080/v1', true],
    ['http://0.0.0.0:8000/v1', true],
    ['http://192.168.1.20:1234/v1', true],
    ['http://172.20.0.5:8000/v1', true],
    ['http://gpu-box.local:8080/v1', true],
    ['https://api.openai.com/v1', false],
    ['http://172.40.0.5/v1', false],
    ['not a url', false],
  ])('%s → %s', (url, local) => {
    expect(isLocalEndpoint(url)).toBe(local);
  });
});
