import type { ContactService } from '../src/contact/service.ts';
import type { Core } from '../src/core/index.ts';
import type { StreamCounter } from './sse.ts';
import type { SessionBus } from '../src/state/session-bus.ts';
import type { StoreHealth } from '../src/state/store-circuit.ts';

/** What a function sees: the content root it serves, and the host's capabilities. */
export interface Root {
  name: 'main' | 'sandbox';
  /** '' or '/sandbox' */
  base: string;
  core: Core;
  /**
   * Key for event signatures (the sandbox's is published); absent when the host was given none and
   * cannot make one its instances share: its streams then answer 503, and nothing else changes.
   */
  signingSecret: string | undefined;
  /** The key is public (documented), so the guides may print it. */
  signingKeyPublished: boolean;
  /** Paid contact; absent when switched off or not configured (the endpoint answers 503). */
  contact?: ContactService;
}

/** The host's static files (Cloudflare's ASSETS binding, a local folder...). */
export interface Assets {
  fetch(path: string, request: Request): Promise<Response | undefined>;
}

export interface Host {
  roots: Root[];
  assets: Assets;
  hostname: string;
  version: string;
  /** Which worker thread this is, of how many serving the port. */
  worker: { index: number; count: number };
  /** Open event streams, so a disconnect can be seen to free the server. */
  streams: StreamCounter;
  /** The shared store's circuit (REDIS_URL): named in `/status`. */
  store?: () => StoreHealth;
  /** Open MCP legacy SSE sessions, wherever a worker holds them. */
  mcpSessions: SessionBus;
  /** Legacy MCP SSE sessions one client may hold on a worker, and how long one may stay silent. */
  mcpSessionLimits: { perClient: number; idleSeconds: number };
  /** Browser origins allowed to use MCP besides the site and loopback ('*' for any). */
  mcpAllowedOrigins: string[];
  /** Bytes of function answers kept for repeated queries (0: none; default 64 MiB). */
  answerCacheBytes?: number;
  /** Limits the guides print. */
  limits: { rateLimit: number; rateWindowSeconds: number; bodyLimit: number };
}

/** What the front server lends a request beyond the request itself. */
export interface Capabilities {
  /** The client the request counts against (its address, or as TRUST_PROXY reads it). */
  client?: string;
  /** Counts `cost` more requests against the client's rate limit; false when over it. Absent: no limit. */
  charge?: (cost: number) => boolean | Promise<boolean>;
}

/** The function layer itself: lets a surface (batch) answer sub-requests in-process. */
/** `url` is the request's, parsed once by the caller (defaults to parsing `request.url`). */
export type Dispatch = (request: Request, pathname: string, capabilities?: Capabilities, url?: URL) => Promise<Response | undefined>;

export interface RequestContext extends Capabilities {
  request: Request;
  url: URL;
  root: Root;
  /** Path inside the root ('/api/posts' for '/sandbox/api/posts'). */
  path: string;
  params: Record<string, string>;
  host: Host;
  dispatch: Dispatch;
}

export type Handler = (ctx: RequestContext) => Response | undefined | Promise<Response | undefined>;
