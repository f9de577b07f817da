// `--target static` on a plain static server: dist/static served by Debian's nginx and Caddy with the
// configurations the build writes beside it (dist/static-hosts/nginx.conf, Caddyfile), nothing behind it.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildLayout, PUBLISH } from '../../src/artefact/roots.ts';
import { fileAt } from '../../src/artefact/client-files.ts';
import { liveManifest } from '../helpers/manifest.ts';
import { passOn } from '../helpers/child-output.ts';
import { RESULTS_SLOT } from '../../src/site/search-results.ts';

const SERVERS = {
  nginx: { config: 'nginx.conf', listen: /listen \S+;/, at: (port: number) => `listen 127.0.0.1:${port};`, args: (dir: string) => ['-p', dir, '-c', 'nginx.conf', '-g', 'daemon off;'], install: 'nginx' },
  caddy: { config: 'Caddyfile', listen: /^http:\/\/\S+ \{$/m, at: (port: number) => `http://127.0.0.1:${port} {`, args: (dir: string) => ['run', '--config', join(dir, 'Caddyfile'), '--adapter', 'caddyfile'], install: 'caddy' },
} as const;

for (const [name, server] of Object.entries(SERVERS)) {
const conf = join(PUBLISH.out, 'static-hosts', server.config);
const absent = spawnSync(name, ['version'], { stdio: 'ignore' }).error ? `${name} is not installed (apt-get install -y ${server.install})` : existsSync(conf) ? false : `${conf} is absent: run \`npm run build -- --target static\``;

describe(`the static target on a plain ${name}`, { skip: absent }, () => {
  let child: ChildProcess;
  let dir: string;
  let base: string;
  before(async () => {
    const listener = createServer().listen(0, '127.0.0.1');
    await once(listener, 'listening');
    const { port } = listener.address() as { port: number };
    await new Promise((r) => listener.close(r));
    dir = await mkdtemp(join(tmpdir(), `folio-static-${name}-`));
    await chmod(dir, 0o755);
    for (const d of ['logs', 'tmp']) await mkdir(join(dir, d));
    await writeFile(join(dir, server.config), (await readFile(conf, 'utf8')).replace(server.listen, server.at(port)));
    child = spawn(name, server.args(dir), { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, HOME: dir, XDG_DATA_HOME: dir, XDG_CONFIG_HOME: dir } });
    passOn(child.stdout!, `${name} ${child.pid}`);
    passOn(child.stderr!, `${name} ${child.pid}`);
    base = `http://127.0.0.1:${port}`;
    for (let i = 0; i < 200 && !(await fetch(`${base}/`).then(() => true, () => false)); i++) await new Promise((r) => setTimeout(r, 50));
  });
  after(async () => {
    if (child && child.exitCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  test('every published URL without a query answers its default representation with its type; a canonical query its _query file', async () => {
    const manifest = await liveManifest();
    const layout = buildLayout(await realpath(PUBLISH.current));
    let checked = 0;
    for (const [path, entry] of Object.entries(manifest.paths)) {
      for (const [query, answer] of Object.entries(entry.answers)) {
        const i = typeof answer === 'number' ? answer : answer[entry.offers![0]!]!;
        const file = manifest.files[i]!;
        const r = await fetch(base + (query ? `${path}?${query}` : path), { headers: { 'accept-encoding': 'identity' }, redirect: 'manual' });
        const body = await r.text();
        assert.equal(r.status, 200, `${path}?${query}`);
        assert.equal(r.headers.get('content-type'), file.type, `${path}?${query}`);
        assert.equal(r.headers.get('access-control-allow-origin'), '*');
        if (!body.includes('search-unavailable')) assert.equal(body, await readFile(fileAt(layout, manifest, file), 'utf8'), `${path}?${query}`);
        checked++;
      }
    }
    assert.ok(checked > 2000, `${checked} answers`);
  });

  test('/api/posts is JSON, a query not in canonical form is a 404, pages ignore queries, /en redirects, unknown paths get 404.html', async () => {
    const posts = await fetch(`${base}/api/posts`);
    assert.equal(posts.headers.get('content-type'), 'application/json; charset=utf-8');
    assert.ok(Array.isArray((await posts.json()).data));
    assert.equal((await fetch(`${base}/api/posts?lang=FR`)).status, 404, 'the static copy has canonical queries only');
    // dist/current/manifest.json, from dist/static/api/posts/_query/: a query never leads out of the root.
    assert.equal((await fetch(`${base}/api/posts?/../../../../current/manifest`)).status, 404, 'a query with a slash names no file');
    const page = await fetch(`${base}/the-slow-web?utm_source=x`);
    assert.equal(page.status, 200);
    assert.match(page.headers.get('content-type')!, /^text\/html/);
    // A client taking gzip and not br gets the gzip copy the target made (a build stores br alone).
    for (const coding of ['gzip']) {
      const coded = await fetch(`${base}/the-slow-web`, { headers: { 'accept-encoding': coding } });
      assert.equal(coded.headers.get('content-encoding'), coding, coding);
      assert.equal(await coded.text(), await (await fetch(`${base}/the-slow-web`, { headers: { 'accept-encoding': 'identity' } })).text(), `${coding} decodes to the page`);
    }
    const moved = await fetch(`${base}/en/the-slow-web`, { redirect: 'manual' });
    assert.equal(moved.status, 301);
    assert.match(moved.headers.get('location')!, /\/the-slow-web$/);
    const missing = await fetch(`${base}/no-such-page`);
    assert.equal(missing.status, 404);
    assert.equal(missing.headers.get('access-control-allow-origin'), '*');
    assert.equal(await missing.text(), await readFile(join(PUBLISH.out, 'static', '404.html'), 'utf8'));
    const catalog = await fetch(`${base}/.well-known/api-catalog`);
    assert.match(catalog.headers.get('content-type')!, /^application\/linkset\+json/);
    assert.match(catalog.headers.get('link')!, /rel="api-catalog"/);
  });

  test('the search page says, in its language, that search needs the server, and shows no form that never answers', async () => {
    for (const [path, words] of [['/search', /Search needs the site&#39;s server/], ['/fr/search', /a besoin du serveur/], ['/ja/search', /サーバー/]] as const) {
      const html = await (await fetch(base + path)).text();
      assert.match(html, words, path);
      assert.ok(!html.includes(RESULTS_SLOT), path);
      assert.match(html, /<form role="search" class="search" hidden/, path);
    }
    const br = await fetch(`${base}/fr/search`, { headers: { 'accept-encoding': 'br' } });
    assert.match(await br.text(), /a besoin du serveur/, 'its precompressed variants say it too');
  });
});
}
