import type { Handler, Host, Root } from './context.ts';
import type { QueryShape } from '../src/core/params.ts';
import { respond, type Made } from './http.ts';

/**
 * One entry of the flat route table (Ghost's routes.js; assembled in routes.ts): a function path and
 * what it does. Its own module, so the functions that declare routes and the table that gathers them
 * do not import each other.
 */
export interface Route {
  method?: 'GET' | 'POST';
  path: string;
  summary: string;
  handler: Handler;
  /** Not listed in the API index (pages, redirects). */
  hidden?: boolean;
  /** For pattern routes that claim only some paths: is this one of them? */
  claims?: (params: Record<string, string>, root: Root) => boolean;
  /** The query parameters the answer depends on (published files and cached answers are keyed by them). */
  query?: QueryShape;
  /** Makes the answer of a route with a `query` from its path and query alone: its handler sends it, the build publishes it (madeRoute). */
  make?: Maker;
  /** Cached answers of an unpublished query (search): the key, or undefined when this request's answer is not cached. */
  cacheKey?: (request: Request, url: URL) => string | undefined;
  /** The answer prints the server's limits (a published copy holds only for a server with the build's). */
  printsLimits?: true;
  /** The answer searches the content (an example): a build publishes it once the search indexes are written. */
  searches?: true;
  /** The request header that chooses between its representations (sent as Vary). */
  vary?: 'Accept';
}

/** What an answer that is a function of its path and query is made from. */
export interface MakeInput {
  root: Root;
  params: Record<string, string>;
  /** The request's query (the build's: the canonical query of the file it writes). */
  query: URLSearchParams;
  host: Host;
}

export type Maker = (input: MakeInput) => Made | Promise<Made>;

/** The made answer of a request that reached a route (its context holds what `make` reads). */
export const makeFor = (make: Maker, ctx: Parameters<Handler>[0]) => make({ root: ctx.root, params: ctx.params, query: ctx.url.searchParams, host: ctx.host });

/**
 * A route whose answer is a function of its path and query: its handler is `make` sent as a
 * Response, so the answer a server sends and the file a build writes (static-api.ts) are one.
 */
export function madeRoute(route: Omit<Route, 'handler' | 'make'> & { make: Maker }): Route {
  return { ...route, handler: async (ctx) => respond(await makeFor(route.make, ctx)) };
}
