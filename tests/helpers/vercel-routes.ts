import type { RouteCondition, VercelRoute } from '../../src/pipeline/targets/vercel-config.ts';

/**
 * A test oracle for the subset of Vercel's Build Output API v3 routing that the Vercel target
 * writes (vercel.com/docs/build-output-api/configuration#routes; the same steps as the CLI's
 * `vercel dev` router): routes in order, each matching its `src` (case-insensitive, against the
 * path without its query), its `methods`, every `has` condition and no `missing` one (a `value`
 * is a regular expression; named groups and the host's `$host` are captures). A route's headers
 * are added (`$1`, `$name` filled in); with `continue` the path becomes its `dest` and the next
 * route is tried; without, it answers: its `status` alone, or its `dest` (a file, or a function),
 * unless `check` finds nothing there, and routing goes on from that destination. At
 * `{ handle: 'filesystem' }` a file at the path answers; the routes after it are tried only when
 * none does. What nothing answers is the host's 404.
 */

export interface Deployment {
  /** URL paths served from `static/` (a file's own name, or its override's `path`). */
  files: Map<string, string>;
  /** URL paths of the functions (`functions/folio.func` is `/folio`). */
  functions: Set<string>;
}

export interface Routed {
  /** What answered: a static file, a function, a route's own status, or nothing (the host's 404). */
  layer: 'static' | 'function' | 'route' | 'none';
  status: number;
  headers: Record<string, string>;
  /** The static file's name under `static/`, or the function's path. */
  target?: string;
}

export interface RouteRequest {
  method?: string;
  url: string;
  headers?: Record<string, string>;
}

/** The value a condition reads, or undefined when the request lacks it. */
function actual(c: RouteCondition, url: URL, headers: Headers): string | undefined {
  if (c.type === 'host') return url.host;
  if (c.type === 'header') return headers.get(c.key) ?? undefined;
  return url.searchParams.has(c.key) ? url.searchParams.get(c.key)! : undefined;
}

/** `has` (all hold) and `missing` (none holds): the named captures, or undefined. */
function conditions(route: { has?: RouteCondition[]; missing?: RouteCondition[] }, url: URL, headers: Headers): Record<string, string> | undefined {
  const params: Record<string, string> = {};
  for (const c of route.has ?? []) {
    const v = actual(c, url, headers);
    if (v === undefined) return undefined;
    if (c.value === undefined) continue;
    const m = new RegExp(c.value).exec(v);
    if (!m) return undefined;
    Object.assign(params, m.groups);
    if (c.type === 'host') params.host = v;
  }
  for (const c of route.missing ?? []) {
    const v = actual(c, url, headers);
    if (v !== undefined && (c.value === undefined || new RegExp(c.value).test(v))) return undefined;
  }
  return params;
}

/** `$1` (a capture of `src`) or `$name` (a named capture of `src` or of a condition) filled in. */
const fill = (s: string, m: RegExpExecArray, named: Record<string, string>) => s.replace(/\$([1-9a-zA-Z]+)/g, (_, k: string) => (m.groups?.[k] ?? named[k] ?? m[parseInt(k, 10)]) ?? '');

/** A request through the routes and the file system, as the host would answer it. */
export function route(routes: VercelRoute[], deployment: Deployment, request: RouteRequest): Routed {
  const url = new URL(request.url, 'https://folio.vercel.app');
  const reqHeaders = new Headers(request.headers);
  const method = request.method ?? 'GET';
  const headers: Record<string, string> = {};
  let path = decodeURIComponent(url.pathname);
  let status: number | undefined;
  /** A file or function at a path (a folder's index for a path ending in `/`). */
  const at = (p: string): Routed | undefined => {
    const file = deployment.files.get(p) ?? (p.endsWith('/') ? deployment.files.get(`${p}index.html`) : undefined);
    if (file !== undefined) return { layer: 'static', status: status ?? 200, headers, target: file };
    if (deployment.functions.has(p)) return { layer: 'function', status: status ?? 200, headers, target: p };
    return undefined;
  };
  for (const r of routes) {
    if ('handle' in r) {
      const found = at(path);
      if (found) return found;
      continue;
    }
    if (r.methods && !r.methods.includes(method)) continue;
    const m = new RegExp(r.src, 'i').exec(path);
    if (!m) continue;
    const named = conditions(r, url, reqHeaders);
    if (!named) continue;
    for (const [k, v] of Object.entries(r.headers ?? {})) headers[k.toLowerCase()] = fill(v, m, named);
    const dest = r.dest === undefined ? undefined : fill(r.dest, m, named).split('?')[0]!;
    if (r.continue) {
      path = dest ?? path;
      status = r.status ?? status;
      continue;
    }
    if (dest === undefined) {
      if (r.status !== undefined) return { layer: 'route', status: r.status, headers };
      continue;
    }
    const found = at(dest);
    if (found) return { ...found, status: r.status ?? found.status };
    if (r.check) {
      path = dest;
      continue;
    }
    // A destination that is neither file nor function is the host's 404 (or the route's own status).
    return { layer: r.status ? 'route' : 'none', status: r.status ?? 404, headers };
  }
  return { layer: 'none', status: 404, headers };
}
