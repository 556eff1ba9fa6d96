// The page environment modules run in (issue #39): public/module-sandbox.html allows its own
// script by hash and blobs made inside it, no network and no other source; the script does
// anything only when framed as a sandbox (an opaque origin), and only for the page that framed it.
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';

const html = readFileSync(new URL('../../public/module-sandbox.html', import.meta.url), 'utf8');
const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
const csp = html.match(/http-equiv="Content-Security-Policy"\s+content="([^"]+)"/)?.[1] ?? '';
const directives = Object.fromEntries(
  csp
    .split(';')
    .map((d) => d.trim().split(/\s+/))
    .map(([name, ...values]) => [name, values]),
);

describe('the module sandbox page', () => {
  it('allows its one inline script by its hash', () => {
    expect(scripts).toHaveLength(1);
    const hash = createHash('sha256').update(scripts[0]).digest('base64');
    expect(directives['script-src']).toContain(`'sha256-${hash}'`);
    expect(html).not.toMatch(/<script[^>]*\ssrc=/);
  });

  it('gives a module no network and no source but blobs made inside it', () => {
    expect(directives['default-src']).toEqual(["'none'"]);
    expect(directives['connect-src']).toBeUndefined(); // so default-src 'none' holds for fetch and sockets
    expect(directives['script-src'].filter((s) => !s.startsWith("'sha256-"))).toEqual([
      'blob:',
      "'unsafe-eval'",
      "'wasm-unsafe-eval'",
    ]);
    expect(directives['worker-src']).toEqual(['blob:']);
  });

  it('acts only as a sandbox, on one message from the page that framed it', () => {
    expect(scripts[0]).toMatch(/if \(self\.origin === 'null' && parent !== self\)/);
    expect(scripts[0]).toMatch(/if \(e\.source !== parent \|\|/);
    expect(scripts[0]).toMatch(/removeEventListener\('message', start\)/);
  });
});
