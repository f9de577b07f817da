import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { get, useServer } from '../helpers/server.ts';
import { DIST } from '../../src/build/roots.ts';
import { apiFile } from '../../src/build/emit/publisher.ts';

const site = useServer();

/** The static files a plain host would serve are the same bytes the server computes at run time. */
test('every static API file equals the runtime answer for the same request', async () => {
  const paths = ['/api/posts', '/mcp/v1/posts', '/api/languages', '/api/site', '/api/categories', '/api/tags', '/api/products/the-value-layer'];
  const posts = (await get(site.url, '/api/posts?per_page=100')).json.data as { slug: string }[];
  for (const p of posts) paths.push(`/api/posts/${p.slug}`);
  for (const kind of ['categories', 'tags']) {
    for (const t of (await get(site.url, `/api/${kind}`)).json.data as { slug: string }[]) paths.push(`/api/${kind}/${t.slug}`);
  }
  for (const prefix of ['', '/sandbox']) {
    for (const path of prefix ? paths.slice(0, 7) : paths) {
      const file = await readFile(join(DIST.client, apiFile(prefix + path)), 'utf8');
      const live = await get(site.url, prefix + path);
      assert.equal(live.status, 200, prefix + path);
      assert.equal(file, live.text, prefix + path);
    }
  }
});
