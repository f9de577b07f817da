/**
 * Reads are anonymous; a bearer token can only be a mistake, so it gets 401 with the remedy
 * (omit the header) and the protected-resource metadata, on every path.
 */
export function rejectBearer(authorization: string | null, siteUrl: string): Response | undefined {
  if (!authorization || !/^bearer(\s|$)/i.test(authorization.trim())) return undefined;
  return new Response(
    JSON.stringify({ error: 'Invalid token: this API is public and takes no bearer token. Omit the Authorization header.' }),
    {
      status: 401,
      headers: {
        'content-type': 'application/json; charset=utf-8',
        'cache-control': 'no-store',
        'www-authenticate': `Bearer error="invalid_token", resource_metadata="${siteUrl}/.well-known/oauth-protected-resource"`,
      },
    },
  );
}
