/**
 * Header names that carry credentials (authorization, cookies, anything named a key, token,
 * secret, password or session): never stored with a run or exported — dropped from an endpoint's
 * stored headers, refused in a config, in an MCP server's settings and in a bundle (issue #39 M6).
 */
const SECRET_HEADER = /authorization|cookie|api[-_]?key|token|secret|password|session/i;

export function isSecretHeader(name: string): boolean {
  return SECRET_HEADER.test(name);
}
