import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { existsSync } from 'node:fs';
import { goLive, HOLDERS_FILE, liveBuild, newBuildId, prepareBuildDir, pruneBuilds, purgeOldBuilds, removeOldBuilds } from '../../src/pipeline/live/go-live.ts';
import { filesUnder } from '../../src/fs/files-under.ts';
import { saveManifest } from '../../src/artefact/client-files.ts';
import { MANIFEST_VERSION } from '../../src/artefact/manifest.ts';
import { answerFile } from '../../src/pipeline/publish/answer-file.ts';
import { canonicalQuery } from '../../src/core/params.ts';
import { chooseEncoding, encodedEtag } from '../../src/app/encoding.ts';
import { routeIndex } from '../../functions/route-index.ts';
import { etagOf as webEtag } from '../../functions/etag.ts';
import { etagOf as nodeEtag } from '../../src/pipeline/publish/file-etag.ts';
import { codingPool } from '../../src/pipeline/publish/codings.ts';
import { brotliDecompressSync } from 'node:zlib';

const q = (s: string) => new URLSearchParams(s);

test('canonical queries: defaults dropped, fixed order, language matched, only the shape\'s parameters', () => {
  assert.equal(canonicalQuery('list', q('')), '');
  assert.equal(canonicalQuery('list', q('page=1&per_page=10&lang=en')), '');
  assert.equal(canonicalQuery('list', q('per_page=20&page=2&fallback=en&lang=PT-BR&x=1')), 'lang=pt-br&fallback=en&page=2&per_page=20');
  assert.equal(canonicalQuery('content', q('lang=fr&page=3')), 'lang=fr', 'detail ignores paging');
  assert.equal(canonicalQuery('lang', q('lang=fr&fallback=nope')), 'lang=fr', 'a lang-only answer ignores fallback');
  assert.equal(canonicalQuery('none', q('lang=xx')), '');
  for (const bad of ['page=01', 'page=0', 'per_page=101', 'lang=xx', 'fallback=fr']) assert.throws(() => canonicalQuery('list', q(bad)), bad);
});

test('answer files: the path when it names a file, index.<ext> otherwise, the query under _query/', () => {
  const json = 'application/json; charset=utf-8';
  assert.equal(answerFile('/api/posts', '', json), '/api/posts/index.json');
  assert.equal(answerFile('/api/posts', 'lang=fr&page=2', json), '/api/posts/_query/lang=fr&page=2.json');
  assert.equal(answerFile('/openapi.json', '', json), '/openapi.json');
  assert.equal(answerFile('/mcp/docs', '', 'text/markdown; charset=utf-8'), '/mcp/docs/index.md');
  assert.equal(answerFile('/.well-known/api-catalog', '', 'application/linkset+json; profile="x"'), '/.well-known/api-catalog/index.json');
});

test('content coding: brotli first, q-values and * honoured, only what exists', () => {
  const both = { br: true, gzip: true };
  assert.equal(chooseEncoding(undefined, both), 'identity');
  assert.equal(chooseEncoding('gzip, deflate, br', both), 'br');
  assert.equal(chooseEncoding('gzip, deflate, br', { br: false, gzip: true }), 'gzip');
  assert.equal(chooseEncoding('br;q=0.1, gzip', both), 'gzip');
  assert.equal(chooseEncoding('br;q=0, gzip;q=0', both), 'identity');
  assert.equal(chooseEncoding('*;q=0.5', both), 'br');
  assert.equal(chooseEncoding('identity', both), 'identity');
  assert.equal(encodedEtag('"abc"', 'br'), '"abc-br"');
  assert.equal(encodedEtag('"abc"', 'gzip'), '"abc-gz"');
});

test('the Web and Node ETags of the same bytes agree', async () => {
  for (const text of ['', 'x', '{"a":1}', 'é'.repeat(1000)]) {
    const bytes = new TextEncoder().encode(text);
    assert.equal(await webEtag(bytes), nodeEtag(bytes));
  }
});

test('the route index tries only fitting patterns and keeps table order', () => {
  const routes = [{ path: '/api/posts' }, { path: '/api/posts/:slug' }, { path: '/en/*rest' }, { path: '/:slug' }, { path: '/:lang/:slug' }, { path: '/:lang/llms.txt' }];
  const index = routeIndex(routes);
  const paths = (p: string) => index.match(p, () => true).map((m) => `${m.route.path} ${JSON.stringify(m.params)}`);
  assert.deepEqual(paths('/api/posts'), ['/api/posts {}', '/:lang/:slug {"lang":"api","slug":"posts"}']);
  assert.deepEqual(paths('/api/posts/x'), ['/api/posts/:slug {"slug":"x"}']);
  assert.deepEqual(paths('/en/a/b/c'), ['/en/*rest {"rest":"a/b/c"}']);
  assert.deepEqual(paths('/fr/llms.txt'), ['/:lang/:slug {"lang":"fr","slug":"llms.txt"}', '/:lang/llms.txt {"lang":"fr"}']);
  assert.deepEqual(paths(`/${'a/'.repeat(50)}`), []);
  assert.deepEqual(paths('/x'), ['/:slug {"slug":"x"}']);
});

test('a build kept only because a kept build holds files in its folder is emptied of everything else', async () => {
  const out = await mkdtemp(join(tmpdir(), 'folio-builds-'));
  try {
    const ids = ['20260101T000000000Z-a', '20260102T000000000Z-b', '20260103T000000000Z-c', '20260104T000000000Z-d', '20260105T000000000Z-e'];
    const put = async (file: string, text = 'x') => {
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, text);
    };
    const file = (name: string, held?: number, variants = false) => ({ file: name, type: 'text/html', etag: '"x"', length: 1, cacheControl: 'no-store', ...(variants ? { br: 1, gzip: 1 } : {}), ...(held === undefined ? {} : { held }) });
    for (const id of ids) {
      // Each build holds a page and its variants, an answer, a bundle file and its manifest.
      for (const name of ['/p.html', '/p.html.br', '/p.html.gz', '/api/x/index.json']) await put(join(out, 'builds', id, 'site', 'client', name));
      await put(join(out, 'builds', id, 'bundle', 'main', 'catalog.json'));
      // The live build takes the page (and its variants) from the first build, its answer from the second.
      const files = id === ids[4] ? [file('/p.html', 0, true), file('/api/x/index.json', 1)] : [file('/p.html', undefined, true)];
      const paths = Object.fromEntries(files.map((f, i) => [f.file, { query: 'none' as const, answers: { '': i } }]));
      await saveManifest(join(out, 'builds', id), { version: MANIFEST_VERSION, build: id, created: '', limits: { rateLimit: 0, rateWindowSeconds: 1, bodyLimit: 1 }, configDependent: [], files, holders: id === ids[4] ? [ids[0]!, ids[1]!] : [], paths, notFound: {}, unavailable: {} });
      if (id === ids[4]) await put(join(out, 'builds', id, HOLDERS_FILE), JSON.stringify([ids[0], ids[1]]));
    }
    for (const id of ids) await goLive(out, id);
    assert.deepEqual(await removeOldBuilds(out), [], 'the two older builds hold files of the live one');
    await pruneBuilds(out);
    assert.deepEqual(filesUnder(join(out, 'builds', ids[0]!)).sort(), ['/site/client/p.html', '/site/client/p.html.br', '/site/client/p.html.gz']);
    assert.deepEqual(filesUnder(join(out, 'builds', ids[1]!)).sort(), ['/site/client/api/x/index.json']);
    assert.ok(!existsSync(join(out, 'builds', ids[0]!, 'site', 'client', 'api')), 'folders left empty are removed');
    for (const id of ids.slice(2)) assert.ok(existsSync(join(out, 'builds', id, 'bundle', 'main', 'catalog.json')), `${id} is kept whole`);
  } finally {
    await rm(out, { recursive: true, force: true });
  }
});

test('the purge process left by a build sweeps the codings cache of what the build did not use, once they outnumber what it used', async () => {
  const out = await mkdtemp(join(tmpdir(), 'folio-purge-'));
  try {
    const dir = join(out, 'codings');
    await mkdir(dir);
    const used = ['a1', 'b2'];
    for (const d of used) await writeFile(join(dir, `${d}.br`), 'x');
    for (let i = 0; i < 1100; i++) await writeFile(join(dir, `old${i}.gz`), 'x');
    const usedFile = join(out, 'codings.used.json');
    await writeFile(usedFile, JSON.stringify(used));
    purgeOldBuilds(out, { dir, usedFile });
    for (let waited = 0; existsSync(usedFile) || (await readdir(dir)).length > used.length; waited += 50) {
      assert.ok(waited < 10_000, 'the purge process sweeps within 10 s');
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.deepEqual((await readdir(dir)).sort(), ['a1.br', 'b2.br']);
  } finally {
    await rm(out, { recursive: true, force: true });
  }
});

test('builds go live by one switch; kept: the live one, the two live before it, those running; every other is removed', async () => {
  const out = await mkdtemp(join(tmpdir(), 'folio-builds-'));
  try {
    const ids = ['20260101T000000000Z-a', '20260102T000000000Z-b', '20260103T000000000Z-c', '20260104T000000000Z-d', '20260105T000000000Z-e'];
    const make = async (id: string) => {
      await prepareBuildDir(out, id);
      await writeFile(join(out, 'builds', id, 'manifest.json'), '{}');
    };
    for (const id of ids.slice(0, 3)) {
      await make(id);
      await goLive(out, id);
    }
    // Builds that died (their process is gone): one mid-way, one complete that never went live.
    for (const id of ['20260103T100000000Z-x', ids[3]!]) {
      await make(id);
      await writeFile(join(out, 'builds', id, 'running.pid'), '2147483646');
    }
    // One still running (this process makes it), and one complete about to go live.
    const running = newBuildId();
    await prepareBuildDir(out, running);
    await assert.rejects(goLive(out, running), /incomplete/);
    await make(ids[4]!);
    assert.deepEqual((await removeOldBuilds(out)).sort(), ['20260103T100000000Z-x', ids[3]].sort());
    assert.deepEqual((await readdir(join(out, 'builds'))).sort(), [ids[0], ids[1], ids[2], ids[4], running].sort());
    await goLive(out, ids[4]!);
    assert.equal(await liveBuild(out), ids[4]);
    assert.deepEqual(await removeOldBuilds(out), [ids[0]], 'the live build, the two live before it and the running one stay');
    // The live build keeps files in an older build's folder (an incremental build): that one stays while it is kept.
    await make('20260106T000000000Z-f');
    await writeFile(join(out, 'builds', '20260106T000000000Z-f', HOLDERS_FILE), JSON.stringify([ids[1]]));
    await goLive(out, '20260106T000000000Z-f');
    assert.deepEqual(await removeOldBuilds(out), []);
    await make('20260107T000000000Z-g');
    await goLive(out, '20260107T000000000Z-g');
    assert.deepEqual(await removeOldBuilds(out), [ids[2]], `${ids[1]} holds files of a kept build`);
  } finally {
    await rm(out, { recursive: true, force: true });
  }
});

test('codings: the pool thread gives back the asked-for codings, decoding to the body', async () => {
  const body = new TextEncoder().encode('<p>A long field, walked slowly. </p>\n'.repeat(400));
  const pool = codingPool(1);
  const [br] = await pool.code(body, ['br']);
  assert.deepEqual(new Uint8Array(brotliDecompressSync(br!)), body);
  assert.ok(br!.byteLength < body.byteLength / 10, `br ${br!.byteLength} bytes of ${body.byteLength}`);
  assert.deepEqual((await pool.code(body, ['br']))[0], br, 'the same body codes to the same bytes');
});
