/**
 * The connection doctor (issue #11): when a browser cannot reach an endpoint, the SDK only
 * sees "failed to fetch". Two small probes tell the causes apart — is anything answering at
 * all (an opaque no-cors request), and does the endpoint's CORS allow this page with only the
 * basic headers — and the advice names the fix, per provider.
 */
import { isLocalEndpoint } from '../core/config/local-endpoint';

export { contextFix } from '../core/config/local-endpoint';

export type DoctorKind =
  'mixed_content' | 'anthropic_header' | 'unreachable' | 'local_unreachable' | 'cors_headers' | 'cors';

export interface DoctorFacts {
  baseURL: string;
  headers?: Record<string, string>;
  minimalHeaders?: boolean;
  /** The page's origin, e.g. https://skillwright.example (undefined outside a browser). */
  pageOrigin?: string;
  /** An opaque request got an answer: something listens there. Null when not probed. */
  reachable: boolean | null;
  /** A request with only Authorization and Content-Type passed CORS. Null when not probed. */
  basicCorsOk: boolean | null;
}

export interface DoctorAdvice {
  kind: DoctorKind;
  message: string;
}

function host(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** How to let a browser page in, per provider. */
export function corsFix(baseURL: string, pageOrigin = 'this page’s origin'): string {
  const h = host(baseURL);
  if (/:11434$/.test(h)) return `For Ollama: start it with OLLAMA_ORIGINS="${pageOrigin}" (or "*") ollama serve.`;
  if (/:1234$/.test(h)) return 'For LM Studio: turn on “Enable CORS” in the server settings.';
  if (/:8080$/.test(h))
    return `For llama.cpp: start llama-server with --cors-origins "${pageOrigin}" (its default, *, also works).`;
  if (/:8000$/.test(h)) return `For vLLM: start the server with --allowed-origins '["${pageOrigin}"]'.`;
  if (/openai\.azure\.com$/.test(h))
    return 'For Azure OpenAI: put the resource behind Azure API Management with a CORS policy that allows this page.';
  if (/\.(together\.xyz|deepseek\.com|mistral\.ai)$/.test(h))
    return 'This provider does not answer browser pages: call it through a proxy you control that adds CORS headers.';
  return 'Make it answer preflight (OPTIONS) requests with that header (or *) and allow the Authorization and Content-Type headers.';
}

/** The likeliest cause of a failed browser call, and its fix. */
export function adviseConnection(f: DoctorFacts): DoctorAdvice {
  const h = host(f.baseURL);
  const local = isLocalEndpoint(f.baseURL);
  if (
    f.pageOrigin?.startsWith('https:') &&
    f.baseURL.startsWith('http://') &&
    !/^http:\/\/(localhost|127\.0\.0\.1|\[::1\])/.test(f.baseURL)
  ) {
    return {
      kind: 'mixed_content',
      message: `${h} is called over http:// from this https:// page, so the browser blocks it (mixed content). Use an https:// URL for the endpoint.`,
    };
  }
  if (
    /(^|\.)anthropic\.com$/.test(h) &&
    !Object.keys(f.headers ?? {}).some((k) => k.toLowerCase() === 'anthropic-dangerous-direct-browser-access')
  ) {
    return {
      kind: 'anthropic_header',
      message:
        'Anthropic answers browser pages only with the header anthropic-dangerous-direct-browser-access: true. Choose the Anthropic preset, which sends it.',
    };
  }
  if (f.reachable === false) {
    return local
      ? {
          kind: 'local_unreachable',
          message: `Nothing answers at ${h}. Is the local server running on that port? If the browser asks whether this site may access devices on your local network, allow it.`,
        }
      : {
          kind: 'unreachable',
          message: `Nothing answers at ${h}: check the base URL, your connection, or a firewall.`,
        };
  }
  if (f.basicCorsOk === true && !f.minimalHeaders) {
    return {
      kind: 'cors_headers',
      message: `${h} lets this page in, but its CORS preflight refuses the extra x-stainless-* headers the OpenAI SDK sends (common with proxies). Tick “Minimal headers” under Options to leave them out.`,
    };
  }
  const page = f.pageOrigin ?? 'this page';
  return {
    kind: 'cors',
    message: `${h} answers, but does not allow requests from this page (CORS): its answers lack Access-Control-Allow-Origin for ${page}. ${corsFix(f.baseURL, f.pageOrigin)}`,
  };
}

/** Probe the endpoint from here (a browser context) and advise. */
export async function diagnoseUnreachable(
  cfg: { baseURL: string; apiKey: string; headers?: Record<string, string>; minimalHeaders?: boolean },
  fetchImpl: typeof fetch = globalThis.fetch.bind(globalThis),
  pageOrigin: string | undefined = globalThis.location?.origin,
): Promise<DoctorAdvice> {
  const url = `${cfg.baseURL.replace(/\/+$/, '')}/models`;
  const probe = async (init: RequestInit) => {
    try {
      await fetchImpl(url, { ...init, signal: AbortSignal.timeout(10_000) });
      return true;
    } catch {
      return false;
    }
  };
  const reachable = await probe({ mode: 'no-cors', credentials: 'omit' });
  const basicCorsOk = reachable
    ? await probe({ headers: { Authorization: `Bearer ${cfg.apiKey || 'no-key'}`, ...cfg.headers } })
    : null;
  return adviseConnection({
    baseURL: cfg.baseURL,
    headers: cfg.headers,
    minimalHeaders: cfg.minimalHeaders,
    pageOrigin,
    reachable,
    basicCorsOk,
  });
}

/**
 * The headers an MCP client sends and reads over Streamable HTTP (issue #31): a browser page gets
 * an answer only when the server's CORS allows them, and reads the session only when it is exposed.
 */
export const MCP_REQUEST_HEADERS = [
  'Content-Type',
  'Accept',
  'Authorization',
  'Mcp-Session-Id',
  'Mcp-Protocol-Version',
  'Last-Event-ID',
];
export const MCP_EXPOSED_HEADERS = ['Mcp-Session-Id', 'Mcp-Protocol-Version'];

/** How to let this page in, for the MCP server at `url`: the two official SDKs' ways, or a proxy. */
export function mcpCorsFix(url: string, pageOrigin = 'this page’s origin'): string {
  const allowed = MCP_REQUEST_HEADERS.map((h) => `"${h}"`).join(', ');
  return (
    `Make ${host(url)} answer this page's preflight (OPTIONS): allow the origin ${pageOrigin}, the methods GET, POST and DELETE, ` +
    `the headers ${MCP_REQUEST_HEADERS.join(', ')}, and expose ${MCP_EXPOSED_HEADERS.join(', ')}. ` +
    `TypeScript SDK (express): app.use(cors({ origin: "${pageOrigin}", allowedHeaders: [${allowed}], exposedHeaders: ["Mcp-Session-Id"] })). ` +
    `Python SDK (FastMCP, Starlette): CORSMiddleware(app, allow_origins=["${pageOrigin}"], allow_methods=["GET", "POST", "DELETE"], allow_headers=["*"], expose_headers=["Mcp-Session-Id"]). ` +
    'A server you do not run: put a proxy you control in front of it that adds these headers.'
  );
}

export interface McpDoctorFacts {
  url: string;
  pageOrigin?: string;
  /** Something answers there (an opaque request). */
  reachable: boolean;
  /** A request with MCP's headers passed CORS. */
  mcpCorsOk: boolean | null;
}

/** The likeliest cause of an MCP server a page cannot reach, and its fix. */
export function adviseMcp(f: McpDoctorFacts): DoctorAdvice {
  const h = host(f.url);
  if (f.pageOrigin?.startsWith('https:') && f.url.startsWith('http://') && !isLocalEndpoint(f.url))
    return {
      kind: 'mixed_content',
      message: `${h} is called over http:// from this https:// page, so the browser blocks it (mixed content). Use the server's https:// URL.`,
    };
  if (!f.reachable)
    return isLocalEndpoint(f.url)
      ? { kind: 'local_unreachable', message: `Nothing answers at ${h}. Is the MCP server running on that port?` }
      : { kind: 'unreachable', message: `Nothing answers at ${h}: check the URL, your connection, or a firewall.` };
  if (f.mcpCorsOk)
    return {
      kind: 'cors_headers',
      message: `${h} lets this page send MCP's headers, but not every request an MCP client makes (GET for its event stream, DELETE to end a session, the Authorization header) or does not expose Mcp-Session-Id. ${mcpCorsFix(f.url, f.pageOrigin)}`,
    };
  return {
    kind: 'cors',
    message: `${h} answers, but its CORS does not let this page call it with MCP's headers. ${mcpCorsFix(f.url, f.pageOrigin)}`,
  };
}

/** Probe an MCP server from here (a browser context) and advise. */
export async function diagnoseMcp(
  url: string,
  extra: Record<string, string> = {},
  fetchImpl: typeof fetch = globalThis.fetch.bind(globalThis),
  pageOrigin: string | undefined = globalThis.location?.origin,
): Promise<DoctorAdvice> {
  const probe = async (init: RequestInit) => {
    try {
      await fetchImpl(url, { ...init, signal: AbortSignal.timeout(10_000) });
      return true;
    } catch {
      return false;
    }
  };
  const reachable = await probe({ mode: 'no-cors', credentials: 'omit' });
  // A ping with the headers every MCP request carries after the handshake: its preflight is the test.
  const headers = {
    ...extra,
    'Content-Type': 'application/json',
    Accept: 'application/json, text/event-stream',
    'Mcp-Protocol-Version': '2025-06-18',
  };
  const mcpCorsOk = reachable
    ? await probe({ method: 'POST', headers, body: '{"jsonrpc":"2.0","id":0,"method":"ping"}' })
    : null;
  return adviseMcp({ url, pageOrigin, reachable, mcpCorsOk });
}
