import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { connectMcp, createMcpServer } from '../src/mcp/server.ts';
import type { RequestContext } from './context.ts';
import { jsonRpcError, refuseOrigin } from './mcp-origin.ts';
import { legacySseRoutes } from './mcp-sse.ts';
import type { Route } from './route.ts';
import { MCP_BATCH_MAX } from '../src/core/limits.ts';
import { json } from './http.ts';

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

/**
 * A JSON-RPC batch: empty or over MCP_BATCH_MAX is an invalid request (JSON-RPC answers it, not
 * silence, and charges only the POST); otherwise each message in it is charged against the rate
 * limit like a batch sub-request (the POST itself was).
 */
async function refuseBatch(ctx: RequestContext, body: string): Promise<Response | undefined> {
  let messages: unknown;
  try {
    messages = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (!Array.isArray(messages)) return undefined;
  if (messages.length === 0) return jsonRpcError(400, -32600, 'Invalid Request: an empty batch.');
  if (messages.length > MCP_BATCH_MAX) return jsonRpcError(400, -32600, `Invalid Request: a batch holds at most ${MCP_BATCH_MAX} messages; this one has ${messages.length}.`);
  if (ctx.charge && !(await ctx.charge(messages.length))) return json({ error: `Rate limit exceeded: this batch of ${messages.length} messages was not run (each counts as a request).` }, 429);
  return undefined;
}

async function handleMcp(ctx: RequestContext): Promise<Response> {
  const body = await ctx.request.text();
  const refused = refuseOrigin(ctx) ?? (await refuseBatch(ctx, body));
  if (refused) return refused;
  const server = createMcpServer(ctx.root.core, ctx.host.version);
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  await connectMcp(server, transport);
  try {
    const response = await transport.handleRequest(normalised(ctx.request, body));
    const answer = await response.text();
    const headers = new Headers(response.headers);
    headers.set('cache-control', 'no-store');
    return new Response(answer || null, { status: response.status, headers });
  } finally {
    await server.close();
  }
}

export const mcpRoutes: Route[] = [
  { method: 'POST', path: '/mcp', summary: 'MCP streamable HTTP (stateless JSON-RPC): initialize, tools/list, tools/call, resources/*', handler: handleMcp },
  ...legacySseRoutes,
];
