import { ROUTES } from '../../../functions/routes.ts';
import type { Route } from '../../../functions/route.ts';
import { routeIndex } from '../../../functions/route-index.ts';
import type { QueryShape } from '../../core/params.ts';
import type { Manifest, Offer } from '../../artefact/manifest.ts';
import { answerFile } from '../publish/answer-file.ts';
import { ROOTS } from '../../artefact/roots.ts';

/**
 * What a CDN in front of the functions must know of a build, for hosts that route by rules
 * (Netlify's `_redirects`, Vercel's routes): which published answers a query string selects,
 * which paths only a function can answer, and which URLs negotiate by `Accept`. Pure: the
 * manifest and the route table in, plain data out.
 */

/** The query parameters each shape reads (src/core/params.ts `canonicalQuery`). */
export const SHAPE_PARAMS: Record<QueryShape, readonly string[]> = {
  none: [],
  lang: ['lang'],
  content: ['lang', 'fallback'],
  list: ['lang', 'fallback', 'page', 'per_page'],
  search: ['q', 'query', 'page', 'per_page'],
};

/** The path every rule that needs the function rewrites to (`{prefix}{path}`); the function strips it. */
export const FUNCTION_PREFIX = '/_folio/fn';

/** A published answer to a query, for every path of a route pattern: `{template}?{params}` is `{file}` (`:slug` filled in). */
export interface QueryRule {
  template: string;
  params: [string, string][];
  file: string;
}

const roots = ROOTS.map((r) => r.base);

/** The route patterns of every root (`/sandbox/api/posts/:slug`), with their routes. */
function rootedRoutes(): { pattern: string; route: Route }[] {
  return roots.flatMap((base) => ROUTES.map((route) => ({ pattern: `${base}${route.path}`, route })));
}

const templates = () => routeIndex(rootedRoutes().map(({ pattern, route }) => ({ path: pattern, route })));

/** The pattern a published path is an instance of (the literal route first), when a route reads its query. */
function templateOf(index: ReturnType<typeof templates>, path: string): string | undefined {
  const found = index.match(path, ({ route }) => route.query !== undefined && route.query !== 'none' && route.query !== 'search');
  return found[0]?.route.path;
}

/**
 * The published answers to queries, one rule per route pattern and query (a post's `lang=fr` is one
 * rule for every post), most specific first: a host that matches the first rule whose parameters
 * the request carries then serves the answer to the longest query it matches. The file of a
 * pattern's instance is the path form of src/pipeline/publish/answer-file.ts, at the instance's path.
 */
export function queryRules(manifest: Manifest): QueryRule[] {
  const index = templates();
  const rules = new Map<string, QueryRule>();
  for (const [path, entry] of Object.entries(manifest.paths)) {
    if (entry.offers) continue;
    for (const [query, answer] of Object.entries(entry.answers)) {
      if (!query || typeof answer !== 'number') continue;
      const template = templateOf(index, path) ?? path;
      const params = query.split('&').map((p) => p.split('=') as [string, string]);
      const file = answerFile(template, query, manifest.files[answer]!.type);
      rules.set(`${template}?${query}`, { template, params, file });
    }
  }
  return [...rules.values()].sort((a, b) => b.params.length - a.params.length || (a.template + a.params.join()).localeCompare(b.template + b.params.join()));
}

/**
 * The patterns whose query parameters choose a computed answer when no published one matched:
 * `[pattern, parameter]` for every parameter its shape reads, so `per_page=20`, `lang=FR` or a
 * search's `q` reach the function instead of the default answer.
 */
export function computedQueries(manifest: Manifest): [string, string][] {
  const index = templates();
  const out = new Map<string, [string, string]>();
  for (const [path, entry] of Object.entries(manifest.paths)) {
    if (entry.offers) continue;
    const pattern = templateOf(index, path) ?? path;
    for (const param of SHAPE_PARAMS[entry.query]) out.set(`${pattern}?${param}`, [pattern, param]);
  }
  return [...out.values()];
}

/** A pattern of which some instance is published (a literal path, or `/api/posts/:slug` for any post). */
function published(manifest: Manifest, pattern: string): boolean {
  if (!pattern.includes(':')) return pattern in manifest.paths;
  const one = routeIndex([{ path: pattern }]);
  return Object.keys(manifest.paths).some((p) => one.match(p, () => true).length > 0);
}

/** Routes the CDN answers otherwise: pages negotiate at the edge, `/en` redirects by rule. */
const NOT_FUNCTIONS = new Set(['/:slug', '/:lang/:slug', '/en', '/en/*rest']);

/**
 * The paths (URLPattern syntax, `:param` for one segment) on which only a function answers: no
 * instance of them is published (search, streams, /ask, batch, GraphQL, MCP, paid contact,
 * /status). Published patterns never invoke the function by path; their computed queries and
 * unknown instances reach it through rules (`FUNCTION_PREFIX`).
 */
export function computedPaths(manifest: Manifest): string[] {
  const paths = rootedRoutes()
    .filter(({ route }) => !NOT_FUNCTIONS.has(route.path))
    .map(({ pattern }) => pattern)
    .filter((pattern) => !published(manifest, pattern));
  return [...new Set(paths)].sort();
}

/**
 * The URLs that are only ever a static file, whatever the request: Astro's fingerprinted assets,
 * the media (originals and their variants) and the files of public/. Nothing negotiates, reads a
 * query or computes an answer there, so a host may serve them without running any code (`/*` a
 * folder, else one path).
 */
// Not /favicon.ico: the assets would send it as image/vnd.microsoft.icon, Node's answer is image/x-icon
// (browsers ask for it whatever the page links; the pages link /favicon.svg).
export const STATIC_ONLY = ['/_astro/*', '/media/*', '/sandbox/media/*', '/favicon.svg', '/logo.png'];

/** Whether a URL path is one of STATIC_ONLY's. */
export const staticOnly = (path: string) => STATIC_ONLY.some((p) => (p.endsWith('/*') ? path.startsWith(p.slice(0, -1)) : path === p));

/** The API prefixes whose unknown paths get the function's JSON 404 (src: functions/routes.ts `isApiPath`). */
export const API_PREFIXES = roots.flatMap((base) => [`${base}/api`, `${base}/mcp`]);

/** The negotiated pages' patterns (the host's rule matches these; its data says which paths are). */
export const NEGOTIATED_PAGES = ['/:slug', '/:lang/:slug', '/sandbox/:slug', '/sandbox/:lang/:slug'];

/**
 * The API index negotiates with JSON as its default, and its HTML would shadow any rule at its URL:
 * code answers every request to it that could ask for HTML (two URLs).
 */
export const NEGOTIATED_INDEXES = ['/api', '/sandbox/api'];

/** URLs that negotiate by `Accept`: path -> the file of each offer (the first is the default). */
export function negotiatedFiles(manifest: Manifest): Record<string, Partial<Record<Offer, string>>> {
  const out: Record<string, Partial<Record<Offer, string>>> = {};
  for (const [path, entry] of Object.entries(manifest.paths)) {
    const answer = entry.answers[''];
    if (!entry.offers || answer === undefined || typeof answer === 'number') continue;
    out[path] = Object.fromEntries(entry.offers.flatMap((o) => (answer[o] === undefined ? [] : [[o, manifest.files[answer[o]]!.file]])));
  }
  return out;
}
