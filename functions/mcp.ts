import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { createMcpServer } from '../src/mcp/server.ts';
import type { RequestContext } from './context.ts';
import { refuseOrigin } from './mcp-origin.ts';
import { legacySseRoutes } from './mcp-sse.ts';
import type { Route } from './routes.ts';

/**
 * MCP over streamable HTTP, stateless: each POST gets a fresh server and transport (nothing to
 * share between requests, so any instance can answer), JSON responses, no session id. GET and
 * DELETE on /mcp are answered 405 by the route table, as the spec asks of a stateless server.
 */
/** Clients that send only `application/json` (or nothing) still get an answer: we reply in JSON anyway. */
function normalised(request: Request, body: string): Request {
  const headers = new Headers(request.headers);
  headers.set('accept', 'application/json, text/event-stream');
  if (!headers.get('content-type')?.includes('application/json')) headers.set('content-type', 'application/json');
  return new Request(request.url, { method: 'POST', headers, body, signal: request.signal });
}

async function handleMcp(ctx: RequestContext): Promise<Response> {
  const refused = refuseOrigin(ctx);
  if (refused) return refused;
  const server = createMcpServer(ctx.root.core, ctx.host.version);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await server.connect(transport);
  try {
    const response = await transport.handleRequest(normalised(ctx.request, await ctx.request.text()));
    const body = await response.text();
    const headers = new Headers(response.headers);
    headers.set('cache-control', 'no-store');
    return new Response(body || null, { status: response.status, headers });
  } finally {
    await server.close();
  }
}

export const mcpRoutes: Route[] = [
  { method: 'POST', path: '/mcp', summary: 'MCP streamable HTTP (stateless JSON-RPC): initialize, tools/list, tools/call, resources/*', handler: handleMcp },
  ...legacySseRoutes,
];
