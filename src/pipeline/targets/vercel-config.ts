import type { Manifest } from '../../artefact/manifest.ts';
import { CORS_HEADERS, preflight } from '../../app/policies/cors.ts';
import { SECURITY_HEADERS } from '../../app/policies/security.ts';
import { rejectBearer } from '../../app/policies/bearer.ts';
import { CACHE_IMMUTABLE, CACHE_MEDIA, CACHE_PAGE } from '../publish/write-manifest.ts';
import { CACHE_PUBLIC } from '../../../functions/http.ts';
import { VARIANT_FOLDER } from '../../core/responsive-images.ts';
import { LANGUAGE_CODES } from '../../core/languages.ts';
import { pageFileAt } from '../../site/page-specs.ts';
import { pageFolder, retypedFiles, rewriteTargets } from './static.ts';
import { API_PREFIXES, computedPaths, computedQueries, NEGOTIATED_INDEXES, NEGOTIATED_PAGES, queryRules } from './cdn-routes.ts';

/**
 * Vercel's `config.json` for a build (Build Output API v3): the routes and the overrides that let
 * the CDN serve every published answer and send only computed requests to the function. Pure: the
 * manifest (and the build's `_redirects`) in, plain data out; vercel.ts writes the output.
 */

/** A `has`/`missing` condition of a route (Build Output API v3): `value` is a regular expression. */
export type RouteCondition = { type: 'header' | 'query'; key: string; value?: string } | { type: 'host'; value: string };

/** A Build Output API v3 route: a source route, or the marker of the file system phase. */
export type VercelRoute =
  | { handle: 'filesystem' }
  | { src: string; dest?: string; headers?: Record<string, string>; methods?: string[]; continue?: boolean; check?: boolean; status?: number; has?: RouteCondition[]; missing?: RouteCondition[] };

/** `static/` files served at another path than their name, or with another type than their extension says. */
export type VercelOverrides = Record<string, { path?: string; contentType?: string }>;

/** The function's path (`functions/folio.func`): what routes send computed requests to; it sees the request's own URL. */
export const FUNCTION_PATH = '/folio';

/** The bearer 401's body, a static file the route answers with (its headers are the route's). */
export const BEARER_BODY = '_folio/bearer-401.json';

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A route pattern (`/api/posts/:slug`) as the body of a `src`: each `:param` one captured segment, `*rest` the rest. */
const patternBody = (pattern: string) => pattern.split(/(:\w+|\*\w*)/).map((part) => (part.startsWith(':') ? '([^/]+)' : part.startsWith('*') ? '(.*)' : escape(part))).join('');
const anyOf = (patterns: readonly string[]) => `^(?:${patterns.map(patternBody).join('|')})$`;

/** A file named after a pattern's instance (`/api/posts/:slug/_query/lang=fr.json`) as a `dest` with the `src`'s captures. */
function captured(template: string, file: string): string {
  const params: string[] = template.match(/:\w+/g) ?? [];
  return file.replace(/:\w+/g, (p) => `$${params.indexOf(p) + 1}`);
}

/** The build's `_redirects` (`/en/* /:splat 301`: English lives at the root) as routes answering the redirect. */
export function redirectRoutes(redirects: string): VercelRoute[] {
  return redirects.split('\n').filter(Boolean).map((line) => {
    const [from, to, status] = line.split(/\s+/) as [string, string, string];
    return { src: `^${escape(from).replace('\\*', '(.*)')}$`, status: Number(status), headers: { location: to.replace(':splat', '$1') } };
  });
}

/** The CORS and security headers of every answer, and the function-free answers of the policies: the preflight and the bearer 401. */
function policyRoutes(): VercelRoute[] {
  const policy = { ...CORS_HEADERS, ...SECURITY_HEADERS };
  const headersOf = (r: Response) => Object.fromEntries(r.headers);
  // `$host` is the host condition's capture: the 401 names the metadata on the site's own origin.
  const refused = headersOf(rejectBearer('Bearer', 'https://$host')!);
  return [
    { src: '^/.*$', methods: ['OPTIONS'], headers: { ...policy, ...headersOf(preflight()) }, status: 204 },
    { src: '^/.*$', has: [{ type: 'header', key: 'authorization', value: '^\\s*[Bb][Ee][Aa][Rr][Ee][Rr](\\s|$)' }, { type: 'host', value: '.+' }], headers: { ...policy, ...refused }, status: 401, dest: `/${BEARER_BODY}` },
    { src: '^/.*$', headers: policy, continue: true },
  ];
}

/**
 * The `Accept` of an agent whose answer at a page URL is JSON or Markdown, as a regular expression:
 * its first range is one of them at full weight, and it does not name HTML (Node's negotiation
 * then picks JSON or Markdown: by weight, then by the more specific range). A browser's never
 * matches; any other `Accept` gets the page from the CDN, which the function does not carry.
 */
const AGENT_ACCEPT = { has: '^\\s*(?:application/json|text/markdown)\\s*(?:,|$)', missing: 'text/html' };

/** A query value a route may copy into a file name (language codes, page numbers): nothing that climbs or escapes a path. */
const PLAIN_VALUE = '[a-z0-9-]+';

/**
 * The published answers to queries as routes, one per route pattern and set of parameters
 * (`/api/posts/:slug` with `lang` and `fallback`): each value captured by its name into the file's
 * (`/api/posts/$1/_query/lang=$lang&fallback=$fallback.json`), the shape's other parameters
 * `missing` (so the order of a query's parameters does not matter), checked: a value with no file
 * (a language a post lacks, a page past the last, `lang=FR`) goes on to the function's API route
 * after the file system. A value a name cannot carry stays a route of its own.
 */
function publishedQueryRoutes(manifest: Manifest, shapes: Map<string, string[]>): VercelRoute[] {
  const routes = new Map<string, VercelRoute>();
  for (const { template, params, file } of queryRules(manifest)) {
    const plain = params.every(([k, v]) => /^[a-z]+$/i.test(k) && new RegExp(`^${PLAIN_VALUE}$`).test(v));
    const keys = params.map(([k]) => k);
    const dest = plain ? file.replace(/\/_query\/[^/]*(\.\w+)$/, (_, ext: string) => `/_query/${keys.map((k) => `${k}=$${k}`).join('&')}${ext}`) : file;
    const id = `${template}?${plain ? keys.join('&') : params.join('&')}`;
    if (routes.has(id)) continue;
    routes.set(id, {
      src: anyOf([template]),
      has: params.map(([key, value]) => ({ type: 'query', key, value: plain ? `^(?<${key}>${PLAIN_VALUE})$` : `^${escape(value)}$` })),
      missing: (shapes.get(template) ?? []).filter((p) => !keys.includes(p)).map((key) => ({ type: 'query', key })),
      dest: captured(template, dest),
      check: true,
      // Answers to queries are JSON reads (src/pipeline/publish/write-manifest.ts `cacheControlOf`).
      headers: { 'cache-control': CACHE_PUBLIC },
    });
  }
  return [...routes.values()];
}

/**
 * What only code answers, before anything reads a file: the computed paths; a page URL asked for
 * JSON or Markdown, and the API index asked for HTML (the function negotiates as Node does); the
 * published answers to queries, to their files; then any other query a published path reads, to
 * the function.
 */
function codeRoutes(manifest: Manifest, pages: string): VercelRoute[] {
  const shapes = new Map<string, string[]>();
  for (const [pattern, param] of computedQueries(manifest)) shapes.set(pattern, [...(shapes.get(pattern) ?? []), param]);
  const published = publishedQueryRoutes(manifest, shapes);
  // Vercel's `has` needs every condition it lists: any one parameter is a route of its own.
  const computed = [...shapes].flatMap(([pattern, params]) => params.map((key): VercelRoute => ({ src: anyOf([pattern]), has: [{ type: 'query', key }], dest: FUNCTION_PATH })));
  return [
    { src: anyOf(computedPaths(manifest)), dest: FUNCTION_PATH },
    { src: pages, has: [{ type: 'header', key: 'accept', value: AGENT_ACCEPT.has }], missing: [{ type: 'header', key: 'accept', value: AGENT_ACCEPT.missing }], dest: FUNCTION_PATH },
    { src: anyOf(NEGOTIATED_INDEXES), has: [{ type: 'header', key: 'accept', value: 'html' }], dest: FUNCTION_PATH },
    ...published,
    ...computed,
  ];
}

/**
 * The headers of the published files, by URL (routes see URLs, not files): `Cache-Control` by
 * kind as Node sends it (JSON and documents, then pages, media, files named by their content),
 * `Vary: Accept` where `Accept` chooses the answer, and a retyped file's own headers (the API
 * catalog's `Link`). tests/e2e/vercel.test.ts checks every published URL against its manifest entry.
 */
function fileHeaderRoutes(manifest: Manifest, pages: string): VercelRoute[] {
  const data = [...API_PREFIXES, '/.well-known'].map((p) => escape(p)).join('|');
  const mediaTypes = new Set(manifest.files.filter((f) => f.cacheControl === CACHE_MEDIA).map((f) => /\.(\w+)$/.exec(f.file)?.[1]).filter((e) => e !== undefined));
  return [
    { src: '^/.*$', headers: { 'cache-control': CACHE_PUBLIC }, continue: true },
    // A page is a URL whose last segment has no extension, outside the API and discovery folders.
    { src: `^(?!(?:${data})(?:/|$))(?:/[^/.]*)*/?$`, headers: { 'cache-control': CACHE_PAGE }, continue: true },
    { src: `^/(?:(?:sandbox/)?media/.*|.*\\.(?:${[...mediaTypes].sort().join('|')}))$`, headers: { 'cache-control': CACHE_MEDIA }, continue: true },
    { src: `^/(?:_astro|(?:sandbox/)?media/${VARIANT_FOLDER})/.*$`, headers: { 'cache-control': CACHE_IMMUTABLE }, continue: true },
    { src: pages, headers: { vary: 'Accept' }, continue: true },
    { src: anyOf(NEGOTIATED_INDEXES), headers: { vary: 'Accept' }, continue: true },
    ...retypedFiles(manifest)
      .filter((f) => Object.keys(f.headers).length > 0)
      .map((f): VercelRoute => ({ src: anyOf(f.urls), headers: f.headers, continue: true })),
  ];
}

/**
 * After the file system, what no file answers: an API path, and a URL of a post's form (`/x`,
 * `/fr/x`), go to the function, which answers as Node does (a JSON 404 saying what was not found; a
 * post's own not-found page in a language it lacks; the redirect to a home's slash), never cached;
 * any other path gets its root's not-found page, in its language (longest root first), from a file.
 */
function notFoundRoutes(manifest: Manifest, pageForm: string): VercelRoute[] {
  const roots = Object.keys(manifest.notFound).sort((a, b) => b.length - a.length);
  const noStore = { 'cache-control': 'no-store' };
  return [
    { src: `^(?:${API_PREFIXES.map(escape).join('|')})(?:/.*)?$`, dest: FUNCTION_PATH, headers: noStore },
    { src: `^(?:${pageForm})$`, dest: FUNCTION_PATH, headers: noStore },
    ...roots.map((root): VercelRoute => ({ src: `^${escape(root)}(?:/.*)?$`, status: 404, dest: `/${pageFolder(manifest.files[manifest.notFound[root]!]!.file.slice(1))}`, headers: noStore })),
  ];
}

/** The form of the negotiated pages' URLs: their patterns, a language a code and a slug without a dot. */
const pageForm = () => NEGOTIATED_PAGES.map((p) => patternBody(p).replace('([^/]+)/([^/]+)', `(?:${LANGUAGE_CODES.join('|')})/[^/.]+`).replace('([^/]+)', '[^/.]+')).join('|');

/**
 * The negotiated pages as one `src`: URLs of their form, less the published ones that do not
 * negotiate (`/search`, the API index), so those stay the CDN's whatever their `Accept`.
 */
function negotiatedPages(manifest: Manifest): string {
  const form = new RegExp(`^(?:${pageForm()})$`);
  const others = Object.entries(manifest.paths).filter(([path, e]) => form.test(path) && (!e.offers || NEGOTIATED_INDEXES.includes(path))).map(([path]) => escape(path));
  return `^(?!(?:${others.join('|')})$)(?:${pageForm()})$`;
}

/**
 * `config.json`'s routes, in order: the policies (preflight, bearer 401, CORS and security
 * headers); the `/en` redirects; what only code answers, to the function; the published files'
 * headers; the file system (`static/`, every published answer); what no file answers. The
 * function is reached on its routes only: no read of a published page, feed or JSON file invokes it.
 */
export function vercelRoutes(manifest: Manifest, redirects: string): VercelRoute[] {
  const pages = negotiatedPages(manifest);
  return [...policyRoutes(), ...redirectRoutes(redirects), ...codeRoutes(manifest, pages), ...fileHeaderRoutes(manifest, pages), { handle: 'filesystem' }, ...notFoundRoutes(manifest, pageForm())];
}

/**
 * `config.json`'s overrides: each page (`/x/index.html`) served at its URL without the slash
 * (`/x`; a home, `/fr/`, is its folder's index), each answer a host would not find by itself at its
 * URL (`/api/posts` is `api/posts/index.json`), and the types extensions do not say (feeds are RSS).
 */
export function vercelOverrides(manifest: Manifest): VercelOverrides {
  const out: VercelOverrides = {};
  const set = (file: string, o: { path?: string; contentType?: string }) => {
    const key = pageFolder(file.slice(1));
    out[key] = { ...out[key], ...o };
  };
  for (const [path, entry] of Object.entries(manifest.paths)) {
    const answer = entry.answers[''];
    const i = typeof answer === 'number' ? answer : answer?.[entry.offers![0]!];
    const file = i === undefined ? undefined : manifest.files[i]!.file;
    if (file && file === pageFileAt(path) && !path.endsWith('/')) set(file, { path: path.slice(1) });
  }
  for (const [path, file] of rewriteTargets(manifest)) {
    if (out[pageFolder(file.slice(1))]?.path !== undefined) throw new Error(`vercel: ${file} answers two URLs; overrides give a file one path`);
    set(file, { path: path.slice(1) });
  }
  for (const f of retypedFiles(manifest)) set(f.file, { contentType: f.type });
  return out;
}
