import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { startServer, type RunningServer } from '../helpers/server.ts';
import { gql } from '../helpers/graphql.ts';

/**
 * Drafts and scheduled posts on a temporary content root, through the real commands and the real
 * server: a draft post, a draft translation and a post dated ahead are on no surface of a published
 * build; `npm run dev` shows them with a banner; a post that falls due appears on the running server
 * by itself; `npm run publish` clears a draft.
 */
const run = promisify(execFile);
let dir = '';
let content = '';
let server: RunningServer | undefined;
const env = () => ({ FOLIO_CONTENT: content, FOLIO_OUT: join(dir, 'dist'), FOLIO_CACHE: join(dir, 'cache'), RATE_LIMIT: '0' });

async function cli(script: string, args: string[], extra: Record<string, string> = {}) {
  try {
    const { stdout, stderr } = await run(process.execPath, [script, ...args], { env: { ...process.env, ...env(), ...extra } });
    return { code: 0, out: stdout + stderr };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, out: err.stdout + err.stderr };
  }
}

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z');
const postFile = async (slug: string, front: string, body: string) =>
  mkdir(join(content, 'posts', slug), { recursive: true }).then(() => writeFile(join(content, 'posts', slug, 'en.md'), `---\ntitle: "${slug}"\n${front}categories: [Craft]\ntags: [testing]\n---\n\n${body}\n`));

async function until<T>(what: string, ms: number, check: () => Promise<T | undefined>): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}:\n${server?.output() ?? ''}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Every surface of the served site, as one text per surface, to look for a slug or word in. */
async function surfaces(url: string) {
  const text = async (path: string) => (await fetch(url + path)).text();
  // A search answer repeats its query: what it found is its data.
  const found = async (path: string) => JSON.stringify((JSON.parse(await text(path)) as { data: unknown }).data);
  const client = new Client({ name: 'folio-tests', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`)));
  try {
    return {
      'api posts': await text('/api/posts?per_page=100'),
      'api posts es': await text('/api/posts?lang=es&per_page=100'),
      feed: await text('/feed.xml'),
      'feed es': await text('/es/feed.xml'),
      sitemap: await text('/sitemap.xml'),
      llms: await text('/llms.txt'),
      'search en': await found('/api/search?q=quokkaword'),
      'search es': await found('/api/search?q=quokkafrench&lang=es'),
      graphql: JSON.stringify((await gql(url, '{ posts(first: 100) { edges { node { slug } } } es: posts(first: 100, lang: "es") { edges { node { slug language } } } }')).body),
      'mcp list_posts': JSON.stringify(await client.callTool({ name: 'list_posts', arguments: { per_page: 100 } })),
      'mcp list_posts es': JSON.stringify(await client.callTool({ name: 'list_posts', arguments: { lang: 'es', per_page: 100 } })),
      'mcp resources': JSON.stringify(await client.listResources()),
    };
  } finally {
    await client.close();
  }
}

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'folio-drafts-'));
  content = join(dir, 'content');
  await cp('content', content, { recursive: true });
  await postFile('draft-post', 'date: 2024-01-01T00:00:00Z\ndraft: true\n', 'A draft about the quokkaword.');
  await postFile('future-post', 'date: 2099-01-01T08:00:00Z\n', 'Written ahead, about the quokkaword.');
  // A draft translation of a published post: that translation only is left out.
  const es = join(content, 'posts', 'the-slow-web', 'es.md');
  await writeFile(es, (await readFile(es, 'utf8')).replace('automated: true\n', 'automated: true\ndraft: true\n').replace(/\n---\n\n/, '\n---\n\nquokkafrench. '));
});

after(async () => {
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('drafts and scheduled posts', () => {
  test('a published build: no draft, draft translation or future post on any surface; the build names the next scheduled post', async () => {
    const r = await cli('scripts/build.ts', []);
    assert.equal(r.code, 0, r.out);
    assert.match(r.out, /^left out of main: 1 draft, 1 scheduled$/m);
    assert.match(r.out, /^next scheduled post: future-post at 2099-01-01T08:00:00Z \(in \d+ days\); npm start builds again then$/m);
    server = await startServer(env());
    const all = await surfaces(server.url);
    for (const [surface, text] of Object.entries(all)) {
      assert.doesNotMatch(text, /draft-post|future-post|quokkaword|quokkafrench/, `${surface} holds no draft or future post`);
    }
    assert.match(all['api posts'], /the-slow-web/, 'the published post is there');
    assert.doesNotMatch(all['api posts es'], /"the-slow-web"/, 'its draft Spanish translation is not');
    assert.doesNotMatch(all['mcp resources'], /\/es\/the-slow-web"/);
    assert.match(all['mcp resources'], /\/zh\/the-slow-web"/, 'its other translations are');
    for (const path of ['/draft-post', '/future-post', '/api/posts/draft-post', '/api/posts/future-post', '/draft-post.md', '/es/draft-post']) {
      assert.equal((await fetch(server.url + path, { redirect: 'manual' })).status, 404, path);
    }
    const es = await fetch(`${server.url}/api/posts/the-slow-web?lang=es`);
    assert.notEqual(es.status, 200, 'the draft translation has no answer');
    assert.doesNotMatch(await (await fetch(`${server.url}/es/the-slow-web`)).text(), /quokkafrench/);
  });

  test('--target static carries no draft and no future post; --drafts is refused with a target', async () => {
    const r = await cli('scripts/build.ts', ['--target', 'static']);
    assert.equal(r.code, 0, r.out);
    assert.match(r.out, /no change since build .*\n.*next scheduled post: future-post/);
    const out = join(dir, 'dist', 'static');
    assert.ok(existsSync(join(out, 'the-slow-web')), 'the static project holds the published post');
    for (const slug of ['draft-post', 'future-post']) assert.equal(existsSync(join(out, slug)), false, slug);
    const refused = await cli('scripts/build.ts', ['--drafts', '--target', 'static']);
    assert.equal(refused.code, 2, refused.out);
    assert.equal(refused.out.trim().split('\n').length, 1, refused.out);
  });

  test('npm run dev shows the drafts and the scheduled post, each page with its banner', async () => {
    const port = await freePort();
    const dev: ChildProcess = spawn(process.execPath, ['scripts/dev.ts'], { env: { ...process.env, ...env(), FOLIO_OUT: join(dir, 'dev'), PORT: String(port), HOST: '127.0.0.1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let log = '';
    dev.stdout!.on('data', (c: Buffer) => (log += c.toString()));
    dev.stderr!.on('data', (c: Buffer) => (log += c.toString()));
    try {
      const url = await until('npm run dev', 120_000, async () => (/listening on http:\/\/localhost:\d+/.test(log) ? `http://127.0.0.1:${port}` : undefined));
      const page = async (path: string) => {
        const res = await fetch(url + path);
        assert.equal(res.status, 200, `${path}: ${log}`);
        return res.text();
      };
      const banner = (html: string) => /<p class="preview-banner" role="status" data-banner>([^<]+)<\/p>/.exec(html)?.[1];
      assert.match(banner(await page('/draft-post')) ?? '', /^Draft: only npm run dev shows this page/);
      assert.match(banner(await page('/es/the-slow-web')) ?? '', /^Borrador/, 'the draft translation, in its language');
      assert.equal(banner(await page('/zh/the-slow-web')), undefined, 'a published translation has none');
      assert.equal(banner(await page('/the-slow-web')), undefined, 'nor its English');
      assert.match(banner(await page('/future-post')) ?? '', /^Scheduled for January 1, 2099 at 8:00:00 AM UTC/);
      assert.match(await page('/api/posts?per_page=100'), /draft-post/);
      assert.doesNotMatch(log, /next scheduled post/, 'a preview leaves nothing for later');
    } finally {
      dev.kill('SIGTERM');
    }
  });

  test('a post dated a few seconds ahead appears on the running server by itself, without a restart', async () => {
    // Its time comes a few seconds after this build is live (the first build's time, as a measure).
    const t = Date.now();
    // (Another post than the one whose Spanish draft is published below: that translation stays current.)
    await writeFile(join(content, 'posts', 'bread-and-time', 'en.md'), `${await readFile(join(content, 'posts', 'bread-and-time', 'en.md'), 'utf8')}\nOne more line.\n`);
    await cli('scripts/build.ts', []);
    const buildMs = Date.now() - t;
    const due = Date.now() + buildMs + 5000;
    await postFile('soon-post', `date: ${iso(due)}\n`, 'Soon.');
    const r = await cli('scripts/build.ts', []);
    assert.equal(r.code, 0, r.out);
    assert.ok(Date.now() < due, 'the build ended before the post was due');
    assert.match(r.out, new RegExp(`^next scheduled post: soon-post at ${iso(due)} \\(in \\d+ min\\)`, 'm'));
    const status = () => fetch(`${server!.url}/api/posts/soon-post`).then((res) => res.status);
    await until('the server to take the build', 10_000, async () => ((await fetch(`${server!.url}/api/posts/bread-and-time`).then((x) => x.text())).includes('One more line') ? true : undefined));
    assert.equal(await status(), 404, 'not before its time');
    await until('the scheduled post', buildMs + 60_000, async () => ((await status()) === 200 ? true : undefined));
    assert.ok(Date.now() >= due, 'not before its time');
    assert.match(await (await fetch(`${server!.url}/feed.xml`)).text(), /soon-post/);
    // The server's line comes when its build process ends (after it went live).
    await until('the server to log its scheduled build', 10_000, async () => (/scheduled: soon-post is due; built in [\d.]+ s \(live: /.test(server!.output()) ? true : undefined));
    assert.equal(await Promise.race([server!.exited, new Promise((r) => setTimeout(() => r('running'), 10))]), 'running', 'the same server');
    // The next scheduled post is the far one again; a build now has nothing new to do.
    const again = await cli('scripts/build.ts', []);
    assert.match(again.out, /^next scheduled post: future-post/m);
  });

  test('npm run publish clears the draft flag; the next build publishes the post and the translation', async () => {
    const wrong: [string[], RegExp][] = [
      [[], /usage: npm run publish -- <slug>/],
      [['no-such-post'], /no post "no-such-post"/],
      [['the-slow-web'], /en\.md is not a draft/],
      [['the-slow-web', 'de'], /the-slow-web has no de translation/],
      [['the-slow-web', 'xx'], /"xx" is not a supported language/],
    ];
    for (const [args, message] of wrong) {
      const r = await cli('scripts/publish.ts', args);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.out}`);
      assert.equal(r.out.trim().split('\n').length, 1, r.out);
      assert.match(r.out, message);
    }
    const published = await cli('scripts/publish.ts', ['draft-post']);
    assert.equal(published.code, 0, published.out);
    assert.match(published.out, /published .*draft-post[/\\]en\.md/);
    assert.doesNotMatch(await readFile(join(content, 'posts', 'draft-post', 'en.md'), 'utf8'), /draft:/);
    assert.equal((await cli('scripts/publish.ts', ['the-slow-web', 'es'])).code, 0);
    assert.equal((await fetch(`${server!.url}/api/posts/draft-post`)).status, 404, 'not before a build');
    const r = await cli('scripts/build.ts', []);
    assert.equal(r.code, 0, r.out);
    await until('the published draft', 10_000, async () => ((await fetch(`${server!.url}/api/posts/draft-post`)).status === 200 ? true : undefined));
    assert.match(await (await fetch(`${server!.url}/api/search?q=quokkaword`)).text(), /draft-post/);
    assert.equal((await fetch(`${server!.url}/api/posts/the-slow-web?lang=es`)).status, 200);
    assert.match(await (await fetch(`${server!.url}/api/search?q=quokkafrench&lang=es`)).text(), /the-slow-web/);
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}
