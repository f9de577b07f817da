import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { createMcpServer } from '../src/mcp/server.ts';
import type { RequestContext } from './context.ts';
import { json, readJson } from './http.ts';
import { refuseOrigin } from './mcp-origin.ts';
import type { Route } from './routes.ts';
import { eventStream } from './sse.ts';

/**
 * MCP's legacy HTTP+SSE transport (protocol 2024-11-05), for older clients: GET /mcp/sse opens
 * a stream whose first event, `endpoint`, names where to POST messages; answers come back on
 * the stream as `message` events. The SDK ships this only for Node's http objects, so this is
 * the same protocol over Web streams. Sessions live in the host's session table, one server each.
 */
export const MAX_SSE_SESSIONS = 200;


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
  if (sessions.held() >= MAX_SSE_SESSIONS) return json({ error: `Too many open MCP SSE sessions (limit ${MAX_SSE_SESSIONS}); use streamable HTTP at POST /mcp.` }, 503, { 'retry-after': '30' });
  const id = crypto.randomUUID();
  return eventStream(ctx.request, ctx.host.streams, async ({ write, signal }) => {
    const transport = new StreamTransport(id, write);
    const server = createMcpServer(ctx.root.core, ctx.host.version);
    await server.connect(transport);
    try {
      await sessions.open(id, { deliver: (message) => transport.onmessage?.(message) });
      await write('endpoint', `${ctx.root.base}/mcp/messages?sessionId=${id}`);
      // Open until the client leaves; a comment every 15 s keeps proxies from closing it.
      await new Promise<void>((resolve) => {
        const ping = setInterval(() => void write('ping', '{}').catch(() => {}), 15_000);
        signal.addEventListener('abort', () => (clearInterval(ping), resolve()), { once: true });
      });
    } finally {
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
