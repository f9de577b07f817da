import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sourceHash } from '../../src/pipeline/derive/source-hash.ts';
import { MEMORY_FILE, TranslationMemory } from '../../src/translate/memory.ts';
import { documentText } from '../../src/translate/segments.ts';
import { segmentTexts } from '../../src/translate/translate-post.ts';
import { ReviewError, approveSegment, editable, fromEditable, reviewView } from '../../src/translate/review/review.ts';
import { crossSiteRefusal, isLoopbackAddress, isLoopbackHost } from '../../src/translate/review/http.ts';
import { loadPost } from '../../src/pipeline/load/posts.ts';

// The review core (src/translate/review/review.ts) on a small post: who wrote each segment, one
// approval at a time written as the XLIFF import writes, refusals; and the pages' request checks.
let root = '';
const dir = () => join(root, 'posts', 'tides');
const TITLE = 'On Tides';
const BODY = [
  'The moon pulls the sea, as [the almanac](https://example.org/almanac) says.',
  '',
  'Run `tide --now` to see the *next* high water.',
  '',
  '## Spring tides',
  '',
  'They come twice a month.',
  '',
].join('\n');
const DE_BODY = [
  'Der Mond zieht das Meer, wie [der Almanach](https://example.org/almanac) sagt.',
  '',
  'Führe `tide --now` aus, um das *nächste* Hochwasser zu sehen.',
  '',
  '## Springfluten',
  '',
  'Sie kommen zweimal im Monat.',
  '',
].join('\n');

const english = (title: string, body: string) => `---\ntitle: "${title}"\ndate: 2026-01-05\nauthor: Ana\nsummary: "A short essay."\ncategories: [nature]\n---\n\n${body}`;
const german = (hash: string, extra = '') => `---\ntitle: "Über Gezeiten"\nsummary: "Ein kurzer Aufsatz."\nprovider: "apertium:3.8.3"\nautomated: true\nverified: false\nsource_hash: "${hash}"\n${extra}---\n\n${DE_BODY}`;

/** Writes the post and records the German as an engine's (review: the indexes kept as a person's text under a changed English). */
async function setUp(reviewAt: number[] = []) {
  await rm(root, { recursive: true, force: true });
  await mkdir(dir(), { recursive: true });
  await writeFile(join(root, 'site.yaml'), '');
  await writeFile(join(dir(), 'en.md'), english(TITLE, BODY));
  const de = german(sourceHash(TITLE, BODY), reviewAt.length ? `needs_review: ${JSON.stringify(reviewAt.map((i) => `segment ${i}`))}\n` : '');
  await writeFile(join(dir(), 'de.md'), de);
  const post = await loadPost(join(root, 'posts'), 'tides');
  const sources = segmentTexts(documentText(post.english, post.english.body));
  const t = post.translations[0]!;
  const texts = segmentTexts(documentText(t, t.body));
  const memory = await TranslationMemory.open(join(dir(), MEMORY_FILE));
  memory.journal('de', de, sources, texts, sources.map((_, i) => (reviewAt.includes(i) ? 'review' : 'apertium:3.8.3')));
  memory.commit('de');
  await memory.save();
}

const approve = async (index: number, text?: string) => {
  const view = await reviewView(root, 'tides', 'de');
  return approveSegment(root, 'tides', 'de', { index, text: text ?? view.segments[index]!.text, by: 'Ana Ruiz', at: '2026-11-28', checksum: view.checksum });
};

before(async () => {
  root = await mkdtemp(join(tmpdir(), 'folio-review-unit-'));
});
after(() => rm(root, { recursive: true, force: true }));

describe('the review of one translation', () => {
  test("the reviewer's form: words unescaped, placeholders short; back to tagged text as it was", () => {
    const tagged = 'Lee <a i="1">la <em>guía</em></a> &amp; <x i="2"></x> &lt;3';
    assert.equal(editable(tagged), 'Lee <a i="1">la <em>guía</em></a> & <x i="2"/> <3');
    assert.equal(fromEditable(editable(tagged)), 'Lee <a i="1">la <em>guía</em></a> &amp; <x i="2"/> &lt;3');
    assert.equal(fromEditable('two\nlines'), 'two lines', 'a segment stays one block');
  });

  test('every segment says who wrote it: the engine, or a person once approved', async () => {
    await setUp();
    const view = await reviewView(root, 'tides', 'de');
    assert.equal(view.problem, undefined);
    assert.deepEqual(view.segments.map((s) => s.where), ['title', 'summary', 'paragraph at line 9', 'paragraph at line 11', 'heading at line 13', 'paragraph at line 15']);
    assert.deepEqual(new Set(view.segments.map((s) => `${s.state} ${s.engine}`)), new Set(['machine apertium:3.8.3']));
    assert.deepEqual(view.segments[2]!.slots, ['link to https://example.org/almanac']);
    assert.equal(view.segments[3]!.text, 'Führe <x i="1"/> aus, um das <em>nächste</em> Hochwasser zu sehen.');
    // Corrected in the file by hand since Folio wrote it: a person's.
    const file = join(dir(), 'de.md');
    await writeFile(file, (await readFile(file, 'utf8')).replace('zweimal im Monat', 'zweimal in jedem Monat'));
    assert.equal((await reviewView(root, 'tides', 'de')).segments[5]!.state, 'person');
  });

  test('an edited segment is written into its block alone, links and code kept; the memory records it as a person\'s', async () => {
    await setUp();
    const view = await approve(2, 'Der Mond zieht das Meer an, wie <a i="1">der alte Almanach</a> sagt.');
    const file = await readFile(join(dir(), 'de.md'), 'utf8');
    assert.match(file, /^Der Mond zieht das Meer an, wie \[der alte Almanach\]\(https:\/\/example\.org\/almanac\) sagt\.$/m);
    assert.equal(file.slice(file.indexOf('Führe')), DE_BODY.slice(DE_BODY.indexOf('Führe')), 'every other byte of the body as it was');
    assert.match(file, /^verified: false$/m, 'not every segment is approved yet');
    assert.match(file, /^verified_by: "Ana Ruiz"$/m);
    assert.match(file, /^verified_at: "2026-11-28"$/m);
    assert.match(file, /^provider: "apertium:3\.8\.3"$/m);
    assert.deepEqual(view.segments.map((s) => s.state), ['machine', 'machine', 'person', 'machine', 'machine', 'machine']);
    const memory = await TranslationMemory.open(join(dir(), MEMORY_FILE));
    const en = segmentTexts(documentText({ title: TITLE, summary: 'A short essay.' }, BODY));
    assert.deepEqual(memory.lookup(en[2]!, 'de', 'apertium:3.8.3'), { text: 'Der Mond zieht das Meer an, wie <a i="1">der alte Almanach</a> sagt.', human: true });
  });

  test('an edit that drops what is kept as written, or made on a file changed since, is refused and nothing is written', async () => {
    await setUp();
    const before = await readFile(join(dir(), 'de.md'), 'utf8');
    await assert.rejects(approve(3, 'Führe es aus.'), (e: ReviewError) => e.status === 400 && /paragraph at line 11: placeholder 1 dropped/.test(e.message));
    await assert.rejects(approve(2, 'Der Mond <a i="7">zieht</a>.'), (e: ReviewError) => e.status === 400);
    const view = await reviewView(root, 'tides', 'de');
    await writeFile(join(dir(), 'de.md'), before.replace('zweimal', 'zwei Mal'));
    await assert.rejects(approveSegment(root, 'tides', 'de', { index: 0, text: 'Gezeiten', by: 'Ana', at: '2026-11-28', checksum: view.checksum }), (e: ReviewError) => e.status === 409 && /changed since this page was loaded/.test(e.message));
    await writeFile(join(dir(), 'de.md'), before);
    assert.equal(await readFile(join(dir(), 'de.md'), 'utf8'), before);
    await assert.rejects(reviewView(root, 'nope', 'de'), (e: ReviewError) => e.status === 404);
    await assert.rejects(reviewView(root, '../etc', 'de'), (e: ReviewError) => e.status === 404);
    await assert.rejects(reviewView(root, 'tides', 'xx'), (e: ReviewError) => e.status === 404);
  });

  test('a text kept for review is highlighted and leaves needs_review once approved; every segment approved: verified', async () => {
    await setUp([4]);
    let view = await reviewView(root, 'tides', 'de');
    assert.equal(view.segments[4]!.state, 'review');
    for (const i of [0, 1, 2, 3, 5]) view = await approve(i);
    let file = await readFile(join(dir(), 'de.md'), 'utf8');
    assert.match(file, /^needs_review: \["heading at line 13 of en\.md"\]$/m, 'still awaiting review');
    assert.match(file, /^verified: false$/m);
    view = await approve(4);
    file = await readFile(join(dir(), 'de.md'), 'utf8');
    assert.doesNotMatch(file, /needs_review/);
    assert.match(file, /^verified: true$/m);
    assert.equal(view.verified, true);
    assert.equal(file.slice(file.indexOf('\n---', 3) + 4), `\n\n${DE_BODY}`, 'approving unchanged text leaves the body as it was');
  });

  test('a stale file shows the changed English; approved all the same, it is not verified (translations verify refuses it too)', async () => {
    await setUp();
    const edited = BODY.replace('They come twice a month.', 'They come twice a lunar month.');
    await writeFile(join(dir(), 'en.md'), english(TITLE, edited));
    let view = await reviewView(root, 'tides', 'de');
    assert.equal(view.segments[5]!.state, 'changed');
    assert.match(view.refusal!, /is stale/);
    for (let i = 0; i < view.segments.length; i++) view = await approve(i);
    assert.ok(view.segments.every((s) => s.state === 'person'));
    assert.equal(view.verified, false);
    assert.match(await readFile(join(dir(), 'de.md'), 'utf8'), new RegExp(`^source_hash: "${sourceHash(TITLE, BODY)}"$`, 'm'), 'the source hash is left as it was');
  });
});

describe("the review pages' request checks", () => {
  const req = (headers: Record<string, string>) => ({ headers }) as unknown as IncomingMessage;
  test('loopback clients and names only', () => {
    for (const a of ['127.0.0.1', '127.4.5.6', '::1', '::ffff:127.0.0.1']) assert.ok(isLoopbackAddress(a), a);
    for (const a of ['10.0.0.2', '192.168.1.4', '::ffff:10.0.0.1', 'fe80::1', undefined]) assert.ok(!isLoopbackAddress(a), String(a));
    for (const h of ['localhost:4321', 'localhost', '127.0.0.1:80', '[::1]:4321', 'app.localhost:1']) assert.ok(isLoopbackHost(h), h);
    for (const h of ['evil.example', 'localhost.evil.example:4321', '127.0.0.1.nip.io', undefined]) assert.ok(!isLoopbackHost(h), String(h));
  });
  test('a save needs the same origin and the token', () => {
    const host = 'localhost:4321';
    assert.equal(crossSiteRefusal(req({ host, origin: `http://${host}`, 'sec-fetch-site': 'same-origin', 'x-review-token': 'secret' }), 'secret'), undefined);
    assert.equal(crossSiteRefusal(req({ host, 'x-review-token': 'secret' }), 'secret'), undefined, 'a client that is not a browser sends neither');
    assert.match(crossSiteRefusal(req({ host, 'sec-fetch-site': 'same-site', 'x-review-token': 'secret' }), 'secret')!, /another site/);
    assert.match(crossSiteRefusal(req({ host, origin: 'null', 'x-review-token': 'secret' }), 'secret')!, /another origin/);
    assert.match(crossSiteRefusal(req({ host, 'x-review-token': 'secreT' }), 'secret')!, /token/);
    assert.match(crossSiteRefusal(req({ host }), 'secret')!, /token/);
  });
});
