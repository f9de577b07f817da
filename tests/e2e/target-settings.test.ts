import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runGroup } from '../helpers/process-group.ts';

/**
 * A host project's settings from the environment (FOLIO_WORKERS_NEGOTIATE for Workers) are part of
 * what "no change since build" compares: changed, the project is written again from the live build;
 * the same, it is left as it is.
 */
let dir: string;
const env = () => ({ ...process.env, FOLIO_CONTENT: join(dir, 'content'), FOLIO_OUT: join(dir, 'dist'), FOLIO_CACHE: join(dir, 'cache') });
// A demo build with the Workers project takes about a minute on a loaded 2-core machine; five allowed.
const build = (extra: Record<string, string> = {}) => runGroup(process.execPath, ['scripts/build.ts', '--target', 'cloudflare'], 300_000, { env: { ...env(), ...extra } });
const wrangler = () => join(dir, 'dist', 'cloudflare', 'wrangler.jsonc');
const workerFirst = async () => (JSON.parse((await readFile(wrangler(), 'utf8')).replace(/^\/\/.*$/gm, '')) as { assets: { run_worker_first: string[] } }).assets.run_worker_first;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'folio-target-settings-'));
  await cp('content', join(dir, 'content'), { recursive: true });
});
after(async () => {
  await rm(dir, { recursive: true, force: true });
});

test('a Workers project is written again when FOLIO_WORKERS_NEGOTIATE changed and nothing else did, and left alone when it did not', async () => {
  const first = await build({ FOLIO_WORKERS_NEGOTIATE: '' });
  assert.equal(first.code, 0, first.out);
  assert.notEqual((await workerFirst())[0], '/*', 'by default pages are served by the assets without the worker');

  const negotiating = await build({ FOLIO_WORKERS_NEGOTIATE: '1' });
  assert.equal(negotiating.code, 0, negotiating.out);
  assert.match(negotiating.out, /no change since build/);
  assert.equal((await workerFirst())[0], '/*', 'the project written again: the worker runs first on page URLs');

  const written = statSync(wrangler()).mtimeMs;
  const same = await build({ FOLIO_WORKERS_NEGOTIATE: '1' });
  assert.equal(same.code, 0, same.out);
  assert.match(same.out, /no change since build/);
  assert.equal(statSync(wrangler()).mtimeMs, written, 'the same settings: the project is not written again');
});
