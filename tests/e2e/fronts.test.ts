// nginx and Caddy before `npm run serve` (`--target nginx`, `--target caddy`): every URL a front serves
// itself against Node's answer, which layer answered, validators, and a new build going live by its link.
// The e2e suites also run whole behind each front (npm run test:nginx, test:caddy).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { chmod, mkdir, mkdtemp, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { liveManifest } from '../helpers/manifest.ts';
import { frontAbsent, startFront, type Front, type RunningFront } from '../helpers/front.ts';
import { startServer, type RunningServer } from '../helpers/server.ts';
import { frontFiles } from '../../src/pipeline/targets/front-files.ts';

const IDENTITY = { 'accept-encoding': 'identity' };

for (const name of ['nginx', 'caddy'] as Front[]) {
  describe(`${name} before Node`, { skip: frontAbsent(name) ?? false }, () => {
    let node: RunningServer;
    let front: RunningFront;
    before(async () => {
      node = await startServer({ RATE_LIMIT: '100000', TRUST_PROXY: '1' }, 'node');
      front = await startFront(name, node.url);
    });
    after(async () => {
      await front?.stop();
      await node?.stop();
    });

    test(`every URL ${name} serves itself: Node's bytes, type, caching and Vary, its own validators, 304, br and gzip`, async () => {
      const manifest = await liveManifest();
      const files = frontFiles(manifest);
      assert.ok(files.length > 500, `${files.length} URLs`);
      for (const { name: stored, file } of files) {
        const url = stored.slice(0, stored.lastIndexOf('.')).replace(/\/\.$/, '/');
        const [viaFront, viaNode] = await Promise.all([fetch(front.url + url, { headers: IDENTITY }), fetch(node.url + url, { headers: IDENTITY })]);
        assert.equal(viaFront.status, 200, url);
        assert.deepEqual(Buffer.from(await viaFront.arrayBuffer()), Buffer.from(await viaNode.arrayBuffer()), url);
        for (const h of ['content-type', 'cache-control', 'access-control-allow-origin', 'access-control-expose-headers', 'x-content-type-options', 'referrer-policy']) assert.equal(viaFront.headers.get(h), viaNode.headers.get(h), `${h} of ${url}`);
        assert.deepEqual(viaFront.headers.get('vary')?.split(/,\s*/).sort(), viaNode.headers.get('vary')?.split(/,\s*/).sort(), `vary of ${url}`);
        // The front answered (its ETag, from the file's time and size), and it revalidates with it.
        const etag = viaFront.headers.get('etag')!;
        assert.ok(etag && etag !== file.etag && !viaFront.headers.has('x-ratelimit-limit'), `${name} served ${url}`);
        const again = await fetch(front.url + url, { headers: { ...IDENTITY, 'if-none-match': etag } });
        assert.equal(again.status, 304, `If-None-Match on ${url}`);
        // gzip: the copy the front's writer made (a build stores br alone: src/pipeline/targets/gzip-copies.ts).
        for (const [coding, has] of [['br', file.br], ['gzip', file.gzip ?? file.br]] as const) {
          if (has === undefined) continue;
          const coded = await fetch(front.url + url, { headers: { 'accept-encoding': coding } });
          await coded.arrayBuffer();
          assert.equal(coded.headers.get('content-encoding'), coding, `${coding} of ${url}`);
        }
      }
    });

    test('JSON, negotiation, queries, the bearer 401, ranges and unknown paths are answered by Node through it', async () => {
      const manifest = await liveManifest();
      const etagOf = (path: string) => manifest.files[manifest.paths[path]!.answers[''] as number]!.etag;
      const cases: [string, RequestInit, (r: Response) => void][] = [
        ['/api/posts', {}, (r) => assert.equal(r.headers.get('etag'), etagOf('/api/posts'))],
        ['/api/posts?lang=fr&page=1&utm=x', {}, (r) => assert.equal(r.status, 200)],
        ['/the-slow-web', { headers: { accept: 'application/json' } }, (r) => assert.match(r.headers.get('content-type')!, /^application\/json/)],
        ['/the-slow-web', { headers: { accept: 'text/markdown' } }, (r) => assert.match(r.headers.get('content-type')!, /^text\/markdown/)],
        ['/the-slow-web', { headers: { authorization: 'Bearer x' } }, (r) => assert.match(r.headers.get('www-authenticate')!, /^Bearer error="invalid_token"/)],
        ['/media/tidal-energy/tide.mp4', { headers: { range: 'bytes=0-9' } }, (r) => assert.equal(r.status, 206)],
        ['/no-such-page', {}, (r) => assert.equal(r.status, 404)],
        ['/the-slow-web.v-html', {}, (r) => assert.equal(r.status, 404, 'a stored name is not a URL')],
        ['/fr', {}, (r) => assert.equal(r.headers.get('location'), '/fr/')],
        ['/?q=%zz', {}, (r) => assert.equal(r.status, 400)],
      ];
      for (const [path, init, check] of cases) {
        const r = await fetch(front.url + path, { ...init, headers: { ...IDENTITY, ...(init.headers as Record<string, string>) }, redirect: 'manual' });
        await r.arrayBuffer();
        check(r);
        assert.equal(r.headers.get('access-control-allow-origin'), '*', path);
        if (/json/.test(r.headers.get('content-type') ?? '')) assert.ok(r.headers.has('x-ratelimit-limit'), `Node counted ${path}`);
      }
      const preflight = await fetch(`${front.url}/api/posts`, { method: 'OPTIONS' });
      assert.equal(preflight.status, 204);
      assert.match(preflight.headers.get('access-control-allow-headers')!, /Authorization/);
    });

    test(`${name}'s own answer while Node is down: a JSON 503 {error} with Retry-After, no-store, CORS and the security headers`, async () => {
      // Port 9 (discard) on loopback: nothing listens, so every request to Node fails.
      const orphan = await startFront(name, 'http://127.0.0.1:9');
      try {
        const asks: [string, RequestInit][] = [
          ['/api/posts', {}],
          ['/api/search?q=web', { headers: { accept: 'application/json' } }],
          ['/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query":"{posts{title}}"}' }],
          ['/status', {}],
          ['/no-such-page', {}],
        ];
        for (const [path, init] of asks) {
          const r = await fetch(`${orphan.url}${path}`, init);
          const body = await r.text();
          assert.equal(r.status, 503, `${path}: ${body}`);
          assert.match(r.headers.get('content-type')!, /^application\/json/, path);
          assert.match((JSON.parse(body) as { error: string }).error, /not answering/, path);
          assert.equal(r.headers.get('retry-after'), '5', path);
          assert.equal(r.headers.get('cache-control'), 'no-store', path);
          assert.equal(r.headers.get('access-control-allow-origin'), '*', path);
          assert.equal(r.headers.get('x-content-type-options'), 'nosniff', path);
        }
        // The pages are the front's own files: still served.
        assert.equal((await fetch(`${orphan.url}/the-slow-web`)).status, 200);
      } finally {
        await orphan.stop();
      }
    });

    test('a new copy goes live by switching the site link, without a reload', async () => {
      const dir = await mkdtemp(join(tmpdir(), `folio-${name}-site-`));
      await chmod(dir, 0o755);
      const at = (copy: string) => join(dir, 'copies', copy);
      for (const [copy, text] of [['a', 'first build'], ['b', 'second build']] as const) {
        await mkdir(at(copy), { recursive: true });
        await writeFile(join(at(copy), 'swap-check.html'), text);
      }
      await symlink(join('copies', 'a'), join(dir, 'site'));
      const own = await startFront(name, node.url, join(dir, 'site'));
      try {
        assert.equal(await (await fetch(`${own.url}/swap-check`)).text(), 'first build');
        await symlink(join('copies', 'b'), join(dir, 'next'));
        await rename(join(dir, 'next'), join(dir, 'site'));
        const until = Date.now() + 5000;
        let body = '';
        while (Date.now() < until && (body = await (await fetch(`${own.url}/swap-check`)).text()) !== 'second build') await new Promise((r) => setTimeout(r, 100));
        assert.equal(body, 'second build');
      } finally {
        await own.stop();
        await rm(dir, { recursive: true, force: true });
      }
    });
  });
}
