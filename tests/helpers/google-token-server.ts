import { verify, type KeyObject } from 'node:crypto';
import { startJsonServer, type Answer, type ProtocolServer } from './protocol-server.ts';

/**
 * Google's OAuth 2.0 token endpoint for service accounts on 127.0.0.1: the JWT bearer grant of
 * RFC 7523 as Google documents it. `POST /token` with a form body `grant_type=urn:ietf:params:
 * oauth:grant-type:jwt-bearer&assertion=<JWT>`; the JWT is signed RS256 with the service
 * account's private key (checked here with its public key), `iss` the account's email, `aud` this
 * endpoint, `scope` the scopes asked for, `iat` now and `exp` at most an hour later. Answers
 * `{access_token, expires_in, token_type: 'Bearer'}`, or 400 `{error, error_description}` (RFC 6749 5.2).
 */
export interface TokenServer extends ProtocolServer {
  /** The token endpoint: a key file's `token_uri`. */
  tokenUri: string;
  /** The claims of every assertion accepted. */
  grants: Record<string, unknown>[];
}

const GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
const refuse = (error: string, description: string): Answer => ({ status: 400, body: { error, error_description: description } });
const decode = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>;

export async function startGoogleTokenServer(options: { clientEmail: string; publicKey: KeyObject; scope: string; accessToken: string }): Promise<TokenServer> {
  const grants: Record<string, unknown>[] = [];
  let tokenUri = '';
  const server = await startJsonServer((req) => {
    if (req.method !== 'POST' || req.path !== '/token') return { status: 404, body: { error: 'not_found' } };
    if (!/^application\/x-www-form-urlencoded/i.test(req.headers['content-type'] ?? '')) return refuse('invalid_request', 'Content-Type must be application/x-www-form-urlencoded');
    const form = new URLSearchParams(String(req.body));
    if (form.get('grant_type') !== GRANT) return refuse('unsupported_grant_type', `Invalid grant_type: ${form.get('grant_type') ?? ''}`);
    const parts = (form.get('assertion') ?? '').split('.');
    if (parts.length !== 3) return refuse('invalid_request', 'Invalid JWT: Token must be a short-lived token and in a reasonable timeframe');
    let header: Record<string, unknown>;
    let claims: Record<string, unknown>;
    try {
      [header, claims] = [decode(parts[0]!), decode(parts[1]!)];
    } catch {
      return refuse('invalid_request', 'Invalid JWT: not base64url JSON');
    }
    if (header.alg !== 'RS256') return refuse('invalid_grant', `Invalid JWT: alg ${String(header.alg)}, not RS256`);
    if (!verify('RSA-SHA256', Buffer.from(`${parts[0]}.${parts[1]}`), options.publicKey, Buffer.from(parts[2]!, 'base64url'))) return refuse('invalid_grant', 'Invalid JWT Signature.');
    if (claims.iss !== options.clientEmail) return refuse('invalid_grant', 'Invalid email or User ID');
    if (claims.aud !== tokenUri) return refuse('invalid_grant', `Invalid JWT: aud must be ${tokenUri}`);
    const now = Math.floor(Date.now() / 1000);
    const [iat, exp] = [Number(claims.iat), Number(claims.exp)];
    if (!(iat <= now + 60 && exp > now && exp - iat <= 3600)) return refuse('invalid_grant', 'Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. Check your iat and exp values in the JWT claim.');
    if (!String(claims.scope ?? '').split(' ').includes(options.scope)) return refuse('invalid_scope', `Invalid OAuth scope or ID token audience provided: ${String(claims.scope)}`);
    grants.push(claims);
    return { status: 200, body: { access_token: options.accessToken, expires_in: 3599, token_type: 'Bearer' } };
  });
  tokenUri = `${server.url}/token`;
  return { ...server, tokenUri, grants };
}
