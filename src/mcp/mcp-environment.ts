/**
 * MCP servers as an agent's environment (issue #31): a `ToolEnvironment` over one or more
 * servers. Connecting lists each server's tools (and resources, offered as `read_resource`);
 * each trajectory gets its own session with every server it calls (opened at its first call,
 * ended with the episode), so a server's per-session state starts fresh as a module's `reset`
 * does. Tool calls have their own concurrency and time limit: a tool call is not a model call.
 *
 * Resume: `replayOnResume` is false — a server's tools may have side effects, so a trajectory
 * resumed from its checkpoint does not call again what it already called: the recorded results
 * stand, and the calls still to come go to a fresh session. What a server keeps outside its
 * sessions (a real database) is changed for real, once per call the agent makes.
 */
import { CallSlots } from '../core/basics/call-slots';
import { contentId } from '../core/basics/hash';
import { offeredTools, type McpToolInfo, type OfferedTool } from '../core/agent/mcp-servers';
import type { ToolSpec } from '../core/agent/tool-spec';
import { EnvironmentError, type EnvEpisode, type ToolEnvironment, type ToolOutcome } from '../engine/environment';
import { McpSession, type McpResourceInfo, type ServerLink, type SessionOptions } from './mcp-session';
import { READ_RESOURCE, readResourceTool } from './read-resource';

export interface McpEnvironmentOptions extends SessionOptions {
  /** Requests under way at once, over every trajectory (a tool call is not a model call). */
  concurrency: number;
}

/** What connecting found on one server. */
export interface McpServerFacts {
  name: string;
  url: string;
  serverInfo?: { name: string; version: string };
  tools: McpToolInfo[];
  resources: McpResourceInfo[];
}

export interface McpEnvironment extends ToolEnvironment {
  readonly servers: readonly McpServerFacts[];
  /** The tools the agent is offered, with their servers. */
  readonly offered: readonly OfferedTool[];
  /** What a person should know of the offer (a server's tools beyond the first 64 not offered). */
  readonly notes: readonly string[];
}

/** Names the engine offers itself, which a server's tool must not shadow. */
const RESERVED = ['read_file'];

export async function connectMcpEnvironment(
  links: readonly ServerLink[],
  o: McpEnvironmentOptions,
): Promise<McpEnvironment> {
  if (!links.length) throw new EnvironmentError('no MCP server is configured');
  const servers = await Promise.all(links.map((l) => describeServer(l, o)));
  const { tools, problems, notes } = offeredTools(
    servers.map((s, i) => ({ server: s.name, allowed: links[i].config.tools, tools: s.tools })),
    RESERVED,
  );
  if (problems.length) throw new EnvironmentError(`${problems.join('; ')} (check the server's "tools" list)`);
  const resources = servers.flatMap((s) => s.resources.map((r) => ({ ...r, server: s.name })));
  const resourceTool = resources.length
    ? readResourceTool(resources, [...RESERVED, ...tools.map((t) => t.spec.name)])
    : null;
  const specs: ToolSpec[] = [...tools.map((t) => t.spec), ...(resourceTool ? [resourceTool] : [])];
  if (!specs.length)
    throw new EnvironmentError(
      `the MCP servers (${links.map((l) => l.name).join(', ')}) offer no tools the agent may use`,
    );
  const byName = new Map(tools.map((t) => [t.spec.name, t]));
  const linkOf = new Map(links.map((l) => [l.name, l]));
  const slots = new CallSlots(o.concurrency);
  const label = `MCP ${links.length === 1 ? 'server' : 'servers'} ${links.map((l) => l.name).join(', ')}`;

  return {
    label,
    identity: `mcp:${contentId(JSON.stringify(links.map((l) => [l.name, l.config.url, l.config.tools ?? null])))}`,
    replayOnResume: false,
    servers,
    offered: tools,
    notes,
    tools: async () => specs,
    async open(): Promise<EnvEpisode> {
      const sessions = new Map<string, Promise<McpSession>>();
      const sessionOf = (server: string) => {
        let s = sessions.get(server);
        if (!s) {
          s = McpSession.open(linkOf.get(server)!, o);
          sessions.set(server, s);
        }
        return s;
      };
      const callOn = (server: string, fn: (s: McpSession) => Promise<ToolOutcome>) =>
        slots.run(async () => fn(await sessionOf(server)));
      return {
        call(name, args) {
          const tool = byName.get(name);
          if (tool) return callOn(tool.server, (s) => s.call(tool.remote, args));
          if (resourceTool && name === resourceTool.name) {
            const uri = typeof args.uri === 'string' ? args.uri : '';
            const server = resources.find((r) => r.uri === uri)?.server;
            if (!server)
              return Promise.resolve({
                result: `Error: no resource ${JSON.stringify(uri)}; ${READ_RESOURCE.hint}`,
                error: true as const,
              });
            return callOn(server, (s) => s.readResource(uri));
          }
          return Promise.resolve({ result: `Error: unknown tool ${name}`, error: true as const });
        },
        async close() {
          const open = [...sessions.values()];
          sessions.clear();
          await Promise.all(open.map((p) => p.then((s) => s.close()).catch(() => undefined)));
        },
      };
    },
  };
}

/** Connect once to read what a server offers, then end that session. */
export async function describeServer(link: ServerLink, o: SessionOptions): Promise<McpServerFacts> {
  const session = await McpSession.open(link, o);
  try {
    const tools = session.hasTools ? await session.listTools() : [];
    const resources = session.hasResources ? await session.listResources() : [];
    return {
      name: link.name,
      url: link.config.url,
      ...(session.serverInfo ? { serverInfo: session.serverInfo } : {}),
      tools,
      resources,
    };
  } finally {
    await session.close();
  }
}
