import type { RequestContext } from './context.ts';

/** JSON-RPC errors outside any request (transport level), as the MCP SDK words them. */
export const jsonRpcError = (status: number, code: number, message: string) =>
  new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
  });

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The SDK's security notes: validate Origin so a web page cannot drive a local server through
 * DNS rebinding. Requests without Origin (programs) pass; browsers must come from the site
 * itself, a loopback origin, or one listed in MCP_ALLOWED_ORIGINS.
 */
export function refuseOrigin(ctx: RequestContext): Response | undefined {
  const origin = ctx.request.headers.get('origin');
  if (origin === null) return undefined;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return jsonRpcError(403, -32000, `Origin "${origin}" is not allowed.`);
  }
  const allowed = ctx.host.mcpAllowedOrigins;
  const site = new URL(ctx.root.core.catalog.site_url).origin;
  if (url.origin === site || LOOPBACK.has(url.hostname) || allowed.includes('*') || allowed.includes(url.origin)) return undefined;
  return jsonRpcError(403, -32000, `Origin "${origin}" is not allowed to use this MCP server (set MCP_ALLOWED_ORIGINS).`);
}

