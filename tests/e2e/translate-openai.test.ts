import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { cp, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import matter from 'gray-matter';
import { documentText, segmentDocument } from '../../src/translate/segments.ts';
import { loadAll, status } from '../../src/translate/translation-status.ts';
import { markdownShape } from '../helpers/markdown-shape.ts';
import { startOpenAIServer, type OpenAIServer } from '../helpers/openai-server.ts';

const POSTS = ['small-tools', 'learning-in-public', 'notes-on-attention'];
const MODEL = 'gpt-4o-mini-2024-07-18';
const roots: string[] = [];

/** A copy of the demo content with three posts, none of them yet in `langs`, and the model named in its settings. */
async function contentCopy(langs: string[], settings = `models:\n  openai: ${MODEL}\n`): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'folio-openai-'));
  roots.push(root);
  await cp('content', root, { recursive: true });
  // Standalone pages are translated too (tests/e2e/translate-pages.test.ts): left out, so the counts are the posts'.
  await rm(join(root, 'pages'), { recursive: true });
  for (const slug of await readdir(join(root, 'posts'))) {
    if (!POSTS.includes(slug)) await rm(join(root, 'posts', slug), { recursive: true });
    else for (const lang of langs) await rm(join(root, 'posts', slug, `${lang}.md`), { force: true });
  }
  await writeFile(join(root, 'translation.yaml'), settings);
  return root;
}

/** `npm run translate` as an author runs it, pointed at the server through the client's own variables. */
function translate(root: string, server: OpenAIServer, args: string[], env: Record<string, string | undefined> = {}): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['scripts/translate.ts', '--root', root, '--provider', 'openai', ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: server.key, FOLIO_OPENAI_MODEL: undefined, ...env },
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr.on('data', (c: Buffer) => (out += c.toString()));
    child.on('close', (code) => resolve({ code, out }));
  });
}

/** Every written translation: stamped by the model, the English structure, the words changed. */
async function assertTranslated(root: string, langs: string[]) {
  for (const post of await loadAll(root)) {
    const sources = segmentDocument(documentText(post.english, post.english.body)).segments;
    for (const lang of langs) {
      assert.equal(status(post).states[lang], 'available', `${post.slug} ${lang}`);
      const { data, content } = matter(await readFile(join(post.dir, `${lang}.md`), 'utf8'));
      assert.equal(data.provider, `openai:${MODEL}`);
      assert.equal(data.automated, true);
      assert.equal(markdownShape(content), markdownShape(post.english.body), `${post.slug} ${lang}: the English structure`);
      const translated = segmentDocument(documentText(data, content)).segments;
      assert.equal(translated.length, sources.length);
      assert.ok(translated.filter((s, i) => s.text !== sources[i]!.text).length / sources.length > 0.9, `${post.slug} ${lang}: in another language`);
    }
  }
}

const memoryOf = async (root: string) => Promise.all(POSTS.map((slug) => readFile(join(root, 'posts', slug, '.translation-memory.json'), 'utf8').catch(() => '')));
const sentSegments = (server: OpenAIServer, from = 0) => server.requests.slice(from).filter((r) => r.answered.startsWith('200')).flatMap((r) => r.segments);

describe('npm run translate with an OpenAI-compatible chat endpoint (a local server speaking its protocol)', () => {
  let server: OpenAIServer;
  before(async () => {
    server = await startOpenAIServer({ model: MODEL });
  });
  after(async () => {
    await server.close();
    for (const root of roots) await rm(root, { recursive: true, force: true });
  });

  test('three posts into ja and es through a 429 (Retry-After), a 500 and answers cut off at the output limit; a second run sends nothing', async () => {
    const root = await contentCopy(['ja', 'es']);
    const from = server.requests.length;
    server.outputLimit = 12;
    server.fault({ kind: 'rate-limit', retryAfter: '1' });
    server.fault({ kind: 'rate-limit', retryAfterMs: '1500' });
    server.fault({ kind: 'server-error' });
    try {
      const run = await translate(root, server, ['--lang', 'ja,es']);
      assert.equal(run.code, 0, run.out);
      assert.match(run.out, /openai: 429 Rate limit reached.*; trying again in 1\.0 s/);
      assert.match(run.out, /openai: 429 Rate limit reached.*; trying again in 1\.5 s/);
      assert.match(run.out, /openai: 500 The server had an error.*; trying again in/);
      assert.match(run.out, /6 translations written/);
      // The cost report: the tokens the server's answers said they used, at the documented default price.
      const cost = /^cost openai: \d+ characters, (\d+) input and (\d+) output tokens, about \$\d+\.\d+$/m.exec(run.out);
      assert.ok(cost && Number(cost[1]) > 0 && Number(cost[2]) > 0, run.out);
    } finally {
      server.outputLimit = Infinity;
    }
    await assertTranslated(root, ['ja', 'es']);
    const requests = server.requests.slice(from);
    for (const r of requests) {
      assert.equal(r.authorization, `Bearer ${server.key}`);
      assert.equal(r.body.model, MODEL);
      assert.equal(r.body.temperature, 0);
      assert.deepEqual(r.body.response_format?.json_schema?.strict, true);
      assert.ok(r.segments.length <= 40);
    }
    const cut = requests.filter((r) => r.answered === '200 length');
    assert.ok(cut.length > 0, 'some batches were cut off');
    for (const r of cut) {
      const halves = requests.filter((q) => q.answered === '200 stop' && q.lang === r.lang && r.segments.join('\n').includes(q.segments.join('\n')));
      assert.ok(halves.some((q) => q.segments.length === Math.ceil(r.segments.length / 2)), 'a cut-off batch is sent again in halves');
    }
    assert.ok(requests.filter((r) => r.answered === '200 stop').every((r) => r.segments.length <= 12));
    assert.match(requests[0]!.body.messages[0]!.content, /into Japanese \(日本語\)/);

    const before = await memoryOf(root);
    const again = await translate(root, server, ['--lang', 'ja,es']);
    assert.equal(again.code, 0, again.out);
    assert.match(again.out, /0 segments sent/);
    assert.equal(server.requests.length, from + requests.length, 'nothing reached the server');
    assert.deepEqual(await memoryOf(root), before);
  });

  test('an answer with a segment dropped, a summary, or no JSON is refused and asked again with the reason; a dropped placeholder is sent again alone', async () => {
    const root = await contentCopy(['ja', 'es', 'fr', 'de']);
    const from = server.requests.length;
    server.fault({ kind: 'drop-one' }, { lang: 'ja' });
    server.fault({ kind: 'summary' }, { lang: 'es' });
    server.fault({ kind: 'not-json' }, { lang: 'fr' });
    server.fault({ kind: 'drop-placeholder' }, { lang: 'de' });
    const run = await translate(root, server, ['small-tools', '--lang', 'ja,es,fr,de']);
    assert.equal(run.code, 0, run.out);
    const requests = server.requests.slice(from);
    const askedAgain = (lang: string, reason: RegExp) => {
      const [first, second] = requests.filter((r) => r.lang === lang);
      assert.deepEqual(second!.segments, first!.segments, `${lang}: the same segments again`);
      assert.match(second!.body.messages[0]!.content, reason);
      assert.doesNotMatch(first!.body.messages[0]!.content, /refused/);
    };
    const n = requests.find((r) => r.lang === 'ja')!.segments.length;
    askedAgain('ja', new RegExp(`Your previous answer was refused: it had ${n - 1} items for ${n} segments`));
    askedAgain('es', /Your previous answer was refused: it had 1 item for \d+ segments/);
    askedAgain('fr', /Your previous answer was refused: it was not valid JSON/);
    const alone = requests.filter((r) => r.lang === 'de' && r.segments.length === 1);
    assert.equal(alone.length, 1, 'the segment whose placeholder was dropped, alone');
    assert.match(alone[0]!.segments[0]!, /<x i="\d+"><\/x>/);
    assert.match(alone[0]!.body.messages[0]!.content, /failed a check \(.*placeholder/);
    for (const lang of ['ja', 'es', 'fr', 'de']) assert.match(run.out, new RegExp(`small-tools ${lang} \\(openai\\).*wrote`));
  });

  test('a quota stops the run at once keeping what was done; the next run sends only what is missing', async () => {
    const root = await contentCopy(['ja']);
    const from = server.requests.length;
    server.fault({ kind: 'quota' }, { skip: 2 });
    const stopped = await translate(root, server, ['--lang', 'ja']);
    assert.equal(stopped.code, 2, stopped.out);
    assert.match(stopped.out, /stopped: openai: the quota is used up \(429 You exceeded your current quota/);
    assert.match(stopped.out, /2 translations written/);
    assert.equal(server.requests.length - from, 3, 'nothing after the quota error');
    const kept = await memoryOf(root);

    const mark = server.requests.length;
    const resumed = await translate(root, server, ['--lang', 'ja']);
    assert.equal(resumed.code, 0, resumed.out);
    assert.deepEqual(sentSegments(server, mark), server.requests[mark - 1]!.segments, 'only the post the quota stopped');
    assert.deepEqual((await memoryOf(root)).filter((m, i) => m !== kept[i]).length, 1, 'the memory of the posts done before is as it was');
    await assertTranslated(root, ['ja']);
  });

  test('an answer refused twice and an answer cut off for one segment fail the run clearly; nothing is lost and the next run resumes', async () => {
    const root = await contentCopy(['ja']);
    let from = server.requests.length;
    server.fault({ kind: 'drop-one' }, { times: 2, skip: 1 });
    const failed = await translate(root, server, ['--lang', 'ja']);
    assert.equal(failed.code, 2, failed.out);
    assert.match(failed.out, new RegExp(`openai failed: ${MODEL}'s answer for \\d+ segments was refused twice: it had \\d+ items for \\d+ segments`));
    assert.equal(server.requests.length - from, 3);
    const done = new Set(server.requests[from]!.segments);

    from = server.requests.length;
    server.outputLimit = 0;
    try {
      const cut = await translate(root, server, ['--lang', 'ja']);
      assert.equal(cut.code, 2, cut.out);
      assert.match(cut.out, /answer for one segment was cut off at its output limit/);
    } finally {
      server.outputLimit = Infinity;
    }
    assert.ok(server.requests.slice(from).every((r) => !done.has(r.segments[0]!)), 'the first run\'s translations came from memory');

    from = server.requests.length;
    const resumed = await translate(root, server, ['--lang', 'ja']);
    assert.equal(resumed.code, 0, resumed.out);
    assert.ok(sentSegments(server, from).every((s) => !done.has(s)), 'what was done is not sent again');
    await assertTranslated(root, ['ja']);
  });

  test('a model that takes only its default temperature is asked again without one, once for the run', async () => {
    const root = await contentCopy(['ja']);
    const from = server.requests.length;
    server.defaultTemperatureOnly = true;
    try {
      const run = await translate(root, server, ['--lang', 'ja']);
      assert.equal(run.code, 0, run.out);
    } finally {
      server.defaultTemperatureOnly = false;
    }
    const requests = server.requests.slice(from);
    assert.deepEqual(requests.map((r) => r.answered), ['400 unsupported_value', '200 stop', '200 stop', '200 stop']);
    assert.ok(requests.slice(1).every((r) => r.body.temperature === undefined));
    await assertTranslated(root, ['ja']);
  });

  test('set-up errors are one line before anything is sent: a missing key, a wrong key, no model, a bad setting', async () => {
    const root = await contentCopy(['ja']);
    const from = server.requests.length;
    const cases: [Record<string, string | undefined>, RegExp, string?][] = [
      [{ OPENAI_BASE_URL: undefined, OPENAI_API_KEY: undefined }, /OPENAI_API_KEY is not set \(api\.openai\.com needs a key/],
      [{ OPENAI_BASE_URL: 'https://example.invalid/v1', OPENAI_API_KEY: '' }, /OPENAI_API_KEY is not set \(example\.invalid needs a key/],
      [{}, /openai needs a model: set models\.openai/, 'providers:\n  default: openai\n'],
      [{}, /models\.apertium: only openai has a choice of model/, 'models:\n  apertium: x\n'],
      [{}, /models\.openai: must be a model name/, 'models:\n  openai: 3\n'],
    ];
    for (const [env, message, settings] of cases) {
      if (settings) await writeFile(join(root, 'translation.yaml'), settings);
      const r = await translate(root, server, ['--lang', 'ja'], env);
      assert.equal(r.code, 2, r.out);
      assert.match(r.out, message);
      assert.equal(r.out.trim().split('\n').length, 1, r.out);
    }
    assert.equal(server.requests.length, from, 'nothing was sent');
    await writeFile(join(root, 'translation.yaml'), 'providers:\n  default: openai\n');

    // The model from the environment wins over the settings; a key the server refuses stops at the first request.
    const wrongKey = await translate(root, server, ['small-tools', '--lang', 'ja'], { FOLIO_OPENAI_MODEL: MODEL, OPENAI_API_KEY: 'sk-wrong' });
    assert.equal(wrongKey.code, 2, wrongKey.out);
    assert.match(wrongKey.out, /refused the key \(401 Incorrect API key provided: sk-\*{5}.*\): check OPENAI_API_KEY/);
    assert.equal(server.requests.length, from + 1);
    // A server on loopback needs no key: the client sends a placeholder one (this server wants a real one).
    const noKey = await translate(root, server, ['small-tools', '--lang', 'ja'], { FOLIO_OPENAI_MODEL: MODEL, OPENAI_API_KEY: undefined });
    assert.match(noKey.out, /refused the key/);
    assert.equal(server.requests.at(-1)!.authorization, 'Bearer no-key');
    const unknownModel = await translate(root, server, ['small-tools', '--lang', 'ja'], { FOLIO_OPENAI_MODEL: 'gpt-nonexistent' });
    assert.match(unknownModel.out, /has no model "gpt-nonexistent" \(404 The model `gpt-nonexistent` does not exist/);
    await assert.rejects(readFile(join(root, 'posts', 'small-tools', 'ja.md')), 'nothing was written');
  });
});
