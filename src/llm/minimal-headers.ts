/**
 * Minimal-headers mode (issue #11, connection doctor): the SDK adds `x-stainless-*` headers
 * (its version, runtime, retry count…) to every request. From a browser page each one must
 * be allowed by the endpoint's CORS preflight, and some proxies allow only Authorization and
 * Content-Type. This fetch leaves them out.
 */
export function withoutSdkHeaders(base: typeof fetch = globalThis.fetch.bind(globalThis)): typeof fetch {
  return (input, init) => {
    const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
    for (const name of [...headers.keys()]) if (name.startsWith('x-stainless-')) headers.delete(name);
    return base(input, { ...init, headers });
  };
}
