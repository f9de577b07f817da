/** CORS for a public read API: every response, errors and static files included. */
export const ALLOW_METHODS = 'GET, HEAD, POST, OPTIONS';
export const ALLOW_HEADERS = 'Content-Type, Accept, Authorization, PAYMENT-SIGNATURE, Mcp-Session-Id, MCP-Protocol-Version, Last-Event-ID';
export const EXPOSE_HEADERS = 'X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, PAYMENT-REQUIRED, PAYMENT-RESPONSE, Mcp-Session-Id';

export const CORS_HEADERS: Record<string, string> = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': EXPOSE_HEADERS,
};

export function preflight(): Response {
  return new Response(null, {
    status: 204,
    headers: {
      'access-control-allow-methods': ALLOW_METHODS,
      'access-control-allow-headers': ALLOW_HEADERS,
      'access-control-max-age': '86400',
    },
  });
}
