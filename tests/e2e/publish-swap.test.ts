import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cp, mkdtemp, readFile, readdir, readlink, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type RunningServer } from '../helpers/server.ts';
import type { Manifest } from '../../src/artefact/manifest.ts';
import { liveManifest } from '../helpers/manifest.ts';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';

/** A legacy MCP SSE session: it stays on the build it opened on. */
async function mcpSession(url: string) {
  const client = new Client({ name: 'folio-publish-test', version: '1.0.0' });
  await client.connect(new SSEClientTransport(new URL(`${url}/mcp/sse`)));
  return {
    async firstSlug(): Promise<string> {
      const result = (await client.callTool({ name: 'list_posts', arguments: {} })) as unknown as { structuredContent: { data: { slug: string }[] } };
      return result.structuredContent.data[0]!.slug;
    },
    close: () => client.close(),
  };
}

/**
 * Publishing while a server runs: a broken build changes nothing readers get; a good one goes
 * live on every surface within 2 seconds, without a restart, and no answer mixes two builds.
 */
let dir: string;
let out: string;
let content: string;
let server: RunningServer;

function build(...args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['scripts/build.ts', ...args], { env: { ...process.env, FOLIO_CONTENT: content, FOLIO_OUT: out }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.on('exit', (code) => resolve({ code, output }));
  });
}

const manifestOf = async (): Promise<Manifest> => liveManifest(await realpath(join(out, 'current')));

/** The identity ETags a build publishes for a request target. */
function etagsOf(m: Manifest, target: string): Set<string> {
  const [path, query = ''] = target.split('?');
  const answer = m.paths[path!]?.answers[query];
  const ids = answer === undefined ? [] : typeof answer === 'number' ? [answer] : Object.values(answer);
  return new Set(ids.map((i) => m.files[i]!.etag));
}

const PUBLISHED = ['/', '/feed.xml', '/api/posts', '/api/posts?lang=es', '/api/posts/the-slow-web?lang=es', '/the-slow-web', '/sitemap.xml', '/llms.txt', '/es/'];
const COMPUTED = ['/api/posts?per_page=50', '/api/search?q=web'];

interface Seen {
  target: string;
  status: number;
  etag: string | null;
  body: string;
}

/** Readers asking for every target, over and over, until stopped. */
function readers(url: string) {
  const seen: Seen[] = [];
  let running = true;
  const loops = [...PUBLISHED, ...COMPUTED].map(async (target) => {
    while (running) {
      const r = await fetch(url + target, { headers: { 'accept-encoding': 'identity' } });
      seen.push({ target, status: r.status, etag: r.headers.get('etag'), body: await r.text() });
    }
  });
  return {
    seen,
    /** Every target read at least once (a fixed wait is too short on a loaded machine). */
    async ready() {
      while (![...PUBLISHED, ...COMPUTED].every((t) => seen.some((s) => s.target === t))) await new Promise((r) => setTimeout(r, 50));
    },
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

/** How long the first (whole) build of this run took. */
let firstBuildMs = 0;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'folio-publish-'));
  out = join(dir, 'dist');
  content = join(dir, 'content');
  await cp('content', content, { recursive: true });
  const started = performance.now();
  const first = await build();
  firstBuildMs = performance.now() - started;
  assert.equal(first.code, 0, first.output);
  server = await startServer({ FOLIO_OUT: out, RATE_LIMIT: '0' });
});

after(async () => {
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('publishing while serving', () => {
  test('a build with nothing changed keeps the live build (it would be byte-identical) and takes a blink', async () => {
    const link = await readlink(join(out, 'current'));
    const started = performance.now();
    const again = await build();
    assert.equal(again.code, 0, again.output);
    assert.match(again.output, new RegExp(`no change since build ${link.split(/[/\\]/).pop()}: it stays live`));
    assert.equal(await readlink(join(out, 'current')), link);
    // Against the whole first build of the same run, so a slow or busy machine does not fail it.
    const ms = performance.now() - started;
    assert.ok(ms < firstBuildMs / 3, `${Math.round(ms)} ms, against ${Math.round(firstBuildMs)} ms for the first build`);
  });

  test('a failed build exits 1, leaves the live build byte for byte, and readers never notice', async () => {
    const link = await readlink(join(out, 'current'));
    const manifest = await readFile(join(out, 'current', 'manifest.json'));
    const buildsBefore = await readdir(join(out, 'builds'));
    const loop = readers(server.url);
    await loop.ready();
    const first = new Map(loop.seen.map((s) => [s.target, s.body]));
    const post = join(content, 'posts', 'the-slow-web', 'en.md');
    const good = await readFile(post, 'utf8');
    const other = join(content, 'posts', 'tidal-energy', 'en.md');
    const otherGood = await readFile(other, 'utf8');
    await writeFile(post, good.replace(/^title: .*$/m, 'title: "unterminated'));
    await writeFile(other, otherGood.replace(/^date: .*$/m, 'date: 2026-02-30'));
    const failed = await build();
    const verbose = await build('--verbose');
    await writeFile(post, good);
    await writeFile(other, otherGood);
    await new Promise((r) => setTimeout(r, 600)); // longer than the server's look at the link
    await loop.stop();
    assert.equal(failed.code, 1, failed.output);
    assert.match(failed.output, /the-slow-web[/\\]en\.md:\d+: front matter is not valid YAML: /, 'the error names the file and line');
    // Every error at once, one line each, no stack trace (unless --verbose).
    assert.match(failed.output, /tidal-energy[/\\]en\.md:3: date: must be a real date or timestamp in ISO 8601, e\.g\. date: 2026-01-31T08:00:00Z \(got "2026-02-30"\)\n/);
    assert.match(failed.output, /^2 content errors$/m);
    assert.doesNotMatch(failed.output, /\n\s+at /, 'no stack trace');
    assert.match(verbose.output, /\n\s+at /, '--verbose shows where');
    assert.equal(verbose.code, 1);
    assert.match(failed.output, /live build is unchanged/);
    assert.equal(await readlink(join(out, 'current')), link);
    assert.ok((await readFile(join(out, 'current', 'manifest.json'))).equals(manifest));
    assert.deepEqual(await readdir(join(out, 'builds')), buildsBefore, 'the failed build left no folder');
    assert.ok(loop.seen.length > 50, `${loop.seen.length} reads`);
    for (const s of loop.seen) {
      assert.ok(s.status < 500, `${s.target}: ${s.status}`);
      if (PUBLISHED.includes(s.target)) assert.equal(s.body, first.get(s.target), s.target);
    }
  });

  test('a good build with a new post is seen by every surface within 2 seconds, and no answer mixes builds', async () => {
    const old = await manifestOf();
    const session = await mcpSession(server.url);
    const before = await session.firstSlug();
    const loop = readers(server.url);
    // A failed assertion must not leave the readers and the session running (the file would never end).
    try {
      // The new essay: a copy of one (so its translations stay current), dated newest.
      const fresh = join(content, 'posts', 'a-new-essay');
      await cp(join(content, 'posts', 'the-slow-web'), fresh, { recursive: true });
      const en = join(fresh, 'en.md');
      await writeFile(en, (await readFile(en, 'utf8')).replace(/^date: .*$/m, 'date: 2026-11-20T08:00:00Z'));
      const built = await build('--timings');
      const published = Date.now();
      assert.equal(built.code, 0, built.output);
      // The phase table: every phase with its wall time and share, then the total.
      for (const phase of ['content -> bundles', 'pages (Astro)', 'publish: API answers', 'publish: manifest', 'go live', 'total']) {
        // A phase run in the answers process says which phase it ran beside.
        assert.match(built.output, new RegExp(`^${phase.replace(/[()]/g, '\\$&')}.*\\s\\d+\\.\\d\\d s\\s+\\d+ %( {2}\\(beside pages \\(Astro\\)\\))?$`, 'm'), phase);
      }
      const checks: [string, RequestInit, (text: string, status: number) => boolean][] = [
        ['/api/posts', {}, (t) => (JSON.parse(t) as { data: { slug: string }[] }).data[0]?.slug === 'a-new-essay'],
        ['/api/posts/a-new-essay?lang=es', {}, (_, status) => status === 200],
        ['/a-new-essay', {}, (t, status) => status === 200 && t.includes('<html')],
        ['/es/a-new-essay', { headers: { accept: 'application/json' } }, (t, status) => status === 200 && t.includes('"slug":"a-new-essay"')],
        ['/', {}, (t) => t.includes('href="/a-new-essay"')],
        ['/feed.xml', {}, (t) => t.includes('/a-new-essay</link>')],
        ['/es/feed.xml', {}, (t) => t.includes('/es/a-new-essay</link>')],
        ['/sitemap.xml', {}, (t) => t.includes('/a-new-essay</loc>')],
        ['/llms.txt', {}, (t) => t.includes('/a-new-essay')],
        ['/api/search?q=slow', {}, (t) => t.includes('"slug":"a-new-essay"')],
        ['/graphql?query=%7Bpost(slug%3A%22a-new-essay%22)%7Bslug%7D%7D', {}, (t) => t.includes('"slug":"a-new-essay"')],
      ];
      const pending = new Set(checks.map((c) => c[0]));
      while (pending.size > 0 && Date.now() - published < 5000) {
        for (const [target, init, ok] of checks) {
          if (!pending.has(target)) continue;
          const r = await fetch(server.url + target, init);
          if (ok(await r.text(), r.status)) pending.delete(target);
        }
      }
      const took = Date.now() - published;
      await new Promise((r) => setTimeout(r, 200));
      await loop.stop();
      assert.deepEqual([...pending], [], 'every surface shows the new post');
      assert.ok(took <= 2000, `seen everywhere ${took} ms after the build finished`);
      const now = await manifestOf();
      assert.notEqual(now.build, old.build);
      for (const s of loop.seen) {
        assert.ok(s.status < 500, `${s.target}: ${s.status}`);
        if (!PUBLISHED.includes(s.target)) continue;
        // Each answer is one build's published bytes, old or new, never a mix or a stray.
        assert.ok(etagsOf(old, s.target).has(s.etag!) || etagsOf(now, s.target).has(s.etag!), `${s.target} answered ${s.etag}`);
      }
      assert.ok(loop.seen.some((s) => s.target === '/api/posts' && etagsOf(now, '/api/posts').has(s.etag!)), 'readers saw the new build');
      assert.match(server.output(), new RegExp(`now serving build ${now.build}`));
      // A session under way finishes on the build it began with; a new one sees the new build.
      assert.equal(await session.firstSlug(), before);
      await session.close();
      const fresh2 = await mcpSession(server.url);
      assert.equal(await fresh2.firstSlug(), 'a-new-essay');
      await fresh2.close();
    } finally {
      await loop.stop();
      await session.close();
    }
  });
});
