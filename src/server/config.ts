import { availableParallelism } from 'node:os';
import { readContactConfig, type ContactConfig } from '../contact/config.ts';

/** Every runtime setting, read once from the environment (documented in README.md). */
export interface ServerConfig {
  /** Redis or Valkey for state shared by separate processes and machines (REDIS_URL). */
  redisUrl: string | undefined;
  /** Worker threads sharing the port and their state (WORKERS, default one per core). */
  workers: number;
  port: number;
  host: string | undefined;
  rateLimit: number;
  rateWindowSeconds: number;
  trustProxy: boolean;
  bodyLimit: number;
  distRoot: string;
  /** Key for event signatures; a random one per start when unset. */
  signingSecret: string | undefined;
  /** Browser origins allowed to use MCP besides the site and loopback. */
  mcpAllowedOrigins: string[];
  /** Serve published answers before the functions (FAST_PATH=0 answers every function path by code, for checks). */
  fastPath: boolean;
  /** Bytes of published files kept in memory (FILE_CACHE_MB, default 256). */
  fileCacheBytes: number;
  /** Bytes of computed answers kept for repeated queries (ANSWER_CACHE_MB, default 64; 0 turns it off). */
  answerCacheBytes: number;
  /** Paid contact for each root (CONTACT_*, SANDBOX_CONTACT_*). */
  contact: ContactConfig;
}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be an integer >= ${min}, got "${raw}"`);
  return value;
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  return {
    redisUrl: env.REDIS_URL || undefined,
    workers: int(env, 'WORKERS', availableParallelism(), 1),
    port: int(env, 'PORT', 4321, 0),
    host: env.HOST || undefined,
    rateLimit: int(env, 'RATE_LIMIT', 1000, 0),
    rateWindowSeconds: int(env, 'RATE_LIMIT_WINDOW', 60, 1),
    trustProxy: env.TRUST_PROXY === '1' || env.TRUST_PROXY === 'true',
    bodyLimit: int(env, 'BODY_LIMIT', 64 * 1024, 1),
    distRoot: env.FOLIO_DIST_ROOT ?? process.cwd(),
    signingSecret: env.EVENT_SIGNING_SECRET || undefined,
    mcpAllowedOrigins: (env.MCP_ALLOWED_ORIGINS ?? '').split(',').map((o) => o.trim()).filter(Boolean),
    fastPath: env.FAST_PATH !== '0' && env.FAST_PATH !== 'false',
    fileCacheBytes: int(env, 'FILE_CACHE_MB', 256, 0) * 1024 * 1024,
    answerCacheBytes: int(env, 'ANSWER_CACHE_MB', 64, 0) * 1024 * 1024,
    contact: readContactConfig(env),
  };
}
