import type { Manifest } from '../../artefact/manifest.ts';

/**
 * What a plain server (nginx, Caddy: static-nginx.ts, static-caddy.ts) needs to serve `dist/static` as
 * it is, with no Node behind it, read from the build's `_headers` and `_redirects`: each server
 * writes these rules in its own terms and adds no rule of its own.
 */
export interface StaticHostRules {
  /** Extension -> Content-Type of the files outside `located`. */
  types: [string, string][];
  /** Headers on every answer, 404s included. */
  all: [string, string][];
  /** Paths (exact, or a folder when `prefix`) with their own headers and, where `_headers` says, type. */
  located: { path: string; prefix: boolean; type?: string; headers: [string, string][] }[];
  /** `_redirects`' redirects; a `prefix` one puts what follows `from` in place of `:splat` in `to`. */
  redirects: { from: string; to: string; status: 301 | 302; prefix: boolean }[];
}

/**
 * The files tried for a request, first found served, none a 404, as templates of `{uri}` (the path),
 * `{args}` (the raw query string), `{query}` and `{default}`: a query's answer, at `query`, is tried only
 * with a query, a path's default answer, at `default`, only without; a page at `{uri}/index.html`,
 * whatever its query. API paths answer canonical queries only (no index.html).
 */
export const STATIC_TRIES = {
  query: '{uri}/_query/{args}.json',
  /** A query that names no file: a canonical one encodes `/` (and `..` after one would leave the root). */
  fileless: '/',
  default: '{uri}/index.json',
  page: ['{query}', '{uri}', '{uri}/index.html', '{default}', '{uri}/index.md'],
  api: ['{query}', '{uri}', '{default}'],
};

/** The paths whose answers exist for canonical queries only. */
export const STATIC_API = /^\/(api|sandbox\/api|mcp\/v1|sandbox\/mcp\/v1)(\/|$)/;

/** `_headers` as blocks: a path (a prefix when it ends in `/*`) and its headers. */
export function parseHeaders(text: string): { path: string; headers: [string, string][] }[] {
  const blocks: { path: string; headers: [string, string][] }[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    if (!line.startsWith(' ')) blocks.push({ path: line.trim(), headers: [] });
    else {
      const at = line.indexOf(':');
      blocks.at(-1)!.headers.push([line.slice(0, at).trim(), line.slice(at + 1).trim()]);
    }
  }
  return blocks;
}

/**
 * The type a plain server gives each extension: the build's own spelling of the host's type where
 * `_headers` relies on it (HOST_TYPES: its type rules cover the files of other types), else the type
 * of most of the build's files with it.
 */
function typesByExtension(manifest: Manifest, hostTypes: Record<string, string>): [string, string][] {
  const counts = new Map<string, Map<string, number>>();
  for (const f of manifest.files) {
    const ext = /\.([a-z0-9]+)$/i.exec(f.file)?.[1]?.toLowerCase();
    if (!ext) continue;
    const byType = counts.get(ext) ?? new Map<string, number>();
    counts.set(ext, byType.set(f.type, (byType.get(f.type) ?? 0) + 1));
  }
  return [...counts].map(([ext, byType]) => {
    const types = [...byType].sort((a, b) => b[1] - a[1]).map(([type]) => type);
    return [ext, types.find((t) => t.split(';')[0] === hostTypes[ext]?.split(';')[0]) ?? types[0]!];
  });
}

const isType = ([k]: [string, string]) => k.toLowerCase() === 'content-type';

/** The rules of `dist/static`, from its manifest, `_headers` and `_redirects` as the build writes them. */
export function staticHostRules(manifest: Manifest, hostTypes: Record<string, string>, headersText: string, redirectsText: string): StaticHostRules {
  const blocks = parseHeaders(headersText);
  return {
    types: typesByExtension(manifest, hostTypes),
    all: blocks.find((b) => b.path === '/*')?.headers ?? [],
    located: blocks
      .filter((b) => b.path !== '/*')
      .map((b) => {
        const type = b.headers.find(isType)?.[1];
        return { path: b.path.replace(/\*$/, ''), prefix: b.path.endsWith('/*'), ...(type ? { type } : {}), headers: b.headers.filter((h) => !isType(h)) };
      }),
    redirects: redirectsText
      .split('\n')
      .map((l) => l.trim().split(/\s+/))
      .filter((r) => r[2] === '301' || r[2] === '302')
      .map(([from, to, status]) => ({ from: from!.replace(/\*$/, ''), to: to!, status: Number(status) as 301 | 302, prefix: from!.endsWith('/*') })),
  };
}
