import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rename, rm, unlink, writeFile } from 'node:fs/promises';
import { devHost } from '../../src/server/dev-host.ts';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createParser, type EventSourceMessage } from 'eventsource-parser';

// `npm run dev` on a copy of the demo content: an edit goes live and tells the open pages; a
// content error is reported (terminal and pages) while the last good build keeps serving.
let dir = '';
let content = '';
let dev: ChildProcess | undefined;
let log = '';
let url = '';
const received: EventSourceMessage[] = [];
let stopEvents: (() => void) | undefined;

const freePort = () =>
  new Promise<number>((done) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => done(port));
    });
  });

async function until<T>(what: string, check: () => T | undefined | Promise<T | undefined>, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}:\n${log}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const post = () => join(content, 'posts', 'the-slow-web', 'en.md');
const titleOf = async () => ((await (await fetch(`${url}/api/posts/the-slow-web`)).json()) as { data: { title: string } }).data.title;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'folio-dev-'));
  content = join(dir, 'content');
  await cp('content', content, { recursive: true });
  const port = await freePort();
  dev = spawn(process.execPath, ['scripts/dev.ts'], { env: { ...process.env, FOLIO_CONTENT: content, FOLIO_OUT: join(dir, 'dist'), PORT: String(port), HOST: '127.0.0.1', RATE_LIMIT: '0' }, stdio: ['ignore', 'pipe', 'pipe'] });
  dev.stdout!.on('data', (c: Buffer) => (log += c.toString()));
  dev.stderr!.on('data', (c: Buffer) => (log += c.toString()));
  url = await until('the server', () => (/listening on http:\/\/localhost:(\d+)/.test(log) ? `http://127.0.0.1:${port}` : undefined));
});

after(async () => {
  stopEvents?.();
  dev?.kill('SIGTERM');
  await rm(dir, { recursive: true, force: true });
});

describe('npm run dev', () => {
  test('serves every endpoint like npm start, and its pages listen for rebuilds', async () => {
    assert.equal((await fetch(`${url}/api/posts`)).status, 200);
    assert.equal((await fetch(`${url}/graphql?query=%7Bposts%7BtotalCount%7D%7D`)).status, 200);
    const html = await (await fetch(`${url}/the-slow-web`)).text();
    const events = /const devEvents = "([^"]+)"/.exec(html)?.[1];
    assert.ok(events, 'the dev script names its events');
    const controller = new AbortController();
    stopEvents = () => controller.abort();
    const res = await fetch(events, { signal: controller.signal });
    const parser = createParser({ onEvent: (e) => received.push(e) });
    void (async () => {
      const reader = res.body!.getReader();
      const decoder = new TextDecoder();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        parser.feed(decoder.decode(value, { stream: true }));
      }
    })().catch(() => {});
  });

  test('an edit goes live through the swap, and the pages are told to look again', async () => {
    const text = await readFile(post(), 'utf8');
    await writeFile(post(), text.replace(/^title: .*$/m, 'title: "The Slow Web, Revised"'));
    await until('the edit live', async () => ((await titleOf()) === 'The Slow Web, Revised' ? true : undefined));
    await until('a reload event', () => (received.some((e) => e.event === 'reload') ? true : undefined));
  });

  test('a content error is one line in the terminal and on the pages; the last good build keeps serving', async () => {
    const text = await readFile(post(), 'utf8');
    await writeFile(post(), text.replace(/^date: .*$/m, 'date: 2026-02-30'));
    const failed = await until('a failed event', () => received.find((e) => e.event === 'failed'));
    assert.match(JSON.parse(failed.data) as string, /the-slow-web[/\\]en\.md:3: date: must be a real date/);
    assert.match(log, /en\.md:3: date: must be a real date/);
    assert.equal(await titleOf(), 'The Slow Web, Revised', 'the last good build');
    await writeFile(post(), text);
    const reloads = received.filter((e) => e.event === 'reload').length;
    await until('the fix live', () => (received.filter((e) => e.event === 'reload').length > reloads ? true : undefined));
  });

  test('every save is seen, however the editor writes it: three in a row of each kind', async () => {
    const file = post();
    const saves: [string, (text: string) => Promise<void>][] = [
      ['in place', (text) => writeFile(file, text)],
      // sed -i, Emacs, "safe write" editors: a temporary file renamed over the old one.
      ['temp file + rename', async (text) => {
        await writeFile(`${file}.tmp`, text);
        await rename(`${file}.tmp`, file);
      }],
      ['delete + create', async (text) => {
        await unlink(file);
        await new Promise((r) => setTimeout(r, 50));
        await writeFile(file, text);
      }],
    ];
    const original = await readFile(file, 'utf8');
    let n = 0;
    for (const [kind, save] of saves) {
      for (let i = 0; i < 3; i++) {
        const title = `The Slow Web ${++n}`;
        await save(original.replace(/^title: .*$/m, `title: "${title}"`));
        await until(`${kind} save ${i + 1} live`, async () => ((await titleOf()) === title ? true : undefined));
      }
    }
    // A new post in a new folder is seen too.
    await mkdir(join(content, 'posts', 'a-new-folder'));
    await writeFile(join(content, 'posts', 'a-new-folder', 'en.md'), original.replace(/^title: .*$/m, 'title: "A New Folder"'));
    await until('the new post live', async () => ((await fetch(`${url}/api/posts/a-new-folder`)).status === 200 ? true : undefined));
    await writeFile(file, original);
  });

  test('npm run dev listens on localhost unless --host says otherwise', () => {
    assert.match(log, /listening on http:\/\/localhost:/);
    assert.equal(devHost([]), 'localhost');
    assert.equal(devHost(['--host']), '0.0.0.0');
    assert.equal(devHost(['--host', '192.0.2.1']), '192.0.2.1');
  });
});
