import type { Manifest, ManifestFile } from '../../artefact/manifest.ts';
import { isJson } from '../../app/policies/rate-limit.ts';
import { VARIANT_FOLDER } from '../../core/responsive-images.ts';

/**
 * What a front server (nginx, Caddy: targets/nginx.ts, caddy.ts) serves itself, and where it finds
 * it. Only answers that are the same for every client go there: published files that are not JSON
 * (JSON carries the client's X-RateLimit-* count, which only Node keeps), at a path without a query
 * (every published query variant is JSON), in their default representation, and not a guide
 * that prints the server's limits. Everything else is passed to Node.
 *
 * Each URL's file is stored at the URL plus `.{key}`, the key naming its type (`/fr/` at `/fr/..html`,
 * `/feed.xml` at `/feed.xml.rss`): a fixed rule the front applies to any request, so a URL is served
 * statically exactly when its stored file exists, no other file is reachable, and a new build needs
 * no change of configuration. The key also gives the exact Content-Type (the front's type table)
 * and the Cache-Control (FrontRules.cache).
 */
export interface FrontFile {
  /** The stored name (site path), the URL plus `.{key}`. */
  name: string;
  file: ManifestFile;
}

export interface FrontRules {
  /** Key -> Content-Type, most served first. */
  types: [string, string][];
  /** Key -> Cache-Control, for the files outside IMMUTABLE's folders. */
  cacheByKey: [string, string][];
  /** Cache-Control of the files in IMMUTABLE's folders, when there are any. */
  immutable?: string;
  /**
   * The keys to try for a URL, by the extension of its last segment ('' for none): `/feed.xml` can only
   * be a .rss, .atom or .xml file. A negotiated page (a post, what readers mostly ask for) first, then by count.
   */
  extensions: [string, string[]][];
}

/**
 * What starts a negotiated page's key (`v-html`: it adds `Vary: Accept`). Other keys are letters and
 * digits only, so none can start with it (a plain `vtt` once did with a bare `v`).
 */
export const NEGOTIATED_KEY = 'v-';

/** The key of a type: its subtype's letters and digits (`rss` for application/rss+xml), after NEGOTIATED_KEY for a negotiated page. */
function keyOf(type: string, negotiated: boolean): string {
  const sub = type.split(';')[0]!.trim().split('/')[1]!.toLowerCase().replace(/\+.*$/, '').replace(/^x-/, '').replace(/[^a-z0-9]/g, '');
  return negotiated ? `${NEGOTIATED_KEY}${sub}` : sub;
}

/**
 * What a URL's stored name starts with: the URL, or for a folder's URL (`/fr/`) the URL and a dot
 * (`/fr/.`: a name no other URL gives, as `/fr/.` is a dot segment, and whose key the front reads as
 * its extension, which a name starting with a dot would not be).
 */
export const frontBase = (path: string) => (path.endsWith('/') ? `${path}.` : path);

/** The files a front serves itself, by its stored name. */
export function frontFiles(manifest: Manifest): FrontFile[] {
  const limited = new Set(manifest.configDependent);
  const files: FrontFile[] = [];
  for (const [path, entry] of Object.entries(manifest.paths)) {
    const answer = entry.answers[''];
    if (answer === undefined || limited.has(path)) continue;
    const i = typeof answer === 'number' ? answer : answer[entry.offers![0]!];
    const file = i === undefined ? undefined : manifest.files[i];
    if (!file || isJson(file.type)) continue;
    files.push({ name: `${frontBase(path)}.${keyOf(file.type, entry.offers !== undefined)}`, file });
  }
  return files;
}

/** A query string with malformed percent-encoding (Node's 400): RE2 and PCRE alike. */
export const MALFORMED_QUERY = /%([^0-9A-Fa-f]|[0-9A-Fa-f][^0-9A-Fa-f]|[0-9A-Fa-f]?$)/;

/** Immutable caching by folder (Astro's hashed assets, image variants); everything else by its key. */
export const IMMUTABLE_FOLDERS = ['/_astro/', `/media/${VARIANT_FOLDER}/`, `/sandbox/media/${VARIANT_FOLDER}/`];
export const IMMUTABLE = new RegExp(`^(?:${IMMUTABLE_FOLDERS.map((f) => f.replace(/[/.]/g, '\\$&')).join('|')})`);

/** The extension of a URL's last segment, as fronts read it ('' for none). */
export const URL_EXTENSION = /\.([A-Za-z0-9]+)$/;

/**
 * The type table and caching rules of the files a front serves, checked against each file: a file
 * whose type or Cache-Control the rules would give wrongly fails the build.
 */
export function frontRules(files: readonly FrontFile[]): FrontRules {
  const types = new Map<string, { type: string; count: number }>();
  const cacheByKey = new Map<string, string>();
  const extensions = new Map<string, Map<string, number>>();
  let immutable: string | undefined;
  for (const { name, file } of files) {
    const dot = name.lastIndexOf('.');
    const key = name.slice(dot + 1);
    const known = types.get(key);
    if (known && known.type !== file.type) throw new Error(`front: ${name} is ${file.type}, another file with key ${key} is ${known.type}`);
    types.set(key, { type: file.type, count: (known?.count ?? 0) + 1 });
    const ext = URL_EXTENSION.exec(name.slice(0, dot))?.[1] ?? '';
    const keys = extensions.get(ext) ?? new Map<string, number>();
    extensions.set(ext, keys.set(key, (keys.get(key) ?? 0) + 1));
    if (IMMUTABLE.test(name)) {
      if (immutable !== undefined && immutable !== file.cacheControl) throw new Error(`front: ${name} has Cache-Control ${file.cacheControl}, other assets ${immutable}`);
      immutable = file.cacheControl;
      continue;
    }
    const cache = cacheByKey.get(key);
    if (cache !== undefined && cache !== file.cacheControl) throw new Error(`front: ${name} has Cache-Control ${file.cacheControl}, other .${key} files ${cache}`);
    cacheByKey.set(key, file.cacheControl);
  }
  const order = (counts: Map<string, number>) => [...counts].sort((a, b) => Number(b[0].startsWith(NEGOTIATED_KEY)) - Number(a[0].startsWith(NEGOTIATED_KEY)) || b[1] - a[1]).map(([key]) => key);
  return {
    types: [...types].sort((a, b) => b[1].count - a[1].count).map(([key, { type }]) => [key, type]),
    cacheByKey: [...cacheByKey],
    ...(immutable !== undefined ? { immutable } : {}),
    extensions: [...extensions].map(([ext, counts]) => [ext, order(counts)]),
  };
}

/** Where a front listens and where `npm run serve` is (`--listen`, `--upstream`). */
/**
 * A front's answer when Node does not (down, restarting, refusing connections, too slow): what
 * Node's own errors are, JSON `{error}` that no cache keeps, with when to retry. Every request that
 * reaches Node is one a program may have sent (the pages are the front's own files).
 */
export const NODE_AWAY = {
  status: 503,
  retryAfter: 5,
  body: JSON.stringify({ error: 'The service behind this front is not answering (restarting or down); retry shortly.' }),
  headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'retry-after': '5' },
} as const;

export interface FrontOptions {
  listen: string;
  upstream: string;
}
