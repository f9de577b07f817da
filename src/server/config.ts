import { availableParallelism } from 'node:os';
import { readContactConfig, type ContactConfig } from '../contact/config.ts';
import { appSettings, int, type AppSettings } from '../app/settings.ts';
import { MIN_SEND_RATE_DEFAULT } from '../core/limits.ts';

/** Every runtime setting, read once from the environment (documented in docs/configuration.md). */
export interface ServerConfig extends AppSettings {
  /** Redis or Valkey for state shared by separate processes and machines (REDIS_URL). */
  redisUrl: string | undefined;
  /** Worker threads sharing the port and their state (WORKERS, default one per core). */
  workers: number;
  port: number;
  host: string | undefined;
  distRoot: string;
  /** Key for event signatures; a random one per start when unset. */
  signingSecret: string | undefined;
  /** Serve published answers before the functions (FAST_PATH=0 answers every function path by code, for checks). */
  fastPath: boolean;
  /** Bytes of published files kept in memory (FILE_CACHE_MB, default 256). */
  fileCacheBytes: number;
  /** A connection whose answer the client takes none of for this long is dropped (WRITE_TIMEOUT_SECONDS, default 30). */
  writeTimeoutMs: number;
  /** Every answer of known size must be taken at this many bytes a second, after WRITE_TIMEOUT_SECONDS (MIN_SEND_RATE, default 1024). */
  minSendRate: number;
  /** Paid contact for each root (CONTACT_*, SANDBOX_CONTACT_*). */
  contact: ContactConfig;
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  return {
    ...appSettings(env),
    redisUrl: env.REDIS_URL || undefined,
    workers: int(env, 'WORKERS', availableParallelism(), 1),
    port: int(env, 'PORT', 4321, 0),
    host: env.HOST || undefined,
    distRoot: env.FOLIO_DIST_ROOT ?? process.cwd(),
    signingSecret: env.EVENT_SIGNING_SECRET || undefined,
    fastPath: env.FAST_PATH !== '0' && env.FAST_PATH !== 'false',
    fileCacheBytes: int(env, 'FILE_CACHE_MB', 256, 0) * 1024 * 1024,
    writeTimeoutMs: int(env, 'WRITE_TIMEOUT_SECONDS', 30, 1) * 1000,
    minSendRate: int(env, 'MIN_SEND_RATE', MIN_SEND_RATE_DEFAULT, 1),
    contact: readContactConfig(env),
  };
}
