/** The app's settings, read the same way from Node's environment and from a Worker's vars. */
export type Vars = Readonly<Record<string, unknown>>;

import { plainAddress, type TrustProxy } from './policies/rate-limit.ts';
import { ARTEFACT_CACHE_MB } from '../artefact/storage.ts';

/** A setting as text ('' when unset; a Worker's env also holds bindings, which are not settings). */
const text = (env: Vars, name: string) => (typeof env[name] === 'string' ? env[name] : '');

export function int(env: Vars, name: string, fallback: number, min: number): number {
  const raw = text(env, name);
  if (raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be an integer >= ${min}, got "${raw}"`);
  return value;
}

export interface AppSettings {
  rateLimit: number;
  rateWindowSeconds: number;
  /** Count clients by X-Forwarded-For, read from the right past the trusted proxies (TRUST_PROXY). */
  trustProxy: TrustProxy;
  bodyLimit: number;
  /** Legacy MCP SSE sessions per client (MCP_SSE_SESSIONS_PER_CLIENT) and idle limit (MCP_SSE_IDLE_SECONDS). */
  mcpSessionLimits: { perClient: number; idleSeconds: number };
  /** Browser origins allowed to use MCP besides the site and loopback. */
  mcpAllowedOrigins: string[];
  /** Bytes of computed answers kept for repeated queries (ANSWER_CACHE_MB, default 64; 0 turns it off). */
  answerCacheBytes: number;
  /** Bytes of the artefact a function, worker or server keeps of what it read (ARTEFACT_CACHE_MB, default 128; src/artefact/storage.ts): on Node, the search indexes' parts. */
  artefactCacheBytes: number;
}

export function appSettings(env: Vars): AppSettings {
  return {
    rateLimit: int(env, 'RATE_LIMIT', 1000, 0),
    rateWindowSeconds: int(env, 'RATE_LIMIT_WINDOW', 60, 1),
    trustProxy: trustProxy(text(env, 'TRUST_PROXY')),
    bodyLimit: int(env, 'BODY_LIMIT', 64 * 1024, 1),
    mcpSessionLimits: { perClient: int(env, 'MCP_SSE_SESSIONS_PER_CLIENT', 8, 1), idleSeconds: int(env, 'MCP_SSE_IDLE_SECONDS', 300, 1) },
    mcpAllowedOrigins: text(env, 'MCP_ALLOWED_ORIGINS').split(',').map((o) => o.trim()).filter(Boolean),
    answerCacheBytes: int(env, 'ANSWER_CACHE_MB', 64, 0) * 1024 * 1024,
    artefactCacheBytes: int(env, 'ARTEFACT_CACHE_MB', ARTEFACT_CACHE_MB, 0) * 1024 * 1024,
  };
}

const IP = /^(\d{1,3}(\.\d{1,3}){3}|[0-9a-f:]*:[0-9a-f:.]*)$/i;

/**
 * TRUST_PROXY: off (unset, 0, false); a number of trusted proxy hops (true is 1); or the trusted
 * proxies' addresses, comma-separated.
 */
export function trustProxy(raw: string): TrustProxy {
  const value = raw.trim().toLowerCase();
  if (value === '' || value === '0' || value === 'false') return undefined;
  if (value === 'true') return { hops: 1 };
  if (/^\d+$/.test(value)) return { hops: Number(value) };
  const proxies = value.split(',').map((a) => a.trim()).filter(Boolean);
  const bad = proxies.find((a) => !IP.test(a));
  if (bad !== undefined) throw new Error(`TRUST_PROXY must be off, a number of proxy hops or a comma-separated list of proxy addresses, got "${raw}" ("${bad}" is not an IP address)`);
  return { proxies: new Set(proxies.map(plainAddress)) };
}
