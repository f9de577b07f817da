import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { chromiumSkip, useChromium } from '../helpers/chromium.ts';
import { spawnGroup, startupDeadline, stopGroup } from '../helpers/process-group.ts';

// The review pages of `npm run dev` (docs/translation.md, "Review in the browser") on a copy of the
// demo: a reviewer approves every segment of a translation with the keyboard alone, one segment
// edited, and the rebuilt API reports the translation verified; saves from elsewhere are refused.
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const SLUG = 'bread-and-time';
const LANG = 'de';

let dir = '';
let content = '';
let dev: ChildProcess | undefined;
let log = '';
let url = '';
let port = 0;

const freePort = () =>
  new Promise<number>((done) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => done(port));
    });
  });

async function until<T>(what: string, check: () => T | undefined | Promise<T | undefined>, ms: number): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}:\n${log.slice(-3000)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** A raw request (fetch may not set Host), its status and JSON body. */
function raw(method: string, path: string, headers: Record<string, string>, body = ''): Promise<{ status: number; json: { error?: string } }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers: { ...headers, 'content-length': Buffer.byteLength(body) } }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, json: JSON.parse(text || '{}') as { error?: string } }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const file = () => join(content, 'posts', SLUG, `${LANG}.md`);

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'folio-review-'));
  content = join(dir, 'content');
  await cp('content', content, { recursive: true });
  port = await freePort();
  dev = spawnGroup(process.execPath, ['scripts/dev.ts'], { env: { ...process.env, FOLIO_CONTENT: content, FOLIO_OUT: join(dir, 'dist'), PORT: String(port), HOST: '127.0.0.1', RATE_LIMIT: '0' }, stdio: ['ignore', 'pipe', 'pipe'] });
  dev.stdout!.on('data', (c: Buffer) => (log += c.toString()));
  dev.stderr!.on('data', (c: Buffer) => (log += c.toString()));
  // The first build of the demo: about 90 s on a loaded 2-core machine.
  await until('the dev server', () => (/review translations at http:\/\/localhost:\d+\/_review\//.test(log) ? true : undefined), startupDeadline(240_000));
  url = `http://localhost:${port}`;
});

after(async () => {
  if (dev) await stopGroup(dev);
  await rm(dir, { recursive: true, force: true });
});

describe('review in the browser', { skip: chromiumSkip }, () => {
  const chrome = useChromium();

  test('the index lists every translation with its state and links to its review', async () => {
    const res = await fetch(`${url}/_review/`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-security-policy') ?? '', /script-src 'self'/);
    const html = await res.text();
    assert.match(html, new RegExp(`href="/_review/${SLUG}/${LANG}"`));
    assert.match(html, /href="\/_review\/quiet-numbers\/de"[^>]*>stale( \d+)?</, 'a stale translation says so, as translations status does');
  });

  test('saves from another site, without the token or to another host name are refused with 403 JSON', async () => {
    const page = await (await fetch(`${url}/_review/${SLUG}/${LANG}`)).text();
    const token = /name="review-token" content="([^"]+)"/.exec(page)![1]!;
    const checksum = /data-checksum="([^"]+)"/.exec(page)![1]!;
    const body = JSON.stringify({ index: 0, text: 'Gestohlen', by: 'Mallory', checksum });
    const json = { 'content-type': 'application/json', host: `localhost:${port}` };
    const path = `/_review/${SLUG}/${LANG}`;
    const crossSite = await raw('POST', path, { ...json, 'x-review-token': token, origin: 'http://evil.example', 'sec-fetch-site': 'cross-site' }, body);
    assert.equal(crossSite.status, 403);
    assert.match(crossSite.json.error!, /another site/);
    const otherOrigin = await raw('POST', path, { ...json, 'x-review-token': token, origin: 'http://evil.example' }, body);
    assert.equal(otherOrigin.status, 403);
    assert.match(otherOrigin.json.error!, /another origin/);
    const noToken = await raw('POST', path, json, body);
    assert.equal(noToken.status, 403);
    assert.match(noToken.json.error!, /token/);
    // A page on another name rebound to 127.0.0.1 (DNS rebinding) gets nothing, not even the page.
    const rebound = await raw('GET', path, { host: `evil.example:${port}` });
    assert.equal(rebound.status, 403);
    assert.match(rebound.json.error!, /loopback name/);
    const badJson = await raw('POST', path, { ...json, 'x-review-token': token }, '{"index":');
    assert.equal(badJson.status, 400);
    assert.equal((await raw('GET', `/_review/${SLUG}/xx`, { host: `localhost:${port}` })).status, 404);
    assert.match(await readFile(file(), 'utf8'), /^title: "Brot und Zeit"$/m, 'nothing was written');
    assert.equal((await fetch(`${url}/api/posts`)).status, 200, 'the server stays healthy');
  });

  test('axe finds no violation on the review page', async () => {
    // axe is injected as an inline script: the page's own policy would refuse it.
    const context = await chrome.browser.newContext({ bypassCSP: true });
    const page = await context.newPage();
    const found: string[] = [];
    for (const path of ['/_review/', `/_review/${SLUG}/${LANG}`]) {
      await page.goto(url + path);
      await page.addScriptTag({ path: AXE });
      const { violations } = await page.evaluate(() => (globalThis as unknown as { axe: { run: (d: Document, o: object) => Promise<{ violations: { id: string; help: string; nodes: { target: string[] }[] }[] }> } }).axe.run(document, { resultTypes: ['violations'] }));
      for (const v of violations) found.push(`${path}: ${v.id} ${v.help}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`);
    }
    await context.close();
    assert.deepEqual(found, []);
  });

  test('keyboard only: the name, one edit, then Ctrl+Enter through every segment; the file keeps its structure, the API reports it verified', async () => {
    const before = await readFile(file(), 'utf8');
    const context = await chrome.browser.newContext();
    const page = await context.newPage();
    await page.goto(`${url}/_review/${SLUG}/${LANG}`);
    const segments = await page.locator('li.segment').count();
    assert.ok(segments > 20, `${segments} segments`);
    assert.equal(await page.locator('li.segment.state-machine').count(), segments, 'every segment of the demo is an engine\'s');
    // From the top of the page, Tab alone: the skip link, the index link, then the name field.
    const focus = () => page.evaluate(() => document.activeElement?.id || document.activeElement?.tagName || '');
    const order: string[] = [];
    for (let i = 0; i < 3; i++) {
      await page.keyboard.press('Tab');
      order.push(await focus());
    }
    assert.deepEqual(order, ['A', 'A', 'reviewer'], 'the skip link, the index link, the name field');
    const ring = await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle);
    assert.notEqual(ring, 'none', 'focus is visible');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('Ana Ruiz');
    // On to the first translation (past the keys' help), then its Approve button, then the next translation.
    await page.keyboard.press('Tab');
    assert.equal(await focus(), 'seg-1-text');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement!.textContent), 'Approve');
    await page.keyboard.press('Tab');
    assert.equal(await focus(), 'seg-2-text');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Shift+Tab');
    assert.equal(await focus(), 'seg-1-text');
    await page.keyboard.press('End');
    await page.keyboard.type(' – ein Versuch');
    for (let i = 1; i <= segments; i++) {
      assert.equal(await focus(), `seg-${i}-text`, `Ctrl+Enter moved on to segment ${i}`);
      await page.keyboard.press('Control+Enter');
      await until(`segment ${i} approved`, async () => ((await page.locator(`#seg-${i}.state-person`).count()) ? true : undefined), 60_000);
      if (i < segments) await until(`focus on segment ${i + 1}`, async () => ((await focus()) === `seg-${i + 1}-text` ? true : undefined), 10_000);
    }
    await until('the summary focused', async () => ((await focus()) === 'summary' ? true : undefined), 10_000);
    const summary = await page.locator('#summary').textContent();
    assert.match(summary!, new RegExp(`${segments} of ${segments} segments approved\\. Verified by Ana Ruiz on \\d{4}-\\d{2}-\\d{2}\\.`));
    // The name is remembered in this browser.
    await page.reload();
    assert.equal(await page.locator('#reviewer').inputValue(), 'Ana Ruiz');
    assert.equal(await page.locator('li.segment.state-person').count(), segments);
    await context.close();

    const after = await readFile(file(), 'utf8');
    assert.match(after, /^title: "Brot und Zeit – ein Versuch"$/m);
    assert.match(after, /^verified: true$/m);
    assert.match(after, /^verified_by: "Ana Ruiz"$/m);
    assert.match(after, /^verified_at: "\d{4}-\d{2}-\d{2}"$/m);
    const bodyOf = (t: string) => t.slice(t.indexOf('\n---', 3) + 4);
    assert.equal(bodyOf(after), bodyOf(before), 'the body is byte for byte as it was: links, emphasis and code kept');
    const memory = JSON.parse(await readFile(join(content, 'posts', SLUG, '.translation-memory.json'), 'utf8')) as { written: Record<string, [string, string, string][]> };
    assert.ok(memory.written[LANG]!.every(([, , by]) => by === 'person'), "every segment is recorded as a person's");

    // The dev server rebuilt on the save: the API reports the translation verified.
    const verified = await until(
      'the API to report it verified',
      async () => {
        const body = (await (await fetch(`${url}/api/posts/${SLUG}?lang=${LANG}`)).json()) as { data: { title: string; translation: { verified: boolean; stale: boolean; automated: boolean } } };
        return body.data.translation.verified ? body.data : undefined;
      },
      startupDeadline(180_000),
    );
    assert.equal(verified.title, 'Brot und Zeit – ein Versuch');
    assert.equal(verified.translation.stale, false);
    assert.equal(verified.translation.automated, true, 'a reviewed machine translation is still one');
  });
});
