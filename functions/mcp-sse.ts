import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { connectMcp, createMcpServer } from '../src/mcp/server.ts';
import type { Host, RequestContext } from './context.ts';
import { json, readJson } from './http.ts';
import { refuseOrigin } from './mcp-origin.ts';
import type { Route } from './route.ts';
import { eventStream } from './sse.ts';

/**
 * MCP's legacy HTTP+SSE transport (protocol 2024-11-05), for older clients: GET /mcp/sse opens
 * a stream whose first event, `endpoint`, names where to POST messages; answers come back on
 * the stream as `message` events. The SDK ships this only for Node's http objects, so this is
 * the same protocol over Web streams. Sessions live in the host's session table, one server each.
 */
export const MAX_SSE_SESSIONS = 200;

/** Sessions each client holds on this worker, so one client cannot take them all. */
const heldBy = new WeakMap<Host['mcpSessions'], Map<string, number>>();
function clientSessions(host: Host, client: string) {
  let counts = heldBy.get(host.mcpSessions);
  if (!counts) heldBy.set(host.mcpSessions, (counts = new Map()));
  return {
    count: () => counts.get(client) ?? 0,
    opened: () => void counts.set(client, (counts.get(client) ?? 0) + 1),
    closed() {
      const left = (counts.get(client) ?? 1) - 1;
      if (left > 0) counts.set(client, left);
      else counts.delete(client);
    },
  };
}

class StreamTransport implements Transport {
  sessionId: string;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private readonly write: (event: string, data: string) => Promise<void>;
  constructor(sessionId: string, write: (event: string, data: string) => Promise<void>) {
    this.sessionId = sessionId;
    this.write = write;
  }
  async start(): Promise<void> {}
  async send(message: JSONRPCMessage): Promise<void> {
    await this.write('message', JSON.stringify(message));
  }
  async close(): Promise<void> {
    this.onclose?.();
  }
}

function openSession(ctx: RequestContext): Response {
  const refused = refuseOrigin(ctx);
  if (refused) return refused;
  const sessions = ctx.host.mcpSessions;
  const { perClient, idleSeconds } = ctx.host.mcpSessionLimits;
  const mine = clientSessions(ctx.host, ctx.client ?? 'unknown');
  if (mine.count() >= perClient) return json({ error: `Too many open MCP SSE sessions for this client (limit ${perClient}); close one, or use streamable HTTP at POST /mcp.` }, 429, { 'retry-after': '30' });
  if (sessions.held() >= MAX_SSE_SESSIONS) return json({ error: `Too many open MCP SSE sessions (limit ${MAX_SSE_SESSIONS}); use streamable HTTP at POST /mcp.` }, 503, { 'retry-after': '30' });
  const id = crypto.randomUUID();
  mine.opened();
  return eventStream(ctx.request, ctx.host.streams, async ({ write, signal }) => {
    const transport = new StreamTransport(id, write);
    const server = createMcpServer(ctx.root.core, ctx.host.version);
    let idle: ReturnType<typeof setTimeout> | undefined;
    try {
      await connectMcp(server, transport);
      // Open until the client leaves or sends nothing for idleSeconds; a ping every 15 s keeps
      // proxies from closing it (pings are not activity).
      await new Promise<void>((resolve) => {
        const end = () => (clearInterval(ping), clearTimeout(idle), resolve());
        const active = () => {
          clearTimeout(idle);
          idle = setTimeout(end, idleSeconds * 1000);
        };
        const ping = setInterval(() => void write('ping', '{}').catch(() => {}), 15_000);
        signal.addEventListener('abort', end, { once: true });
        active();
        void (async () => {
          await sessions.open(id, { deliver: (message) => (active(), transport.onmessage?.(message)) });
          await write('endpoint', `${ctx.root.base}/mcp/messages?sessionId=${id}`);
        })().catch(end);
      });
    } finally {
      mine.closed();
      sessions.close(id);
      await server.close();
    }
  });
}

async function postMessage(ctx: RequestContext): Promise<Response> {
  const body = await readJson(ctx.request);
  const parsed = body && JSONRPCMessageSchema.safeParse(body.value);
  const unknown = () => json({ error: 'Unknown or closed MCP session: open one with GET /mcp/sse.' }, 404);
  const id = ctx.url.searchParams.get('sessionId') ?? '';
  let held: boolean;
  try {
    // A session nobody holds is a 404 whatever the body.
    held = await ctx.host.mcpSessions.deliver(id, parsed?.success ? parsed.data : undefined);
  } catch {
    return json({ error: 'MCP sessions are unavailable: their shared store cannot be reached. Retry shortly, or use streamable HTTP at POST /mcp.' }, 503, { 'retry-after': '5' });
  }
  if (!held) return unknown();
  if (!parsed?.success) return json({ jsonrpc: '2.0', error: { code: -32700, message: 'Parse error: the body must be one JSON-RPC message.' }, id: null }, 400);
  return new Response('Accepted', { status: 202, headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' } });
}

export const legacySseRoutes: Route[] = [
  { path: '/mcp/sse', summary: 'MCP legacy HTTP+SSE transport: the event stream (first event: endpoint)', handler: openSession },
  { method: 'POST', path: '/mcp/messages', summary: 'MCP legacy HTTP+SSE transport: post a JSON-RPC message (?sessionId=)', handler: postMessage },
];
