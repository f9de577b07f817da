import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { realpath } from 'node:fs/promises';
import { createApp } from '../../src/app/app.ts';
import { loadGeneration } from '../../src/server/generation.ts';
import { DIST } from '../../src/artefact/roots.ts';
import { localStreamCounter } from '../../functions/sse.ts';
import { localSessionBus } from '../../src/state/session-bus.ts';
import { isCompressible } from '../../src/artefact/manifest.ts';
import { liveManifest, publishedRequests } from '../helpers/manifest.ts';
import { useServer } from '../helpers/server.ts';
import { raw } from '../helpers/raw-request.ts';

// Node's fast path writes published files itself; the app (what every other host runs) answers
// them as Web Responses. The same requests must get the same status, headers and bytes from both.
const server = useServer({ RATE_LIMIT: '0' });

/** Headers that belong to the connection, not the answer. */
const HOP = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding']);
const headersOf = (h: Headers) => Object.fromEntries([...h].filter(([k]) => !HOP.has(k)).sort(([a], [b]) => a.localeCompare(b)));

async function inProcessApp() {
  const gen = await loadGeneration(await realpath(DIST.dir), {
    shared: {
      hostname: 'test',
      version: '0',
      worker: { index: 1, count: 1 },
      streams: localStreamCounter(),
      mcpSessions: localSessionBus(),
      mcpAllowedOrigins: [],
      mcpSessionLimits: { perClient: 8, idleSeconds: 300 },
      limits: { rateLimit: 0, rateWindowSeconds: 60, bodyLimit: 65536 },
    },
    secret: 'x',
    fileCacheBytes: 64 * 1024 * 1024,
    artefactCacheBytes: 128 * 1024 * 1024,
  });
  return createApp<undefined>({ live: () => gen, clientKey: () => 'test', bodyLimit: 65536 });
}

describe('the app and the Node fast path', () => {
  test('every published request, in every coding and condition, gets the same status, headers and bytes', async () => {
    const app = await inProcessApp();
    const manifest = await liveManifest();
    const requests = publishedRequests(manifest).filter((r) => !manifest.configDependent.includes(r.target));
    let compared = 0;
    const kinds = new Set<string>();
    for (const r of requests) {
      const accept: Record<string, string> = r.accept ? { accept: r.accept } : {};
      const variants: { method?: string; headers: Record<string, string>; kind: string }[] = [
        { headers: { ...accept, 'accept-encoding': 'identity' }, kind: 'identity' },
        { headers: { ...accept, 'accept-encoding': 'br, gzip' }, kind: 'br' },
        { headers: { ...accept, 'accept-encoding': 'gzip' }, kind: 'gzip' },
        { method: 'HEAD', headers: { ...accept, 'accept-encoding': 'br' }, kind: 'head' },
        { headers: { ...accept, 'accept-encoding': 'br', 'if-none-match': `"x", ${r.file.etag.slice(0, -1)}-br"` }, kind: '304' },
      ];
      if (!isCompressible(r.file.type)) {
        variants.push({ headers: { range: 'bytes=10-19' }, kind: '206' }, { headers: { range: `bytes=${r.file.length + 5}-` }, kind: '416' }, { headers: { range: 'bytes=-4', 'if-range': '"stale"' }, kind: 'if-range' });
      }
      for (const v of variants) {
        const init = { method: v.method ?? 'GET', headers: v.headers };
        const viaNode = await raw(server.url, r.target, init);
        const viaApp = await app.fetch(new Request(`http://folio.local${r.target}`, init), undefined);
        const what = `${v.kind} ${r.target}${r.accept ? ` (${r.accept})` : ''}`;
        assert.equal(viaApp.status, viaNode.status, what);
        assert.deepEqual(headersOf(viaApp.headers), headersOf(viaNode.headers), what);
        assert.ok(Buffer.from(await viaApp.arrayBuffer()).equals(viaNode.bytes), `bytes of ${what}`);
        kinds.add(`${v.kind}:${viaNode.status}`);
        compared++;
      }
    }
    assert.ok(compared > 2000, `${compared} requests compared`);
    for (const k of ['identity:200', 'br:200', 'gzip:200', 'head:200', '304:304', '206:206', '416:416', 'if-range:200']) assert.ok(kinds.has(k), `covered ${k}`);
  });

  test('not-found pages, canonical redirects and unknown API paths agree too', async () => {
    const app = await inProcessApp();
    const manifest = await liveManifest();
    const unavailable = Object.keys(manifest.unavailable)[0]!;
    for (const target of ['/no-such-page', '/fr/no-such-page', '/sandbox/de/nothing', unavailable, '/fr', '/fr/', '/api/nothing', '/a/../b', '/%E0%A4%A', '/api/posts?page=0']) {
      const viaNode = await raw(server.url, target, { headers: { 'accept-encoding': 'identity' } });
      const viaApp = await app.fetch(new Request(`http://folio.local${target}`, { headers: { 'accept-encoding': 'identity' } }), undefined);
      // The app parses the target as a URL (a host does before it), so it sees `/b` for `/a/../b`.
      if (target === '/a/../b') {
        assert.equal(viaNode.status, 400);
        continue;
      }
      assert.equal(viaApp.status, viaNode.status, target);
      const { 'content-length': _a, ...appHeaders } = headersOf(viaApp.headers);
      const { 'content-length': _b, ...nodeHeaders } = headersOf(viaNode.headers);
      assert.deepEqual(appHeaders, nodeHeaders, target);
      assert.equal(await viaApp.text(), viaNode.bytes.toString('utf8'), target);
    }
  });
});
