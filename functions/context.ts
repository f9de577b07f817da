import type { ContactService } from '../src/contact/service.ts';
import type { Core } from '../src/core/index.ts';
import type { StreamCounter } from './sse.ts';

/** What a function sees: the content root it serves, and the host's capabilities. */
export interface Root {
  name: 'main' | 'sandbox';
  /** '' or '/sandbox' */
  base: string;
  core: Core;
  /** Key for event signatures (the sandbox's is published). */
  signingSecret: string;
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
  /** Open event streams, so a disconnect can be seen to free the server. */
  streams: StreamCounter;
}

export interface RequestContext {
  request: Request;
  url: URL;
  root: Root;
  /** Path inside the root ('/api/posts' for '/sandbox/api/posts'). */
  path: string;
  params: Record<string, string>;
  host: Host;
}

export type Handler = (ctx: RequestContext) => Response | undefined | Promise<Response | undefined>;
