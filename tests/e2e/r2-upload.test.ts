import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DIST, PUBLISH, ROOTS } from '../../src/artefact/roots.ts';
import { filesUnder } from '../../src/fs/files-under.ts';
import { writeCloudflare } from '../../src/pipeline/targets/cloudflare.ts';
import { withLocalR2 } from '../../scripts/local-r2.ts';
import { runGroup } from '../helpers/process-group.ts';
import { startServer } from '../helpers/server.ts';

// `npm run upload:r2`: the R2 part of a Workers project past the assets' file limit put into its
// bucket with wrangler's bulk put, resumable by its journal. Run against wrangler's local R2 (the
// one `wrangler dev --persist-to` runs): never the network.
const built = existsSync(join(PUBLISH.out, 'current'));
const skip = built ? false : 'run `npm run build` first';

/** `npm run upload:r2 -- <args>`: its exit code and output (killed with its wranglers at the deadline: a batch of wrangler is seconds, the machine is loaded). */
async function upload(args: string[], deadlineMs = 240_000) {
  return runGroup(process.execPath, ['scripts/upload-r2.ts', ...args], deadlineMs);
}

/** Every object of the local bucket: its key and ETag. */
const listed = (persistTo: string) =>
  withLocalR2(persistTo, async (bucket) => {
    const objects = new Map<string, string>();
    let cursor: string | undefined;
    do {
      const page = await bucket.list({ cursor, limit: 1000 });
      for (const o of page.objects) objects.set(o.key, o.etag);
      cursor = page.truncated ? page.cursor : undefined;
    } while (cursor);
    return objects;
  });

/** Each file under `dir` by its key, with the MD5 of its bytes (R2's ETag of a single put). */
async function expected(dir: string) {
  const md5 = new Map<string, string>();
  for (const name of filesUnder(dir)) md5.set(name.slice(1), createHash('md5').update(await readFile(join(dir, name))).digest('hex'));
  return md5;
}

describe('npm run upload:r2 against the local R2', { skip }, () => {
  let dir: string;
  let r2: string;
  let state: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'folio-r2-upload-'));
    r2 = join(dir, 'project', 'r2');
    state = join(dir, 'state');
    await writeCloudflare(DIST, ROOTS.map((r) => r.name), join(dir, 'project'), { negotiate: false, maxAssets: 400 });
  });
  after(() => rm(dir, { recursive: true, force: true }));

  test('puts every object with its key and bytes, in batches; a second run puts nothing; a run cut short is resumed', { timeout: 900_000 }, async () => {
    const files = await expected(r2);
    assert.ok(files.size > 500, `${files.size} objects: several batches`);
    const args = ['--dir', r2, '--local', '--persist-to', state, '--batch', '300', '--concurrency', '4'];
    const first = await upload(args);
    assert.equal(first.code, 0, first.out);
    assert.match(first.out, new RegExp(`0 already in .*; ${files.size} to put`));
    assert.deepEqual(await listed(state), files, 'each key with the ETag of its bytes');

    const again = await upload(args);
    assert.equal(again.code, 0, again.out);
    assert.match(again.out, new RegExp(`${files.size} already in .*; 0 to put`));

    // A rebuild changed one object; a run stopped before its last batch was journalled left 50 more unrecorded.
    const journal = join(state, 'r2-put-folio-artefact.jsonl');
    const lines = (await readFile(journal, 'utf8')).trimEnd().split('\n');
    await writeFile(journal, `${lines.slice(0, -50).join('\n')}\n{"key":"cut sh`);
    const changed = '_folio/manifest.json';
    await writeFile(join(r2, changed), `${await readFile(join(r2, changed), 'utf8')}\n`);
    const resumed = await upload(args);
    assert.equal(resumed.code, 0, resumed.out);
    const unrecorded = new Set([...lines.slice(-50).map((l) => (JSON.parse(l) as { key: string }).key), changed]);
    assert.match(resumed.out, new RegExp(`; ${unrecorded.size} to put`));
    assert.deepEqual(await listed(state), await expected(r2), 'the changed object replaced');
  });

  test('the worker serves the build from the bucket it filled: a page past the limit, the API, a search', { timeout: 300_000 }, async () => {
    // After the test above: the bucket holds the project's R2 part, and the project has no r2/ folder
    // left for the preview to fill a bucket of its own from.
    const page = filesUnder(join(r2, '_folio/site')).find((n) => n.endsWith('.html') && !n.endsWith('/index.html') && !n.includes('_not-found'))!;
    await rename(r2, join(dir, 'r2-uploaded'));
    const worker = await startServer({ RATE_LIMIT: '0', FOLIO_CLOUDFLARE_DIR: join(dir, 'project'), FOLIO_PREVIEW_STATE: state }, 'cloudflare');
    try {
      // A page the assets do not hold (`/x` is the file `/x.html`).
      for (const path of [page.slice(0, -'.html'.length), '/api/posts/the-slow-web', '/api/search?q=tide']) {
        const res = await fetch(worker.url + path);
        await res.arrayBuffer();
        assert.equal(res.status, 200, path);
      }
    } finally {
      await worker.stop();
    }
  });
});
