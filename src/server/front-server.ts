import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { createApp, pageFallback } from '../app/app.ts';
import { clientKey, type RateDecision, type RateLimiter } from '../app/policies/rate-limit.ts';
import { safePath, wellEncodedQuery } from '../../functions/request-path.ts';
import { toWebRequest, writeResponse } from './node-bridge.ts';
import { serveFile } from './fast-path.ts';
import { settleBody } from './unread-body.ts';
import { compressAnswer } from './compress.ts';
import type { Generation } from './generation.ts';
import type { ServerConfig } from './config.ts';

export interface FrontServerDeps {
  config: ServerConfig;
  /** The build live now; each request keeps the one it started with. */
  live: () => Generation;
  limiter: RateLimiter | undefined;
  log?: (message: string) => void;
}

/** What Node knows of a request beyond the Web Request: the build it started on, the target as sent, the client. */
interface NodeEnv {
  build: Generation;
  method: string;
  target: string;
  client: string;
  /** The fast path looked the request up in the build's published files and found no answer. */
  unpublished?: true;
}

/** At most one Host header (Node keeps the first of several in `headers`; the raw list has them all). */
function oneHost(raw: string[]): boolean {
  let hosts = 0;
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.length === 4 && raw[i]!.toLowerCase() === 'host' && ++hosts > 1) return false;
  return true;
}

/**
 * The Node adapter: a GET or HEAD for a published answer takes the fast path (one manifest lookup,
 * the app's file answer written with precomputed headers, the request counted against the limit);
 * everything else becomes a Web Request for the app, and its Response is written back.
 */
export function createFrontServer(deps: FrontServerDeps) {
  const log = deps.log ?? ((m: string) => console.error(m));
  const app = createApp<NodeEnv>({
    live: (env) => env.build,
    clientKey: (_request, env) => env.client,
    rawPath: (_request, env) => env.target.split('?')[0]!,
    rawMethod: (_request, env) => env.method,
    limiter: deps.limiter,
    bodyLimit: deps.config.bodyLimit,
    computeAll: !deps.config.fastPath,
    unpublished: (env) => env.unpublished === true,
    compress: compressAnswer,
    log,
  });

  async function fastPath(req: IncomingMessage, res: ServerResponse, env: NodeEnv): Promise<RateDecision | 'served' | undefined> {
    const { target } = env;
    const q = target.indexOf('?');
    const path = safePath(target);
    // A malformed target gets the app's 400.
    if (path === undefined || (q >= 0 && !wellEncodedQuery(target.slice(q)))) return undefined;
    const { files, functions } = env.build;
    // A published answer, or the not-found page of a path no function claims (as the app's router decides).
    const fallback = () => (functions.owns(path) ? undefined : pageFallback(files, path));
    const published = files.find(path, q < 0 ? '' : target.slice(q + 1), req.headers.accept);
    const answer = published instanceof Promise ? await published : published;
    // The app's router would look again (a search is never published but for the build's examples).
    if (answer === undefined) env.unpublished = true;
    const found = answer ?? (await fallback());
    if (!found || 'redirect' in found) return undefined;
    const decided = deps.limiter ? app.count(env.client) : undefined;
    const rate = decided instanceof Promise ? await decided : decided;
    // Over the limit: the app answers the 429 without counting the request again.
    if (rate && !rate.allowed) return rate;
    try {
      await serveFile(req, res, found, files, rate);
      return 'served';
    } catch (e) {
      // Nothing was written (headers go with the bytes): the app answers, as it does any failure.
      log(`fast path failed on ${env.target}: ${(e as Error).message}`);
      return rate;
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    const env: NodeEnv = { build: deps.live(), method, target: req.url ?? '/', client: clientKey(deps.config.trustProxy, req.headers['x-forwarded-for'], req.socket.remoteAddress) };
    let counted: RateDecision | undefined;
    try {
      // The app refuses what the fast path does not look at: a bearer token, several Host headers.
      if (deps.config.fastPath && (method === 'GET' || method === 'HEAD') && req.headers.authorization === undefined && oneHost(req.rawHeaders)) {
        const fast = await fastPath(req, res, env);
        if (fast === 'served') return;
        counted = fast;
      }
      const request = toWebRequest(req, env.target);
      const response = await app.handle(request, env, counted);
      await settleBody(req, res, request);
      await writeResponse(res, response);
    } catch (e) {
      log(`error on ${method} ${env.target}: ${(e as Error).stack ?? String(e)}`);
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
      res.end(JSON.stringify({ error: 'Internal error; the request was not processed.' }));
    }
  }

  /** Counts a request Node answered itself (it never reached the app) against its socket's address. */
  const countSocket = (socket: Duplex) => (deps.limiter ? app.count(clientKey(undefined, undefined, (socket as Socket).remoteAddress)) : undefined);

  return { handle, countSocket };
}
