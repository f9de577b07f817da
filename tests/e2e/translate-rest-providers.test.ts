import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import matter from 'gray-matter';
import { TRANSLATED_CODES } from '../../src/core/languages.ts';
import { documentText, segmentDocument } from '../../src/translate/segments.ts';
import { loadAll, status } from '../../src/translate/translation-status.ts';
import { MEMORY_FILE, TranslationMemory } from '../../src/translate/memory.ts';
import { markdownShape } from '../helpers/markdown-shape.ts';
import { runTranslate, sentOf } from '../helpers/translate-command.ts';
import { startLibreTranslateServer, type LibreServer } from '../helpers/libretranslate-server.ts';
import { startGoogleTranslateServer, type GoogleServer } from '../helpers/google-translate-server.ts';
import { startGoogleTokenServer } from '../helpers/google-token-server.ts';
import { unPseudo } from '../helpers/translation-engine.ts';
import type { Received } from '../helpers/protocol-server.ts';

/** Two demo essays: links, emphasis and inline code (placeholders) between them. */
const POSTS = ['small-tools', 'the-slow-web'];
const KEY = 'folio-test-key';
const PROJECT = 'folio-test';
const TOKEN = 'ya29.folio-test-token';

const temps: string[] = [];

/** A copy of the content with only the two essays, in English only, and the settings given. */
async function contentCopy(settings = ''): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'folio-rest-providers-'));
  temps.push(root);
  await cp('content', root, { recursive: true });
  for (const slug of await readdir(join(root, 'posts'))) {
    if (!POSTS.includes(slug)) await rm(join(root, 'posts', slug), { recursive: true });
    else for (const file of await readdir(join(root, 'posts', slug))) if (file !== 'en.md') await rm(join(root, 'posts', slug, file), { recursive: true });
  }
  await writeFile(join(root, 'translation.yaml'), settings);
  return root;
}

/** The environment without any provider's variables, plus the ones given. */
function envWith(vars: Record<string, string>): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^(LIBRETRANSLATE|GOOGLE|GCLOUD)_/.test(k)));
  return { ...env, ...vars };
}

const translateBodies = (server: LibreServer) => server.received.filter((r) => r.method === 'POST').map((r) => r.body as { q: string[]; source: string; target: string; format: string; api_key?: string });
const googleBodies = (server: GoogleServer) => server.received.map((r) => r.body as { contents: string[]; mimeType: string; sourceLanguageCode: string; targetLanguageCode: string });

/** Every essay written in `lang` by `label`'s engine, with the English structure and its words changed. */
async function assertWritten(root: string, lang: string, label: RegExp): Promise<void> {
  for (const post of (await loadAll(root)).filter((p) => POSTS.includes(p.slug))) {
    assert.equal(status(post).states[lang], 'available', `${post.slug} ${lang}`);
    const { data, content } = matter(await readFile(join(post.dir, `${lang}.md`), 'utf8'));
    assert.match(String(data.provider), label, `${post.slug} ${lang}: the engine that made it, with its version`);
    assert.equal(data.automated, true);
    assert.equal(data.verified, false);
    assert.equal(markdownShape(content), markdownShape(post.english.body), `${post.slug} ${lang}: the English structure`);
    const sources = segmentDocument(documentText(post.english, post.english.body)).segments;
    const translated = segmentDocument(documentText(data, content)).segments;
    assert.equal(translated.length, sources.length);
    const changed = translated.filter((s, i) => s.text !== sources[i]!.text).length;
    assert.ok(changed / sources.length > 0.9, `${post.slug} ${lang}: ${changed} of ${sources.length} segments in another language`);
  }
}

const readAll = async (root: string, lang: string) => Promise.all(POSTS.map((slug) => readFile(join(root, 'posts', slug, `${lang}.md`), 'utf8')));

after(async () => {
  for (const root of temps) await rm(root, { recursive: true, force: true });
});

describe('npm run translate with LibreTranslate (a local server speaking its protocol)', () => {
  let server: LibreServer;
  let env: NodeJS.ProcessEnv;
  before(async () => {
    server = await startLibreTranslateServer({ apiKeys: [KEY] });
    env = envWith({ LIBRETRANSLATE_URL: server.url, LIBRETRANSLATE_API_KEY: KEY });
  });
  after(() => server.close());

  test('es and fr through a 429 with Retry-After, a 500 and a dropped placeholder: recovered, the structure kept, the version recorded; a second run sends nothing', async () => {
    const root = await contentCopy();
    server.faults.add({ kind: 'status', status: 429, error: 'Slowdown: 30 per 1 minute', retryAfter: 1 }, { kind: 'status', status: 500, error: 'Cannot translate text: CUDA out of memory' }, { kind: 'drop-placeholder' });
    const run = await runTranslate(root, ['--lang', 'es,fr', '--provider', 'libretranslate'], env);
    assert.equal(run.code, 0, run.out);
    assert.match(run.out, /libretranslate: libretranslate answered 429: Slowdown: 30 per 1 minute; trying again in 1\.0 s/);
    assert.match(run.out, /libretranslate answered 500: Cannot translate text/);
    assert.match(run.out, /0 failed/);
    await assertWritten(root, 'es', /^libretranslate:1\.6\.5$/);
    await assertWritten(root, 'fr', /^libretranslate:1\.6\.5$/);

    const bodies = translateBodies(server);
    assert.ok(bodies.length >= 4, 'at least one batch per post and language');
    for (const body of bodies) {
      assert.ok(Array.isArray(body.q) && body.q.length <= 50 && body.q.join('').length <= 5000, 'a batch within the limits');
      assert.deepEqual([body.source, body.format, body.api_key], ['en', 'html', KEY]);
      assert.ok(['es', 'fr'].includes(body.target), body.target);
    }
    const gets = server.received.filter((r) => r.method === 'GET').map((r) => r.path);
    assert.deepEqual(gets, ['/languages', '/frontend/settings', '/spec'], 'asked once, before sending');

    const before = server.received.length;
    const again = await runTranslate(root, ['--lang', 'es,fr', '--provider', 'libretranslate'], env);
    assert.equal(again.code, 0, again.out);
    assert.equal(sentOf(again.out), 0, again.out);
    assert.equal(server.received.slice(before).filter((r) => r.method === 'POST').length, 0);
  });

  test('spaces lost around every tag: the files are the same as without the fault', async () => {
    const clean = await contentCopy();
    assert.equal((await runTranslate(clean, ['--lang', 'es', '--provider', 'libretranslate'], env)).code, 0);
    const lost = await contentCopy();
    server.faults.add({ kind: 'lose-spaces', times: Infinity });
    try {
      const run = await runTranslate(lost, ['--lang', 'es', '--provider', 'libretranslate'], env);
      assert.equal(run.code, 0, run.out);
    } finally {
      server.faults.queue.length = 0;
    }
    assert.deepEqual(await readAll(lost, 'es'), await readAll(clean, 'es'));
  });

  test('a daily limit stops the run at once, keeping what was done; the next run sends only the rest', async () => {
    const copy = await contentCopy();
    const from = server.received.length;
    server.faults.add({ kind: 'pass' }, { kind: 'status', status: 429, error: 'Slowdown: 100 per 1 day' });
    const stopped = await runTranslate(copy, ['--lang', 'de', '--provider', 'libretranslate'], env);
    assert.equal(stopped.code, 2, stopped.out);
    assert.match(stopped.out, /stopped: libretranslate: libretranslate answered 429: Slowdown: 100 per 1 day/);
    const first = translateBodies({ ...server, received: server.received.slice(from) })[0]!.q;
    const memories = await Promise.all(POSTS.map((slug) => TranslationMemory.open(join(copy, 'posts', slug, MEMORY_FILE))));
    for (const source of first) assert.ok(memories.some((m) => m.lookup(source, 'de', 'libretranslate:1.6.5')), `kept: ${source}`);

    const resumed = server.received.length;
    const run = await runTranslate(copy, ['--lang', 'de', '--provider', 'libretranslate'], env);
    assert.equal(run.code, 0, run.out);
    const sent = translateBodies({ ...server, received: server.received.slice(resumed) }).flatMap((b) => b.q);
    assert.equal(sentOf(run.out), sent.length);
    assert.ok(!sent.some((s) => first.includes(s)), 'nothing of the first batch is sent again');
    await assertWritten(copy, 'de', /^libretranslate:/);
  });

  test('setup problems are one line before anything is sent: no URL, a language the instance lacks; a refused key stops with its variable named', async () => {
    const copy = await contentCopy();
    const noUrl = await runTranslate(copy, ['--lang', 'es', '--provider', 'libretranslate'], envWith({}));
    assert.equal(noUrl.code, 2, noUrl.out);
    assert.match(noUrl.out, /^translate: libretranslate: LIBRETRANSLATE_URL is not set/);
    assert.equal(noUrl.out.trim().split('\n').length, 1, noUrl.out);

    const small = await startLibreTranslateServer({ targets: ['es', 'fr'] });
    try {
      const missing = await runTranslate(copy, ['--lang', 'vi', '--provider', 'libretranslate'], envWith({ LIBRETRANSLATE_URL: small.url }));
      assert.equal(missing.code, 2, missing.out);
      assert.match(missing.out, /libretranslate does not translate into vi/);
      assert.equal(missing.out.trim().split('\n').length, 1, missing.out);
      assert.equal(small.received.filter((r) => r.method === 'POST').length, 0);
    } finally {
      await small.close();
    }

    const refused = await runTranslate(copy, ['--lang', 'es', '--provider', 'libretranslate'], { ...env, LIBRETRANSLATE_API_KEY: 'wrong' });
    assert.equal(refused.code, 2, refused.out);
    assert.match(refused.out, /libretranslate answered 403: Invalid API key \(set LIBRETRANSLATE_API_KEY/);
    assert.ok(!existsSync(join(copy, 'posts', POSTS[0]!, 'es.md')));
  });
});

describe('npm run translate with Google Cloud Translation v3 (a local server speaking its REST protocol)', () => {
  let server: GoogleServer;
  let env: NodeJS.ProcessEnv;
  before(async () => {
    server = await startGoogleTranslateServer({ project: PROJECT, token: TOKEN });
    env = envWith({ GOOGLE_TRANSLATE_ENDPOINT: server.url, GOOGLE_CLOUD_PROJECT: PROJECT, GOOGLE_ACCESS_TOKEN: TOKEN });
  });
  after(() => server.close());

  test('hi and ar through a 429 RESOURCE_EXHAUSTED, a 500 and a dropped placeholder: recovered; placeholders sent as translate="no" spans; what Google adds for Arabic is gone', async () => {
    const root = await contentCopy();
    server.faults.add({ kind: 'rate-limit', retryAfter: 1 }, { kind: 'server-error' }, { kind: 'drop-placeholder' });
    const run = await runTranslate(root, ['--lang', 'hi,ar', '--provider', 'google'], env);
    assert.equal(run.code, 0, run.out);
    assert.match(run.out, /google answered 429 RESOURCE_EXHAUSTED: .*; trying again in 1\.0 s/);
    assert.match(run.out, /google answered 500 INTERNAL/);
    await assertWritten(root, 'hi', /^google:v3-nmt$/);
    await assertWritten(root, 'ar', /^google:v3-nmt$/);

    for (const r of server.received as Received[]) {
      assert.equal(r.path, `/v3/projects/${PROJECT}/locations/global:translateText`);
      assert.equal(r.headers.authorization, `Bearer ${TOKEN}`);
      assert.equal(r.headers['x-goog-user-project'], PROJECT);
    }
    const bodies = googleBodies(server);
    for (const body of bodies) {
      assert.deepEqual([body.mimeType, body.sourceLanguageCode], ['text/html', 'en']);
      assert.ok(['hi', 'ar'].includes(body.targetLanguageCode));
      assert.ok(!body.contents.some((c) => c.includes('<x ')), 'Google never sees a Folio placeholder');
    }
    assert.ok(bodies.some((b) => b.contents.some((c) => /<span translate="no" data-folio="\d+"><\/span>/.test(c))), 'inline code went as a translate="no" span');
    for (const file of await readAll(root, 'ar')) assert.doesNotMatch(file, /dir=|rtl|<span/);

    // The pseudo-locale reads back to the English exactly: nothing lost, moved or added.
    for (const post of (await loadAll(root)).filter((p) => POSTS.includes(p.slug))) {
      const { data, content } = matter(await readFile(join(post.dir, 'hi.md'), 'utf8'));
      const hi = segmentDocument(documentText(data, content)).segments.map((s) => unPseudo(s.text));
      assert.deepEqual(hi, segmentDocument(documentText(post.english, post.english.body)).segments.map((s) => s.text));
    }
  });

  test('a used-up quota (403) stops the run with the memory intact; the next run finishes it', async () => {
    const root = await contentCopy();
    server.faults.add({ kind: 'pass' }, { kind: 'quota' });
    const stopped = await runTranslate(root, ['--lang', 'ko', '--provider', 'google'], env);
    assert.equal(stopped.code, 2, stopped.out);
    assert.match(stopped.out, /stopped: google: google answered 403 PERMISSION_DENIED: Quota exceeded/);
    assert.ok(existsSync(join(root, 'posts', POSTS[0]!, MEMORY_FILE)));
    const from = server.received.length;
    const run = await runTranslate(root, ['--lang', 'ko', '--provider', 'google'], env);
    assert.equal(run.code, 0, run.out);
    assert.equal(sentOf(run.out), googleBodies({ ...server, received: server.received.slice(from) }).flatMap((b) => b.contents).length);
    assert.match(run.out, new RegExp(`${POSTS[0]} ko \\(google\\): \\d+ segments, [1-9]\\d* from memory`), 'what was done before the quota is not sent again');
    await assertWritten(root, 'ko', /^google:v3-nmt$/);
  });

  test('a missing credential or project is one line before anything is sent; a refused token stops naming GOOGLE_ACCESS_TOKEN', async () => {
    const root = await contentCopy();
    const from = server.received.length;
    for (const [vars, said] of [
      [{ GOOGLE_TRANSLATE_ENDPOINT: server.url, GOOGLE_CLOUD_PROJECT: PROJECT }, /^translate: google needs a credential: GOOGLE_APPLICATION_CREDENTIALS \(.*\) or GOOGLE_ACCESS_TOKEN/],
      [{ GOOGLE_TRANSLATE_ENDPOINT: server.url, GOOGLE_ACCESS_TOKEN: TOKEN }, /^translate: google needs a project: GOOGLE_CLOUD_PROJECT \(or GCLOUD_PROJECT\)/],
      [{ GOOGLE_TRANSLATE_ENDPOINT: server.url, GOOGLE_APPLICATION_CREDENTIALS: join(root, 'no-such-key.json') }, /^translate: google: GOOGLE_APPLICATION_CREDENTIALS names .*no-such-key\.json, which cannot be read \(ENOENT\)/],
    ] as [Record<string, string>, RegExp][]) {
      const r = await runTranslate(root, ['--lang', 'hi', '--provider', 'google'], envWith(vars));
      assert.equal(r.code, 2, r.out);
      assert.match(r.out, said);
      assert.equal(r.out.trim().split('\n').length, 1, r.out);
    }
    assert.equal(server.received.length, from, 'nothing sent');

    const expired = await runTranslate(root, ['--lang', 'hi', '--provider', 'google'], { ...env, GOOGLE_ACCESS_TOKEN: 'ya29.expired' });
    assert.equal(expired.code, 2, expired.out);
    assert.match(expired.out, /google answered 401 UNAUTHENTICATED: .*check GOOGLE_ACCESS_TOKEN/);
    assert.ok(!existsSync(join(root, 'posts', POSTS[0]!, 'hi.md')));
  });

  test('GOOGLE_APPLICATION_CREDENTIALS, a service-account key: a JWT signed RS256 is exchanged at its token_uri (the JWT bearer grant), and the token translates; the project from the key file or GCLOUD_PROJECT; a key the endpoint refuses is one line', async () => {
    const SCOPE = 'https://www.googleapis.com/auth/cloud-translation';
    const EMAIL = 'folio-translate@folio-test.iam.gserviceaccount.com';
    const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const tokens = await startGoogleTokenServer({ clientEmail: EMAIL, publicKey: pair.publicKey, scope: SCOPE, accessToken: TOKEN });
    try {
      const root = await contentCopy();
      const keyFile = async (name: string, privateKey: KeyObject, fields: Record<string, string> = {}) => {
        const file = join(root, name);
        const key = { type: 'service_account', project_id: PROJECT, private_key_id: 'f01', private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }), client_email: EMAIL, client_id: '1', token_uri: tokens.tokenUri, ...fields };
        await writeFile(file, JSON.stringify(key));
        return file;
      };
      const from = server.received.length;
      const run = await runTranslate(root, [POSTS[0]!, '--lang', 'hi', '--provider', 'google'], envWith({ GOOGLE_TRANSLATE_ENDPOINT: server.url, GOOGLE_APPLICATION_CREDENTIALS: await keyFile('key.json', pair.privateKey) }));
      assert.equal(run.code, 0, run.out);
      assert.equal(tokens.grants.length, 1, 'one token for the run, fetched before any text');
      assert.deepEqual({ ...tokens.grants[0], iat: 0, exp: 0 }, { iss: EMAIL, aud: tokens.tokenUri, scope: SCOPE, iat: 0, exp: 0 });
      const sent = server.received.slice(from);
      assert.ok(sent.length > 0);
      for (const r of sent) {
        assert.equal(r.path, `/v3/projects/${PROJECT}/locations/global:translateText`, 'the project from the key file');
        assert.equal(r.headers.authorization, `Bearer ${TOKEN}`);
        assert.equal(r.headers['x-goog-user-project'], undefined, 'a service account bills its own project');
      }
      assert.match(await readFile(join(root, 'posts', POSTS[0]!, 'hi.md'), 'utf8'), /^provider: "google:v3-nmt"$/m);

      // A key without project_id: GCLOUD_PROJECT names it.
      const gcloud = await runTranslate(root, [POSTS[1]!, '--lang', 'hi', '--provider', 'google'], envWith({ GOOGLE_TRANSLATE_ENDPOINT: server.url, GOOGLE_APPLICATION_CREDENTIALS: await keyFile('no-project.json', pair.privateKey, { project_id: '' }), GCLOUD_PROJECT: PROJECT }));
      assert.equal(gcloud.code, 0, gcloud.out);
      assert.equal(tokens.grants.length, 2);

      // Signed with another key: the endpoint refuses the grant; nothing reaches Google's translate endpoint.
      const before = server.received.length;
      const stranger = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
      const refused = await runTranslate(root, ['--lang', 'ko', '--provider', 'google'], envWith({ GOOGLE_TRANSLATE_ENDPOINT: server.url, GOOGLE_APPLICATION_CREDENTIALS: await keyFile('stranger.json', stranger) }));
      assert.equal(refused.code, 2, refused.out);
      assert.match(refused.out.trim(), /^translate: google: the credential in GOOGLE_APPLICATION_CREDENTIALS \(.*stranger\.json\) was refused: invalid_grant: Invalid JWT Signature\.$/);
      assert.equal(refused.out.trim().split('\n').length, 1, refused.out);
      assert.equal(server.received.length, before, 'nothing sent');
    } finally {
      await tokens.close();
    }
  });
});

describe('routing per language in content/translation.yaml', () => {
  test('providers: {default: libretranslate, hi: google}: Hindi goes to Google, every other language to LibreTranslate', async () => {
    const libre = await startLibreTranslateServer();
    const google = await startGoogleTranslateServer({ project: PROJECT, token: TOKEN });
    try {
      const root = await contentCopy('providers:\n  default: libretranslate\n  hi: google\n');
      const env = envWith({ LIBRETRANSLATE_URL: libre.url, GOOGLE_TRANSLATE_ENDPOINT: google.url, GOOGLE_CLOUD_PROJECT: PROJECT, GOOGLE_ACCESS_TOKEN: TOKEN });
      const run = await runTranslate(root, [], env);
      assert.equal(run.code, 0, run.out);
      assert.deepEqual([...new Set(googleBodies(google).map((b) => b.targetLanguageCode))], ['hi']);
      const libreTargets = new Set(translateBodies(libre).map((b) => b.target));
      assert.deepEqual([...libreTargets].sort(), ['ar', 'de', 'es', 'fr', 'id', 'ja', 'ko', 'pb', 'ru', 'tr', 'vi', 'zh'], 'pt-br as pb, the code of argos\'s Brazilian model');
      await assertWritten(root, 'hi', /^google:v3-nmt$/);
      for (const lang of TRANSLATED_CODES.filter((l) => l !== 'hi')) await assertWritten(root, lang, /^libretranslate:1\.6\.5$/);
    } finally {
      await libre.close();
      await google.close();
    }
  });
});
