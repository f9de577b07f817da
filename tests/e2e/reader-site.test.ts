import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { get, useServer } from '../helpers/server.ts';
import { corpus } from '../helpers/corpus.ts';
import { LANGUAGE_CODES } from '../../src/core/languages.ts';
import { messages, plural } from '../../src/core/messages.ts';

// The reader's site as served over HTTP (issue 16): search without JavaScript, plurals, bidi,
// the attribution, unavailable translations, the heading outline and the typography of posts.
const site = useServer();

const between = (html: string, open: string, close: string) => {
  const at = html.indexOf(open);
  return at < 0 ? undefined : html.slice(at, html.indexOf(close, at) + close.length);
};
const readingTime = (html: string) => /data-meta="reading-time"[^>]*>([^<]*)</.exec(html)?.[1];
/** The minutes the site shows (pageReadingTime: per-language rates; the API's reading_time is the contract's formula). */
const shownMinutes = (html: string) => Number(/data-meta="reading-time" data-minutes="(\d+)"/.exec(html)?.[1]);
const textOf = (html: string) => html.replace(/<[^>]+>/g, '').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');

describe('search page without JavaScript', () => {
  test('/search?q= answers the results on the server: titles, marked words, the count in the singular', async () => {
    const r = await get(site.url, '/search?q=tide');
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type')!, /^text\/html/);
    assert.match(r.text, /<input[^>]*id="q"[^>]*value="tide"/);
    const status = between(r.text, '<p class="meta" id="search-status"', '</p>')!;
    assert.equal(textOf(status), '1 result for “tide”');
    assert.match(status, /<bdi>tide<\/bdi>/, 'the query is isolated from the text around it');
    const list = between(r.text, '<ol class="posts" id="search-results"', '</ol>')!;
    assert.match(list, /<a href="\/tidal-energy">What the Tide Knows<\/a>/);
    assert.match(list, /<p class="snippet">[^<]*<mark>tide<\/mark>/i);
  });

  test('every language with posts has its search page, and results name the words in <mark>', async () => {
    const c = await corpus('content');
    for (const lang of LANGUAGE_CODES.filter((l) => c.availableIn(l).length > 0)) {
      const word = lang === 'en' ? 'web' : 'a';
      const path = `${lang === 'en' ? '' : `/${lang}`}/search?q=${word}`;
      const r = await get(site.url, path);
      assert.equal(r.status, 200, path);
      assert.match(r.text, /id="search-status"/, path);
    }
    const ar = await get(site.url, `/ar/search?q=${encodeURIComponent('الويب')}`);
    assert.match(ar.text, /<html lang="ar" dir="rtl">/);
    assert.match(ar.text, /<mark>[^<]*الويب[^<]*<\/mark>/);
  });

  test('no results says so; a refused query is the page with its message (400), never a 5xx', async () => {
    const none = await get(site.url, '/search?q=zzqxv');
    assert.equal(none.status, 200);
    assert.equal(textOf(between(none.text, '<p class="meta" id="search-status"', '</p>')!), 'No essays match “zzqxv”.');
    assert.doesNotMatch(none.text, /id="search-results"/);
    for (const q of [`q=${'a'.repeat(300)}`, 'q=web&page=0', 'q=web&page=x']) {
      const r = await get(site.url, `/search?${q}`);
      assert.equal(r.status, 400, q);
      assert.match(r.headers.get('content-type')!, /^text\/html/);
      assert.match(textOf(between(r.text, '<p class="meta" id="search-status"', '</p>')!), /Invalid \?(q|page)= parameter/);
    }
    // In another language the refusal is in that language.
    for (const [q, message] of [[`q=${'a'.repeat(300)}`, /dépasse 256 caractères/], ['q=web&page=0', /pas une page de résultats/]] as [string, RegExp][]) {
      const r = await get(site.url, `/fr/search?${q}`);
      assert.equal(r.status, 400, q);
      assert.match(textOf(between(r.text, '<p class="meta" id="search-status"', '</p>')!), message);
    }
    const markup = await get(site.url, `/search?q=${encodeURIComponent('"><script>x</script>')}`);
    assert.doesNotMatch(markup.text, /<script>x<\/script>/, 'the query is escaped');
  });

  test('results come ten to a page with a pager, numbered from the page start', async () => {
    const api = await get(site.url, '/api/search?q=the&fallback=en&per_page=100');
    assert.ok(api.json.total > 10, 'the corpus has more than a page of results for "the"');
    const first = await get(site.url, '/search?q=the');
    assert.equal((first.text.match(/<li lang=/g) ?? []).length, 10);
    assert.match(first.text, /<a rel="next" href="\/search\?q=the&amp;page=2">/);
    const second = await get(site.url, '/search?q=the&page=2');
    assert.match(second.text, /<ol class="posts" id="search-results" start="11">/);
    assert.equal((second.text.match(/<li lang=/g) ?? []).length, api.json.total - 10);
    assert.match(second.text, /<a rel="prev" href="\/search\?q=the">/);
  });

  test('OpenAPI documents the search page in every language, as HTML', async () => {
    const doc = (await get(site.url, '/openapi.json')).json;
    for (const path of ['/search', '/{lang}/search']) {
      const op = doc.paths[path]?.get;
      assert.ok(op, path);
      assert.ok(op.responses['200'].content['text/html'], path);
      assert.ok(op.parameters.some((p: { $ref: string }) => p.$ref.endsWith('/pageQ')), path);
    }
  });

  test('the form without a query is the published page; the sandbox has its own', async () => {
    const form = await get(site.url, '/search');
    assert.equal(form.status, 200);
    assert.doesNotMatch(form.text, /id="search-status"/);
    const sandbox = await get(site.url, '/sandbox/search?q=a');
    assert.equal(sandbox.status, 200);
    assert.match(sandbox.text, /id="search-results"/);
  });
});

describe('snippets', () => {
  test('a snippet never runs a heading into the sentence after it, on every surface; the API keeps plain text', async () => {
    const c = await corpus('content');
    let checked = 0;
    for (const post of c.posts) {
      const detail = await get(site.url, `/api/posts/${post.slug}`);
      const headings: string[] = detail.json.data.structure.sections.map((s: { text: string }) => s.text);
      for (const heading of headings) {
        const word = heading.split(/\s+/).sort((a, b) => b.length - a.length)[0]!.replace(/[^\p{L}]/gu, '');
        const r = await get(site.url, `/api/search?q=${encodeURIComponent(word)}&per_page=100`);
        for (const hit of r.json.data as { slug: string; snippet: string }[]) {
          assert.doesNotMatch(hit.snippet, /[<>\n]/, 'plain text on one line');
          for (const h of headings) {
            const at = hit.snippet.indexOf(h);
            if (at < 0 || hit.slug !== post.slug) continue;
            checked++;
            const after = hit.snippet.slice(at + h.length);
            assert.ok(after === '' || after === '…', `heading "${h}" runs on in: ${hit.snippet}`);
          }
        }
      }
    }
    assert.ok(checked > 0, 'some snippet quoted a heading');
  });
});

describe('plurals', () => {
  test('counts follow the language: English singular, Arabic dual, Russian few', async () => {
    const ar = await get(site.url, `/ar/search?q=${encodeURIComponent('الويب')}`);
    const api = await get(site.url, `/api/search?q=${encodeURIComponent('الويب')}&lang=ar&fallback=en`);
    assert.equal(api.json.total, 2, 'two Arabic results');
    assert.match(textOf(between(ar.text, '<p class="meta" id="search-status"', '</p>')!), /^نتيجتان لـ «الويب»$/);
    const slow = await get(site.url, '/ar/the-slow-web');
    const minutes = shownMinutes(slow.text);
    const arabic = new Intl.PluralRules('ar').select(minutes);
    const expected: Record<string, RegExp> = { one: /دقيقة واحدة/, two: /دقيقتين/, few: /\d+ دقائق/, many: /\d+ دقيقة/, other: /\d+ دقيقة/ };
    assert.match(readingTime(slow.text) ?? "", expected[arabic]!);
    const ruSlug = (await corpus('content')).availableIn('ru')[0]!.slug;
    const ru = await get(site.url, `/ru/${ruSlug}`);
    const ruMinutes = shownMinutes(ru.text);
    const ruForm = { one: 'минута', few: 'минуты', many: 'минут', other: 'минуты' }[new Intl.PluralRules('ru').select(ruMinutes) as 'one'];
    assert.equal(readingTime(ru.text), `${ruMinutes}\u00a0${ruForm} чтения`);
  });

  test('the home page counts posts per category in words', async () => {
    const home = await get(site.url, '/');
    assert.match(home.text, /<bdi>[^<]+<\/bdi> \(\d+ essays?\)/);
    assert.doesNotMatch(home.text, /\(1 essays\)/);
  });

  test('later pages of a list name the same categories without counts (an edit re-renders first pages only)', async () => {
    const [first, second] = await Promise.all([get(site.url, '/'), get(site.url, '/page/2')]);
    assert.equal(second.status, 200);
    const terms = (html: string) => between(html, '<ul class="terms">', '</ul>') ?? '';
    const links = (html: string) => [...terms(html).matchAll(/href="([^"]+)"><bdi>([^<]+)<\/bdi>/g)].map((m) => `${m[1]} ${m[2]}`);
    assert.ok(links(first.text).length > 0, 'the first page lists the categories');
    assert.deepEqual(links(second.text), links(first.text));
    assert.match(terms(first.text), /\(\d+ essays?\)/);
    assert.doesNotMatch(terms(second.text), /essay/);
  });
});

describe('bidi and the attribution', () => {
  test('the attribution is built on the site address and isolated in the page; every API surface prints the same', async () => {
    const siteInfo = await get(site.url, '/api/site');
    const attribution: string = siteInfo.json.attribution;
    assert.ok(attribution.includes(`(${new URL(siteInfo.json.url).origin})`), attribution);
    for (const path of ['/api/posts', '/api/languages', '/api/search?q=web']) assert.equal((await get(site.url, path)).json.attribution, attribution, path);
    const en = await get(site.url, '/');
    assert.match(en.text, new RegExp(`<bdi lang="en" data-attribution>${attribution.replace(/[.()]/g, '\\$&')}</bdi>`));
    // A language's pages print its own sentence, the site's name and address isolated in it.
    const ar = await get(site.url, '/ar/');
    assert.match(ar.text, new RegExp(`<span data-attribution>[^<]*\u2068${new URL(siteInfo.json.url).origin.replace(/[.]/g, '\\$&')}\u2069[^<]*</span>`));
    const feed = await get(site.url, '/feed.xml');
    assert.match(feed.text, /<copyright>Source: /);
  });
});

describe('unavailable translations', () => {
  test('the page says missing or stale, keeps the switcher, links the English original, shows it, and is not indexed', async () => {
    const c = await corpus('content');
    const missing = c.posts.find((p) => c.stateOf(p.slug, 'fr') === 'missing')!;
    const r = await get(site.url, `/fr/${missing.slug}`);
    assert.equal(r.status, 404);
    assert.match(r.text, /<meta name="robots" content="noindex">/);
    assert.match(r.text, /data-state="missing"/);
    assert.match(r.text, /pas encore été traduit en français\./, 'French names itself in lower case inside a sentence');
    assert.doesNotMatch(r.text, /en Français/);
    assert.match(r.text, /<details class="languages">/);
    assert.match(r.text, new RegExp(`<a href="/${missing.slug}" hreflang="en" lang="en"`));
    assert.match(r.text, /<section lang="en" dir="ltr"/);
    const stale = c.find('stale');
    const s = await get(site.url, `/${stale.lang}/${stale.slug}`);
    assert.equal(s.status, 404);
    assert.match(s.text, /data-state="stale"/);
    // Under the notice, the English essay, marked English and left to right inside a right-to-left page.
    const inArabic = c.posts.find((p) => c.stateOf(p.slug, 'ar') === 'missing')!;
    const ar = await get(site.url, `/ar/${inArabic.slug}`);
    assert.deepEqual([ar.status, ar.text.includes('<meta name="robots" content="noindex">'), ar.text.includes('<html lang="ar" dir="rtl"')], [404, true, true]);
    const english = between(ar.text, '<section lang="en" dir="ltr"', '</section>')!;
    const notice = ar.text.indexOf('data-notice="fallback"');
    assert.ok(notice > 0 && notice < ar.text.indexOf('<section lang="en" dir="ltr"'), 'under the notice');
    const sections: { id: string }[] = (await get(site.url, `/api/posts/${inArabic.slug}`)).json.data.structure.sections;
    for (const section of sections) assert.ok(english.includes(`id="${section.id}"`), `the essay's section ${section.id}`);
    assert.ok(english.includes('<div class="body">'));
    const levels = [...english.matchAll(/<h([1-6])[\s>]/g)].map((m) => Number(m[1]));
    assert.deepEqual(levels.slice(0, 2), [2, 3], 'the title under the page\'s h1, its sections under the title');
    assert.match(english, /<nav class="toc" aria-label="Contents">/, 'in English, as the block is');
  });
});

describe('post pages', () => {
  test('the outline never skips a level while the API keeps the author\'s levels', async () => {
    const c = await corpus('content');
    let skipped = 0;
    for (const post of c.posts) {
      const page = await get(site.url, `/${post.slug}`);
      const body = page.text.slice(page.text.indexOf('<article'), page.text.indexOf('</article>'));
      const levels = [...body.matchAll(/<h([1-6])[\s>]/g)].map((m) => Number(m[1]));
      assert.equal(levels[0], 1, post.slug);
      for (let i = 1; i < levels.length; i++) assert.ok(levels[i]! <= levels[i - 1]! + 1, `${post.slug}: h${levels[i - 1]} then h${levels[i]}`);
      const sections: { level: number }[] = (await get(site.url, `/api/posts/${post.slug}`)).json.data.structure.sections;
      assert.equal(levels.length - 1, sections.length, `${post.slug}: every section is a heading`);
      skipped += sections.filter((s, i) => i > 0 && s.level > sections[i - 1]!.level + 1).length;
    }
    assert.ok(skipped > 0, 'the corpus has authors skipping levels, and structure.sections says so');
  });

  test('the meta line is spaced, reading time stays on one line, quotes are curly and numbers keep their units', async () => {
    const page = await get(site.url, '/tidal-energy');
    const meta = textOf(between(page.text, '<p class="meta"><span class="byline">', '</p>')!);
    // The "·" between items is drawn by the stylesheet, where no line begins or ends with it (in Chromium: reader-typography.test.ts).
    assert.match(meta, /^Ines Calloway Published \w+ \d+, \d{4} \d+\u00a0min read$/, 'the items, spaced, with no "·" in the text');
    assert.match(page.text, /<span class="nowrap" data-meta="reading-time" data-minutes="\d+">/);
    const body = page.text.slice(page.text.indexOf('<div class="body">'));
    assert.match(body, /moon’s/);
    assert.doesNotMatch(textOf(body.slice(0, body.indexOf('</div>'))).replace(/<code>.*?<\/code>/g, ''), /\w'\w/);
    assert.match(body, /750\u00a0metres/);
    const api = await get(site.url, '/api/posts/tidal-energy');
    assert.match(api.json.data.content_html, /moon's/, 'the API keeps the author\'s characters');
  });
});

describe('titles and summaries on the pages', () => {
  test('take the language\'s quotation marks on the post page, the lists and the search results; the API keeps the author\'s', async () => {
    const api = (await get(site.url, '/api/posts/the-cartographers-dilemma')).json as { data: { title: string } };
    assert.equal(api.data.title, "The Cartographer's Dilemma");
    const curly = 'The Cartographer’s Dilemma';
    assert.ok((await get(site.url, '/the-cartographers-dilemma')).text.includes(`<h1>${curly}</h1>`), 'post page');
    const home = await get(site.url, '/');
    assert.ok(home.text.includes(`>${curly}</a>`), 'home list');
    assert.ok(!home.text.includes(">The Cartographer's Dilemma</a>"));
    assert.ok((await get(site.url, '/search?q=cartographer')).text.includes(`>${curly}</a>`), 'search results');
  });
});

describe('what to read next', () => {
  const postPath = (lang: string, slug: string) => (lang === 'en' ? `/${slug}` : `/${lang}/${slug}`);
  const slugOf = (lang: string, href: string) => (lang === 'en' ? /^\/([^/]+)$/ : new RegExp(`^/${lang}/([^/]+)$`)).exec(href)?.[1];
  const readNextOf = (html: string) => {
    const nav = between(html, '<nav class="read-next"', '</nav>') ?? '';
    const related = between(html, '<section class="related"', '</section>') ?? '';
    const rel = (kind: string) => new RegExp(`<a href="([^"]+)" rel="${kind}">`).exec(nav)?.[1];
    return { nav, previous: rel('prev'), next: rel('next'), related: [...related.matchAll(/<a href="([^"]+)"/g)].map((m) => m[1]!) };
  };

  test('every post in every language: previous and next by date among the posts of that language, related ones sharing a term, all of them there', async () => {
    const c = await corpus('content');
    const terms = (slug: string) => {
      const p = c.posts.find((x) => x.slug === slug)!.english;
      return new Set([...p.categories.map((t) => `c:${t.toLowerCase()}`), ...p.tags.map((t) => `t:${t.toLowerCase()}`)]);
    };
    let pages = 0;
    for (const lang of LANGUAGE_CODES) {
      const inLang = c.byDate.filter((p) => c.stateOf(p.slug, lang) === 'available').map((p) => p.slug);
      for (const [i, slug] of inLang.entries()) {
        const page = await get(site.url, postPath(lang, slug));
        assert.equal(page.status, 200, postPath(lang, slug));
        const found = readNextOf(page.text);
        const where = `${lang} ${slug}`;
        assert.equal(found.next && slugOf(lang, found.next), inLang[i - 1], `${where}: next is the one published after`);
        assert.equal(found.previous && slugOf(lang, found.previous), inLang[i + 1], `${where}: previous is the one published before`);
        assert.ok(found.related.length <= 3, where);
        const related = found.related.map((href) => slugOf(lang, href));
        for (const r of related) {
          assert.ok(r && inLang.includes(r), `${where}: related ${r} is a post of the language, at its language's address`);
          assert.ok(![slug, inLang[i - 1], inLang[i + 1]].includes(r), `${where}: related ${r} is neither the post nor its neighbours`);
          assert.ok([...terms(r)].some((t) => terms(slug).has(t)), `${where}: related ${r} shares a category or tag`);
        }
        assert.equal(new Set(related).size, related.length, `${where}: no related post twice`);
        if (inLang.length > 1) assert.match(found.nav, new RegExp(`aria-label="${messages(lang).essayNavigation}"`), where);
        pages++;
      }
    }
    assert.ok(pages > 60, `${pages} post pages checked`);
  });

  test('an Arabic page leads to Arabic pages, labelled in Arabic', async () => {
    const c = await corpus('content');
    const slug = c.byDate.filter((p) => c.stateOf(p.slug, 'ar') === 'available')[1]!.slug;
    const page = await get(site.url, `/ar/${slug}`);
    const found = readNextOf(page.text);
    assert.ok(found.previous && found.next, 'the second newest Arabic post has both neighbours');
    const m = messages('ar');
    assert.match(found.nav, new RegExp(`<span class="label">${m.previousEssay}</span>`));
    assert.match(found.nav, new RegExp(`<span class="label">${m.nextEssay}</span>`));
    for (const href of [found.previous, found.next, ...found.related]) {
      assert.match(href!, /^\/ar\/[^/]+$/);
      const target = await get(site.url, href!);
      assert.equal(target.status, 200, href);
      assert.match(target.text, /<html lang="ar" dir="rtl">/, href);
    }
  });
});

test('the reading time a post page shows: one essay within a minute of itself in every language it is available in', async () => {
  const c = await corpus('content');
  for (const p of c.posts) {
    const minutes: Record<string, number> = {};
    for (const lang of ['en', ...p.translations.map((t) => t.lang)].filter((l) => c.stateOf(p.slug, l) === 'available')) {
      const page = await get(site.url, `${lang === 'en' ? '' : `/${lang}`}/${p.slug}`);
      assert.equal(page.status, 200, `${p.slug} ${lang}`);
      minutes[lang] = shownMinutes(page.text);
    }
    assert.ok(Object.keys(minutes).length >= 2, `${p.slug} has translations`);
    const values = Object.values(minutes);
    assert.ok(values.every((n) => n >= 1) && Math.max(...values) - Math.min(...values) <= 1, `${p.slug}: ${JSON.stringify(minutes)}`);
  }
});

describe('list cards', () => {
  const cards = (html: string) => [...(between(html, '<ol class="posts">', '</ol>') ?? '').matchAll(/<li [^>]*>([\s\S]*?)<\/li>/g)].map((m) => m[0]);

  for (const lang of ['en', 'ar']) {
    test(`${lang}: each card has its author and reading time; a cover is responsive, sized, and lazy past the first two cards`, async () => {
      const home = await get(site.url, lang === 'en' ? '/' : `/${lang}/`);
      const list = cards(home.text);
      assert.ok(list.length >= 4, `${list.length} cards`);
      const posts = (await get(site.url, `/api/posts?lang=${lang}&per_page=10`)).json.data as { slug: string; author: string; featured_image: string | null }[];
      let covers = 0;
      for (const [i, card] of list.entries()) {
        const post = posts[i]!;
        assert.ok(card.includes(`href="${lang === 'en' ? '' : `/${lang}`}/${post.slug}"`), `card ${i} is ${post.slug}`);
        assert.match(card, new RegExp(`<bdi data-meta="author">${post.author}</bdi>`));
        const minutes = shownMinutes((await get(site.url, `${lang === 'en' ? '' : `/${lang}`}/${post.slug}`)).text);
        assert.ok(minutes >= 1, post.slug);
        assert.equal(readingTime(card), plural(lang, messages(lang).minutes, minutes, { n: minutes }), `${post.slug}: the post page's reading time`);
        const img = /<img [^>]*>/.exec(between(card, '<picture class="card-cover">', '</picture>') ?? '')?.[0];
        assert.equal(Boolean(img), Boolean(post.featured_image), `${post.slug}: a cover exactly when the post has one`);
        if (!img) continue;
        covers++;
        assert.match(img, new RegExp(`src="${post.featured_image}"`));
        assert.match(img, /width="\d+" height="\d+"/, 'sized: no layout shift');
        assert.match(img, /alt=""/, 'decorative beside its linked title');
        if (i < 2) assert.doesNotMatch(img, /loading=/, 'the first cards load at once');
        else assert.match(img, /loading="lazy"/);
        const sources = [...card.matchAll(/<source type="(image\/\w+)" srcset="([^"]+)" sizes="([^"]+)"/g)];
        assert.deepEqual(sources.map((s) => s[1]), ['image/avif', 'image/webp']);
        for (const [, , srcset] of sources) {
          for (const candidate of srcset!.split(', ')) {
            const [url] = candidate.split(' ');
            assert.equal((await fetch(site.url + url, { method: 'HEAD' })).status, 200, url);
          }
        }
      }
      assert.ok(covers >= 1, `${lang}: some cards have a cover`);
    });
  }
});
