import type { Handler, Root } from './context.ts';
import type { QueryShape } from '../src/core/params.ts';

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
  /** Cached answers of an unpublished query (search): the key, or undefined when this request's answer is not cached. */
  cacheKey?: (request: Request, url: URL) => string | undefined;
  /** The answer prints the server's limits (a published copy holds only for a server with the build's). */
  printsLimits?: true;
  /** The answer searches the content (an example): a build publishes it once the search indexes are written. */
  searches?: true;
  /** The request header that chooses between its representations (sent as Vary). */
  vary?: 'Accept';
}
