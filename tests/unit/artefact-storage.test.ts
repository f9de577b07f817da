import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { cachedStore, httpStore, type ArtefactStore } from '../../src/artefact/storage.ts';
import { diskStore } from '../../src/artefact/disk-store.ts';
import { appSettings } from '../../src/app/settings.ts';

/** A store of `n`-byte files named by their size ('100' is 100 bytes), counting the reads that reach it. */
function counted() {
  const reads: string[] = [];
  const store: ArtefactStore = {
    async get(path) {
      reads.push(path);
      if (path === 'absent') return null;
      if (path === 'broken') throw new Error('store away');
      return new Uint8Array(Number(path));
    },
  };
  return { store, reads };
}

test('the artefact cache: least recently used out first, by bytes, never over its bound', async () => {
  const { store, reads } = counted();
  // Room for about two 1,000-byte files (each entry also costs its key and bookkeeping).
  const cache = cachedStore(store, 2500);
  await cache.get('1000');
  await cache.get('1001');
  await cache.get('1000'); // kept: no read; now the most recent
  assert.deepEqual(reads, ['1000', '1001']);
  await cache.get('1002'); // 1001, the least recently used, goes
  assert.ok(cache.held <= 2500, `${cache.held} bytes held`);
  await cache.get('1000');
  assert.deepEqual(reads, ['1000', '1001', '1002']);
  await cache.get('1001');
  assert.deepEqual(reads, ['1000', '1001', '1002', '1001']);
  // A file larger than the bound is read every time, and evicts nothing.
  const before = cache.held;
  await cache.get('5000');
  await cache.get('5000');
  assert.equal(reads.filter((r) => r === '5000').length, 2);
  assert.equal(cache.held, before);
});

test('the artefact cache: one read for concurrent gets, absent files kept, failed reads tried again', async () => {
  const { store, reads } = counted();
  const cache = cachedStore(store, 1 << 20);
  const [a, b] = await Promise.all([cache.get('10'), cache.get('10')]);
  assert.equal(a, b);
  assert.equal(await cache.get('absent'), null);
  assert.equal(await cache.get('absent'), null);
  await assert.rejects(cache.get('broken'), /store away/);
  await assert.rejects(cache.get('broken'), /store away/);
  assert.deepEqual(reads, ['10', 'absent', 'broken', 'broken']);
});

test('ARTEFACT_CACHE_MB sets the bound: 128 MB unless given', () => {
  assert.equal(appSettings({}).artefactCacheBytes, 128 * 1024 * 1024);
  assert.equal(appSettings({ ARTEFACT_CACHE_MB: '16' }).artefactCacheBytes, 16 * 1024 * 1024);
  assert.throws(() => appSettings({ ARTEFACT_CACHE_MB: 'lots' }), /ARTEFACT_CACHE_MB must be an integer/);
});

test('the artefact over HTTP: bytes, null for a 404, an error for any other failure', async (t) => {
  const server = createServer((req, res) => {
    if (req.url === '/a/x/bundle/main/catalog%20copy.json') return res.end('{"ok":true}');
    res.statusCode = req.url === '/a/x/fails' ? 503 : 404;
    res.end('no');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.after(() => server.close());
  const store = httpStore(() => `http://127.0.0.1:${(server.address() as AddressInfo).port}/a/x`);
  assert.equal(Buffer.from((await store.get('bundle/main/catalog copy.json'))!).toString(), '{"ok":true}');
  assert.equal(await store.get('bundle/main/none.json'), null);
  await assert.rejects(store.get('fails'), /answered 503/);
});

test('the artefact on disk: bytes by path in the build folder, null when absent', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'folio-store-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  await mkdir(join(dir, 'bundle', 'main'), { recursive: true });
  await writeFile(join(dir, 'bundle', 'main', 'catalog.json'), '{}');
  const store = diskStore(dir);
  assert.equal(Buffer.from((await store.get('bundle/main/catalog.json'))!).toString(), '{}');
  assert.equal(await store.get('bundle/main/none.json'), null);
  assert.equal(await store.get('bundle/main/catalog.json/below'), null);
});
