import { before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { imageSize } from 'image-size';
import { get, startServer, TARGET, useServer } from '../helpers/server.ts';
import { corpus } from '../helpers/corpus.ts';
import { htmlText, stripAccents, words } from '../helpers/text.ts';
import { LANGUAGE_CODES } from '../../src/core/languages.ts';

const site = useServer();
const CJK = new Set(['zh', 'ja', 'ko']);

/** Each language's available posts with their plain text, read once through the detail API. */
const texts = new Map<string, Map<string, string>>();
async function loadTexts() {
  if (texts.size > 0) return;
  const c = await corpus('content');
  for (const lang of LANGUAGE_CODES) {
    const m = new Map<string, string>();
    for (const p of c.availableIn(lang)) {
      const d = (await get(site.url, `/api/posts/${p.slug}?lang=${lang}`)).json.data;
      m.set(p.slug, htmlText(d.content_html));
    }
    texts.set(lang, m);
  }
}

const search = async (q: string, extra = '') => (await get(site.url, `/api/search?q=${encodeURIComponent(q)}&per_page=100${extra}`));
const slugsOf = (r: { json: { data: { slug: string }[] } }) => r.json.data.map((d) => d.slug);

/** The word of a post that the fewest other posts of its language contain (longest on ties). */
function distinctive(lang: string, slug: string): string {
  const all = texts.get(lang)!;
  const lower = (s: string) => s.toLocaleLowerCase();
  const minLength = CJK.has(lang) ? 2 : 5;
  const candidates = [...new Set(words(lang, all.get(slug)!))].filter((w) => [...w].length >= minLength && !/\d/.test(w));
  let best = candidates[0]!;
  let bestDf = Infinity;
  for (const w of candidates) {
    const df = [...all.values()].filter((t) => lower(t).includes(lower(w))).length;
    if (df < bestDf || (df === bestDf && w.length > best.length)) [best, bestDf] = [w, df];
  }
  return best;
}

/** Two words as they stand next to each other in the text (nothing but a space between). */
function adjacentPair(lang: string, text: string): string | undefined {
  const segs = [...new Intl.Segmenter(lang === 'pt-br' ? 'pt' : lang, { granularity: 'word' }).segment(text)];
  for (let i = 2; i + 2 < segs.length; i++) {
    const [a, gap, b] = [segs[i]!, segs[i + 1]!, segs[i + 2]!];
    if (a.isWordLike && b.isWordLike && gap.segment === ' ') return a.segment + ' ' + b.segment;
    if (a.isWordLike && gap.isWordLike && !/\s/.test(a.segment + gap.segment) && CJK.has(lang)) return a.segment + gap.segment;
  }
  return undefined;
}

describe('recall', () => {
  before(loadTexts);
  test('a distinctive word of every available post is found in every language (100 %)', async () => {
    const report: string[] = [];
    const misses: string[] = [];
    for (const lang of LANGUAGE_CODES) {
      let found = 0;
      for (const slug of texts.get(lang)!.keys()) {
        const word = distinctive(lang, slug);
        const r = await search(word, `&lang=${lang}`);
        if (slugsOf(r).includes(slug)) found++;
        else misses.push(`${lang}/${slug}: "${word}"`);
      }
      const n = texts.get(lang)!.size;
      report.push(`${lang} ${found}/${n} (${((100 * found) / n).toFixed(0)} %)`);
    }
    console.log(`recall per language: ${report.join(', ')}`);
    assert.deepEqual(misses, []);
  });

  test('case, accents, prefixes and phrases, per script', async () => {
    const misses: string[] = [];
    const expectFound = async (lang: string, slug: string, q: string, why: string) => {
      if (!slugsOf(await search(q, `&lang=${lang}`)).includes(slug)) misses.push(`${lang}/${slug} ${why}: ${q}`);
    };
    for (const lang of LANGUAGE_CODES) {
      for (const [slug, text] of texts.get(lang)!) {
        const ws = words(lang, text).filter((w) => [...w].length >= (CJK.has(lang) ? 2 : 4));
        const word = distinctive(lang, slug);
        if (word.toLocaleUpperCase() !== word) await expectFound(lang, slug, word.toLocaleUpperCase(), 'upper case');
        const accented = ws.find((w) => stripAccents(w) !== w && /\p{Script=Latin}/u.test(w));
        if (accented && lang !== 'vi') await expectFound(lang, slug, stripAccents(accented), 'without accents');
        if (accented) await expectFound(lang, slug, accented, 'with accents');
        const long = ws.find((w) => [...w].length >= (CJK.has(lang) ? 3 : 6))!;
        if (long && lang !== 'zh' && lang !== 'ja') await expectFound(lang, slug, [...long].slice(0, Math.ceil([...long].length * 0.6)).join(''), 'prefix');
        const phrase = adjacentPair(lang, text.slice(0, 600));
        if (phrase) await expectFound(lang, slug, `"${phrase}"`, 'phrase');
      }
    }
    assert.deepEqual(misses, []);
  });

  test('script specifics: Turkish dotted and dotless i, Arabic diacritics, Japanese voicing marks', async () => {
    const tr = [...texts.get('tr')!].find(([, t]) => /ı/.test(t))!;
    const dotless = words('tr', tr[1]).find((w) => w.includes('ı') && w.length >= 5)!;
    assert.ok(slugsOf(await search(dotless.replace(/ı/g, 'I').toLocaleUpperCase('en'), '&lang=tr')).includes(tr[0]), `${dotless} in capitals`);
    const ar = [...texts.get('ar')!][0]!;
    const arWord = words('ar', ar[1]).find((w) => w.length >= 5)!;
    const withHarakat = [...arWord].map((ch, i) => (i === 1 ? `${ch}\u064E` : ch)).join('');
    assert.ok(slugsOf(await search(withHarakat, '&lang=ar')).includes(ar[0]), 'Arabic with a fatha added');
    const [jaSlug, jaText] = [...texts.get('ja')!].find(([, t]) => /[ガギグゲゴザジズゼゾダヂヅデドバビブベボ]/.test(t))!;
    const voiced = words('ja', jaText).find((w) => /[ガギグゲゴザジズゼゾダヂヅデドバビブベボ]/.test(w))!;
    assert.ok(slugsOf(await search(voiced, '&lang=ja')).includes(jaSlug), `voiced ${voiced}`);
    const unvoiced = voiced.normalize('NFD').replace(/\u3099/g, '').normalize('NFC');
    const hasUnvoiced = [...texts.get('ja')!].filter(([, t]) => t.includes(unvoiced)).map(([slug]) => slug);
    const r = await search(unvoiced, '&lang=ja');
    if (hasUnvoiced.length > 0) assert.deepEqual(slugsOf(r).slice(0, hasUnvoiced.length).sort(), hasUnvoiced.sort(), `${unvoiced} matches where it is written first`);
    // Folding keeps voicing marks: the unvoiced form is not the voiced word, at most a one-kana slip of it (5 kana or more), which a suggestion names.
    else if ([...unvoiced].length >= 5) assert.equal(r.json.suggestion, voiced, `${unvoiced} is a slip of ${voiced}`);
    else assert.deepEqual(slugsOf(r), [], `${unvoiced} matches only where it is written`);
  });
});

describe('REST search', () => {
  test('envelope: query echo, total, summaries with snippets, meta, images; no pagination block, no body', async () => {
    const r = await search('tide');
    assert.equal(r.status, 200);
    assert.equal(r.json.query, 'tide');
    assert.equal(typeof r.json.attribution, 'string');
    assert.equal(r.json.pagination, undefined);
    assert.equal(r.json.total, r.json.data.length);
    assert.ok(r.json.total >= 1);
    assert.equal(r.json.data[0].slug, 'tidal-energy', 'the essay about tides ranks first');
    for (const item of r.json.data) {
      assert.equal(typeof item.snippet, 'string');
      assert.equal(item.content_html, undefined);
      assert.equal(item.content_markdown, undefined);
      assert.match(item.snippet.toLowerCase(), /tide/);
    }
    assert.equal(r.json.meta.language, 'en');
    assert.ok(Array.isArray(r.json.images));
    assert.equal(typeof r.json.total_images, 'number');
  });

  test('images carry the real pixel size of the served file, in result order, deduplicated', async () => {
    const r = await search('the', '&per_page=100');
    assert.ok(r.json.images.length >= 4);
    assert.equal(r.json.total_images, r.json.images.length);
    assert.equal(new Set(r.json.images.map((i: { url: string }) => i.url)).size, r.json.images.length);
    const order = r.json.data.map((d: { slug: string }) => d.slug);
    const positions = r.json.images.map((i: { post_slug: string }) => order.indexOf(i.post_slug));
    assert.deepEqual(positions, [...positions].sort((a, b) => a - b));
    for (const img of r.json.images) {
      assert.equal(img.type, 'image');
      for (const k of ['url', 'title', 'description', 'post_slug', 'post_url', 'post_title']) assert.equal(typeof img[k], 'string', k);
      const bytes = new Uint8Array(await (await fetch(site.url + img.url)).arrayBuffer());
      const size = imageSize(bytes);
      assert.deepEqual([img.width, img.height], [size.width, size.height], img.url);
    }
    const page = await search('the', '&per_page=2');
    assert.equal(page.json.total_images, r.json.total_images, 'total_images counts all matches');
    assert.ok(page.json.images.every((i: { post_slug: string }) => page.json.data.some((d: { slug: string }) => d.slug === i.post_slug)));
  });

  test('snippets: text around the match, ellipses where cut, whole CJK words', async () => {
    const r = await search('harbour');
    const s: string = r.json.data[0].snippet;
    assert.ok(s.length <= 220);
    assert.match(s, /harbour/i);
    const deep = (await search('cumin')).json.data[0].snippet as string;
    assert.ok(deep.startsWith('…'), 'cut at the start');
    const zh = (await search('网络', '&lang=zh')).json.data[0].snippet as string;
    assert.ok(zh.includes('网络'));
    assert.ok(!/[\uD800-\uDBFF]$|^[\uDC00-\uDFFF]/.test(zh.replace(/…/g, '')), 'no broken surrogate pairs');
  });

  test('a snippet shows the word searched whole where the post has it, and no ellipsis after a sentence end', async () => {
    for (const word of ['garden', 'legible']) {
      const r = await search(word);
      assert.ok(r.json.data.length > 0, word);
      for (const { slug, snippet } of r.json.data as { slug: string; snippet: string }[]) {
        assert.match(snippet, new RegExp(`(^|[^\\p{L}])${word}([^\\p{L}]|$)`, 'iu'), `${slug}: ${snippet}`);
        assert.doesNotMatch(snippet, /[.!?]…$/, `${slug}: ${snippet}`);
      }
    }
  });

  test('paging, q/query aliases, legacy alias', async () => {
    const all = await search('the');
    const p2 = await get(site.url, '/api/search?q=the&page=2&per_page=2');
    assert.deepEqual(slugsOf(p2), slugsOf(all).slice(2, 4));
    assert.equal(p2.json.total, all.json.total);
    assert.equal((await get(site.url, '/api/search?query=tide')).text, (await get(site.url, '/api/search?q=tide')).text);
    assert.equal((await get(site.url, '/api/search?q=tide&query=bread')).json.query, 'tide');
    assert.equal((await get(site.url, '/mcp/v1/search?query=tide')).text, (await get(site.url, '/api/search?q=tide')).text);
    const past = await get(site.url, '/api/search?q=the&page=50');
    assert.equal(past.status, 200);
    assert.deepEqual(past.json.data, []);
  });

  test('400s: missing, blank or too long query, bad lang, bad paging', async () => {
    for (const path of ['/api/search', '/api/search?q=', '/api/search?q=%20%20', '/mcp/v1/search', '/api/stream/search']) {
      const r = await get(site.url, path);
      assert.equal(r.status, 400, path);
      assert.match(r.json.error, /\?q=/);
    }
    assert.equal((await get(site.url, `/api/search?q=${'a'.repeat(257)}`)).status, 400);
    assert.equal((await get(site.url, `/api/search?q=${'a'.repeat(256)}`)).status, 200);
    const lang = await get(site.url, '/api/search?q=tide&lang=xx');
    assert.equal(lang.status, 400);
    assert.equal(lang.json.supported_languages.length, 14);
    assert.equal((await get(site.url, '/api/search?q=tide&per_page=101')).status, 400);
    assert.equal((await get(site.url, '/api/search?q=tide&fallback=de')).status, 400);
  });

  test('translated search finds only available translations; fallback=en adds English originals', async () => {
    const c = await corpus('content');
    const hi = await search('the', '&lang=hi');
    for (const d of hi.json.data) assert.equal(c.stateOf(d.slug, 'hi'), 'available');
    const tide = await search('tide', '&lang=fr');
    assert.ok(!slugsOf(tide).includes('tidal-energy'), 'no French tide essay');
    const fb = await search('tide', '&lang=fr&fallback=en');
    const item = fb.json.data.find((d: { slug: string }) => d.slug === 'tidal-energy');
    assert.equal(item.language, 'en');
    assert.equal(item.translation.fallback_used, true);
    assert.equal(item.translation.target_language, 'fr');
  });

  test('repeated searches: one ETag for the normalised query, 304 on If-None-Match, streams never cached', async () => {
    const first = await get(site.url, '/api/search?q=tide&lang=en');
    const etag = first.headers.get('etag');
    assert.ok(etag);
    const spaced = await get(site.url, '/api/search?query=%20%20tide%20&page=1&per_page=10&utm=x');
    assert.equal(spaced.text, first.text);
    assert.equal(spaced.headers.get('etag'), etag, 'the same key: trimmed text, defaults, unknown parameters dropped');
    const again = await fetch(`${site.url}/api/search?q=tide`, { headers: { 'if-none-match': etag! } });
    assert.equal(again.status, 304);
    const streamed = await fetch(`${site.url}/api/search?q=tide`, { headers: { accept: 'text/event-stream' } });
    assert.match(streamed.headers.get('content-type')!, /^text\/event-stream/, 'a cached JSON answer never stands in for a stream');
    for (const r of [first, spaced, streamed]) assert.match(r.headers.get('vary') ?? '', /\bAccept\b/, 'JSON or a stream, chosen by Accept');
    await streamed.body!.cancel();
  });

  test('the sandbox searches its own corpus', async () => {
    const r = await get(site.url, '/sandbox/api/search?q=sandbox');
    assert.equal(r.status, 200);
    assert.ok(r.json.total >= 1);
    for (const d of r.json.data) assert.match(d.url, /\/sandbox\//);
    const media = await get(site.url, '/sandbox/api/search?q=media');
    assert.ok(media.json.images.length >= 1);
  });
});

describe('word forms, typos, suggestions', () => {
  const slugs = async (q: string, extra = '') => slugsOf(await search(q, extra));

  test('walk and walked find the same essays; map and mapping too; the form searched ranks first', async () => {
    const walk = await slugs('walk');
    const walked = await slugs('walked');
    assert.ok(walk.length >= 4, `walk: ${walk}`);
    assert.deepEqual([...walked].sort(), [...walk].sort(), 'walked finds every essay holding walk, walking or walked');
    const map = await slugs('map');
    assert.ok(map.includes('the-cartographers-dilemma'));
    assert.deepEqual([...(await slugs('mapping'))].sort(), [...map].sort(), 'mapping finds map and maps');
    const r = await search('walked');
    assert.match(r.json.data[0].snippet, /walked/i, 'the essay holding the word as searched comes first and shows it');
    assert.equal(r.json.suggestion, null, 'a word the essays hold is never corrected');
  });

  test('a typo finds the word (tidle -> tide), below exact matches, and suggests it', async () => {
    const r = await search('tidle');
    assert.equal(r.json.data[0]?.slug, 'tidal-energy');
    assert.match(r.json.data[0].snippet, /\btides?\b/i, 'the snippet shows the word found');
    assert.equal(r.json.suggestion, 'tide');
    assert.deepEqual(slugsOf(await search('"tidle"')), [], 'a quoted phrase stays exact');
  });

  test('other languages: an inflected form and a typo find the essay', async () => {
    await loadTexts();
    // The French, Russian and German essays about tides hold these forms; the query holds another.
    for (const [lang, q] of [['fr', 'marées'], ['de', 'Gezeit'], ['ru', 'приливами'], ['es', 'mareas']] as const) {
      const found = await slugs(q, `&lang=${lang}`);
      if (!texts.get(lang)!.has('tidal-energy')) continue;
      assert.ok(found.includes('tidal-energy'), `${lang}: ${q} -> ${found}`);
    }
  });

  test('"did you mean": a query without results suggests the nearest words, and the suggestion finds essays', async () => {
    const miss = await search('mpa');
    assert.equal(miss.json.total, 0);
    assert.equal(typeof miss.json.suggestion, 'string');
    assert.ok((await search(miss.json.suggestion)).json.total > 0, `the suggestion ${miss.json.suggestion} finds essays`);
    assert.equal((await search('zzqqxxnothing')).json.suggestion, null, 'nothing near: no suggestion');
    const page = await get(site.url, '/search?q=mpa');
    const suggestion = /<p class="meta" id="search-suggestion">(.*?)<\/p>/.exec(page.text)?.[1];
    assert.ok(suggestion, 'the search page offers it');
    assert.match(suggestion, new RegExp(`<a href="/search\\?q=${encodeURIComponent(miss.json.suggestion)}"><bdi>${miss.json.suggestion}</bdi></a>`));
  });

  test('the search page marks the forms matched: walked for walk', async () => {
    const page = await get(site.url, '/search?q=walk');
    const marks = [...page.text.matchAll(/<mark>([^<]*)<\/mark>/g)].map((m) => m[1]!.toLowerCase());
    assert.ok(marks.includes('walk') || marks.includes('walking'), marks.join(' '));
    const walked = await get(site.url, '/search?q=walking');
    const forms = new Set([...walked.text.matchAll(/<mark>([^<]*)<\/mark>/g)].map((m) => m[1]!.toLowerCase()));
    assert.ok([...forms].some((f) => f !== 'walking' && f.startsWith('walk')), `other forms of walking are marked: ${[...forms]}`);
  });
});

describe('a word the essays lack (issue 39)', () => {
  type Hit = { slug: string; missing_words: string[] };
  test('natural queries with one word no essay holds find the essay holding the others, naming the word it lacks', async () => {
    const cases: [lang: string, q: string, slug: string, missing: string[]][] = [
      ['en', 'sourdough recipe tips', 'bread-and-time', ['tips']],
      ['de', 'Sauerteig Rezept Tipps', 'bread-and-time', ['tipps']],
      ['ru', 'закваска рецепт лайфхаки', 'bread-and-time', ['лайфхаки']],
      ['zh', '墨卡托投影 缺点', 'the-cartographers-dilemma', ['缺点']],
      ['ar', 'تعفن الروابط أسباب', 'the-slow-web', ['أسباب']],
    ];
    for (const [lang, q, slug, missing] of cases) {
      const r = await search(q, `&lang=${lang}`);
      assert.equal(r.status, 200);
      const first = r.json.data[0] as Hit | undefined;
      assert.equal(first?.slug, slug, `${lang}: ${q} -> ${slugsOf(r)}`);
      assert.deepEqual(first.missing_words, missing, `${lang}: ${q} names the word the essay lacks`);
      assert.equal(r.json.total, r.json.data.length);
    }
  });

  test('essays holding every word rank before those holding most, and those before those holding fewer', async () => {
    const r = await search('slow archive zzqqxx');
    const hits = r.json.data as Hit[];
    const counts = hits.map((d) => d.missing_words.length);
    assert.ok(counts.includes(1) && counts.includes(2), `results: ${counts}`);
    assert.deepEqual(counts, [...counts].sort((a, b) => a - b), 'fewest missing words first');
    assert.deepEqual(hits[0]!.missing_words, ['zzqqxx']);
    assert.deepEqual(hits.at(-1)!.missing_words.length, 2);
    const both = await search('map walking');
    assert.deepEqual((both.json.data as Hit[])[0], { ...both.json.data[0], slug: 'walking-the-city', missing_words: [] }, 'the essay with both words first');
    assert.ok((both.json.data as Hit[]).slice(1).every((d) => d.missing_words.length === 1));
  });

  test('the search page names, under each result, the words it lacks (struck through), in the page\'s language', async () => {
    const page = await get(site.url, '/search?q=sourdough%20recipe%20tips');
    const items = [...page.text.matchAll(/<li [^>]*>(.*?)<\/li>/g)].map((m) => m[1]!);
    assert.ok(items.length > 0, 'results');
    assert.match(items[0]!, /<p class="meta missing">Missing: <s><bdi>tips<\/bdi><\/s><\/p>/);
    const full = await get(site.url, '/search?q=walk');
    assert.doesNotMatch(full.text, /class="meta missing"/, 'a result holding every word names none');
    const de = await get(site.url, '/de/search?q=Sauerteig%20Rezept%20Tipps');
    assert.match(de.text, /<p class="meta missing">Fehlt: <s><bdi>tipps<\/bdi><\/s><\/p>/);
  });
});

describe('Chinese and Japanese: folding, kana slips and unknown compounds (issue 39)', () => {
  test('traditional characters find the simplified text (地圖 for 地图)', async () => {
    const simplified = slugsOf(await search('地图', '&lang=zh'));
    assert.ok(simplified.includes('the-cartographers-dilemma'));
    assert.deepEqual(slugsOf(await search('地圖', '&lang=zh')), simplified);
    assert.deepEqual(slugsOf(await search('比特腐爛', '&lang=zh')), slugsOf(await search('比特腐烂', '&lang=zh')));
  });

  test('a one-kana slip in Japanese finds the word (チェックサン for チェックサム)', async () => {
    assert.ok(slugsOf(await search('チェックサム', '&lang=ja')).includes('the-archive-problem'));
    assert.deepEqual(slugsOf(await search('チェックサン', '&lang=ja')), ['the-archive-problem']);
  });

  test('the single characters of an unknown compound must be written together: 比特腐烂 finds only the essay holding it', async () => {
    assert.deepEqual(slugsOf(await search('比特腐烂', '&lang=zh')), ['the-archive-problem']);
  });
});

describe('typo correction and suggestions (issue 39)', () => {
  test('a short word one letter from a common word of the essays is not corrected into it (ekmek is not etmek, रोटी is not छोटी)', async () => {
    for (const [lang, q] of [['tr', 'ekmek'], ['hi', 'रोटी']] as const) {
      const r = await search(q, `&lang=${lang}`);
      assert.deepEqual([r.json.total, r.json.suggestion], [0, null], `${lang}: ${q} -> ${slugsOf(r)}, ${r.json.suggestion}`);
    }
    assert.equal((await search('tidle')).json.suggestion, 'tide', 'a slip still is');
  });

  test('a suggestion is written as the essays write it (Bäcker, Großvater), the words it keeps as typed', async () => {
    assert.equal((await search('bakcer', '&lang=de')).json.suggestion, 'Bäcker');
    assert.equal((await search('grossvatter', '&lang=de')).json.suggestion, 'Großvater');
    assert.equal((await search('Bakcer Brot', '&lang=de')).json.suggestion, 'Bäcker Brot');
  });

  test('no suggestion when the words were found as written or in another form', async () => {
    for (const [lang, q] of [['de', 'Bäckers'], ['de', 'backer'], ['en', 'walked'], ['en', 'sourdough recipe tips']] as const) {
      const r = await search(q, `&lang=${lang}`);
      assert.ok(r.json.total > 0, `${lang}: ${q}`);
      assert.equal(r.json.suggestion, null, `${lang}: ${q}`);
    }
  });
});

describe('uncached search over HTTP (issue 39)', () => {
  // Natural queries as readers type them: several words, one the essays lack, slips, other scripts.
  const QUERIES: [string, string][] = [
    ['en', 'sourdough recipe tips'], ['en', 'slow archive zzqqxx'], ['en', 'harbur walk'], ['en', 'tidle energy'], ['en', 'map walking city'],
    ['de', 'Sauerteig Rezept Tipps'], ['de', 'bakcer Brot'], ['fr', 'marées énergie coût'], ['es', 'mareas energía'], ['ru', 'закваска рецепт лайфхаки'],
    ['zh', '墨卡托投影 缺点'], ['zh', '比特腐烂'], ['ja', 'チェックサン'], ['ar', 'تعفن الروابط أسباب'], ['hi', 'रोटी ध्यान'], ['tr', 'ekmek şehir'],
    // Words most essays hold beside one none does: a page of ten essays each lacking a word.
    ['en', 'the time zzqqxx'], ['de', 'die Zeit qqxxzz'], ['fr', 'le temps zzqqxx'], ['ru', 'время xxqq'],
  ];
  // The ratio to /status is printed here and by npm run bench:search (docs/search.md has the figures):
  // the suite keeps no timing asserts (its files run two at a time beside other work).
  test('every natural query answers uncached; the time against /status is printed', { skip: TARGET === 'cloudflare' ? 'timed on the Node server only' : false }, async () => {
    const server = await startServer({ ANSWER_CACHE_MB: '0', RATE_LIMIT: '0' });
    try {
      const timed = async (path: string) => {
        const t = performance.now();
        const r = await fetch(server.url + path);
        await r.arrayBuffer();
        assert.equal(r.status, 200, path);
        return performance.now() - t;
      };
      const paths = QUERIES.map(([lang, q]) => `/api/search?q=${encodeURIComponent(q)}&lang=${lang}`);
      for (const p of [...paths, '/status']) await timed(p); // every language loaded, the code warm
      // Computed answers are written from their bytes, without a stream read (issue 39): the same bytes and
      // headers as the answer cache serves (the suite's server caches; only its rate-limit headers differ).
      const answer = async (base: string, path: string, init: RequestInit) => {
        const r = await fetch(base + path, init);
        const headers = [...r.headers].filter(([k]) => k !== 'date' && !k.startsWith('x-ratelimit-'));
        return { status: r.status, headers, body: Buffer.from(await r.arrayBuffer()).toString('base64') };
      };
      for (const p of [...paths.slice(0, 6), '/api/posts?lang=de', '/search?q=tidal&lang=en']) {
        for (const init of [{}, { headers: { 'accept-encoding': 'br' } }, { headers: { 'accept-encoding': 'gzip' } }, { method: 'HEAD' }]) {
          assert.deepEqual(await answer(server.url, p, init), await answer(site.url, p, init), `${p} ${JSON.stringify(init)}`);
        }
      }
      const searches: number[] = [];
      const statuses: number[] = [];
      for (let round = 0; round < 8; round++) {
        for (const p of paths) {
          searches.push(await timed(p));
          statuses.push(await timed('/status'));
        }
      }
      const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
      const ratio = median(searches) / median(statuses);
      console.log(`uncached search p50 ${median(searches).toFixed(2)} ms, /status p50 ${median(statuses).toFixed(2)} ms: ${ratio.toFixed(2)}x`);
    } finally {
      await server.stop();
    }
  });
});
