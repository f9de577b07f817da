import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

// A serverless host's function entry (Netlify's, Vercel's) called in-process with Web Requests,
// beside the Node server answering the same requests.

export type Handler = (request: Request) => Promise<Response>;

/** Imports a bundled entry afresh with the given environment (entries read it when loaded). */
export async function load<T>(file: string, env: Record<string, string | undefined>): Promise<T> {
  const saved = { ...process.env };
  Object.assign(process.env, env);
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete process.env[k];
  try {
    return (await import(`${pathToFileURL(resolve(file)).href}?${Math.random()}`)) as T;
  } finally {
    process.env = saved;
  }
}

/** Requests across the surfaces, answered by the function and by the Node server alike. */
export const REQUESTS: { path: string; init?: RequestInit }[] = [
  { path: '/api/posts' },
  { path: '/api/posts?per_page=3&lang=fr' },
  { path: '/api/posts/the-slow-web?lang=de&fallback=en' },
  { path: '/api/search?q=tide' },
  { path: '/the-slow-web', init: { headers: { accept: 'application/json' } } },
  { path: '/the-slow-web', init: { headers: { accept: 'text/markdown' } } },
  { path: '/fr/' },
  { path: '/openapi.json' },
  { path: '/sandbox/api/posts' },
  { path: '/api/nothing' },
  { path: '/no-such-page' },
  { path: '/en/the-slow-web' },
  { path: '/graphql', init: { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ posts(first: 2) { edges { node { slug } } } }' }) } },
  { path: '/mcp', init: { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }) } },
  { path: '/api/posts', init: { headers: { authorization: 'Bearer x' } } },
];

/** What only code answers (a function behind a CDN gets no other request: the CDN serves the rest). */
export const COMPUTED = REQUESTS.filter(({ path, init }) => /^\/(api\/search|graphql|mcp)|per_page/.test(path) || (init?.method ?? 'GET') !== 'GET');

/** Each request to a host's function entry and to the Node server (at `nodeUrl`): the same status, headers that matter and bytes. */
export async function sameAsNode(nodeUrl: string, handler: Handler, origin: string, requests = REQUESTS) {
  for (const { path, init } of requests) {
    const headers = { 'accept-encoding': 'identity', ...(init?.headers as Record<string, string> | undefined) };
    const viaFunction = await handler(new Request(origin + path, { ...init, headers, redirect: 'manual' }));
    const viaNode = await fetch(nodeUrl + path, { ...init, headers, redirect: 'manual' });
    const what = `${init?.method ?? 'GET'} ${path}`;
    assert.equal(viaFunction.status, viaNode.status, what);
    for (const h of ['content-type', 'cache-control', 'etag', 'location', 'access-control-allow-origin', 'www-authenticate']) assert.equal(viaFunction.headers.get(h), viaNode.headers.get(h), `${h} of ${what}`);
    // These hosts' edges code computed answers (and add Accept-Encoding to Vary); Node codes its own.
    const vary = (r: Response) => (r.headers.get('vary') ?? '').split(', ').filter((v) => v && v !== 'Accept-Encoding').join(', ');
    assert.equal(vary(viaFunction), vary(viaNode), `vary of ${what}`);
    assert.equal(await viaFunction.text(), await viaNode.text(), what);
  }
}

/**
 * A folder served over loopback HTTP as a CDN serves a deployment's static files, for a function
 * that reads its build from there (FOLIO_ARTEFACT_URL): the paths it was asked for, in order.
 */
export async function serveFolder(dir: string): Promise<{ url: string; asked: string[]; sent: number[]; close: () => Promise<void> }> {
  const asked: string[] = [];
  /** The bytes sent for each of `asked`. */
  const sent: number[] = [];
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    asked.push(path);
    const file = resolve(dir, `.${path}`);
    const body = file.startsWith(resolve(dir)) ? await readFile(file).catch(() => undefined) : undefined;
    res.statusCode = body ? 200 : 404;
    sent.push(body?.byteLength ?? 0);
    res.end(body ?? 'not found');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    asked,
    sent,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
