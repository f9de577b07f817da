import { readFile, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { etagOf } from './policies/etag.ts';
import type { Assets } from '../../functions/context.ts';
import { LANGUAGE_CODES } from '../core/languages.ts';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.gif': 'image/gif',
  '.ico': 'image/x-icon',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.pdf': 'application/pdf',
  '.woff2': 'font/woff2',
};

const typeOf = (file: string) =>
  file.endsWith('/feed.xml') || file === 'feed.xml' ? 'application/rss+xml; charset=utf-8' : TYPES[extname(file)] ?? 'application/octet-stream';

function cacheControl(sitePath: string, type: string): string {
  if (sitePath.startsWith('/_astro/')) return 'public, max-age=31536000, immutable';
  if (type.startsWith('text/html')) return 'public, max-age=0, must-revalidate';
  return 'public, max-age=300, must-revalidate';
}

interface Cached {
  body: Uint8Array;
  etag: string;
  type: string;
}

/** Homes carry a trailing slash; every other page does not. */
function isHome(path: string): boolean {
  const segs = path.split('/').filter(Boolean);
  if (segs[0] === 'sandbox') segs.shift();
  return segs.length === 0 || (segs.length === 1 && LANGUAGE_CODES.includes(segs[0]!));
}

/**
 * The built client folder as a file server. Files never change while the server runs, so
 * each is read and hashed once.
 */
export function staticFiles(clientDir: string) {
  const cache = new Map<string, Promise<Cached | undefined>>();

  async function load(relative: string): Promise<Cached | undefined> {
    const file = join(clientDir, relative);
    try {
      const s = await stat(file);
      if (!s.isFile()) return undefined;
      const body = new Uint8Array(await readFile(file));
      return { body, etag: etagOf(body), type: typeOf(relative) };
    } catch {
      return undefined;
    }
  }

  function get(relative: string): Promise<Cached | undefined> {
    let hit = cache.get(relative);
    if (!hit) {
      hit = load(relative);
      if (cache.size > 5000) cache.clear();
      cache.set(relative, hit);
    }
    return hit;
  }

  function respond(sitePath: string, f: Cached): Response {
    return new Response(f.body as Uint8Array<ArrayBuffer>, {
      status: 200,
      headers: { 'content-type': f.type, etag: f.etag, 'cache-control': cacheControl(sitePath, f.type) },
    });
  }

  /** Resolves a decoded site path to a file, a canonicalising redirect, or nothing. */
  async function serve(path: string, search: string): Promise<Response | undefined> {
    const trimmed = path.replace(/\/+$/, '');
    const hasSlash = path.endsWith('/');
    if (!hasSlash && extname(trimmed)) {
      const f = await get(trimmed);
      if (f) return respond(path, f);
    }
    const index = await get(`${trimmed}/index.html`);
    if (!index) return undefined;
    const home = isHome(trimmed);
    if (home && !hasSlash) return new Response(null, { status: 301, headers: { location: `${trimmed}/${search}` } });
    if (!home && hasSlash) return new Response(null, { status: 301, headers: { location: `${trimmed}${search}` } });
    return respond(path, index);
  }

  const assets: Assets = {
    async fetch(path) {
      return serve(path, '');
    },
  };
  return { serve, assets };
}
