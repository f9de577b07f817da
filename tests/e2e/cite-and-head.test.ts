import { messages } from '../../src/core/messages.ts';
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { unified } from 'unified';
import rehypeParse from 'rehype-parse';
import { visit } from 'unist-util-visit';
import { toText } from 'hast-util-to-text';
import type { Element, Root } from 'hast';
import { get, useServer } from '../helpers/server.ts';
import { corpus } from '../helpers/corpus.ts';
import { LANGUAGE_CODES } from '../../src/core/languages.ts';
import { ogLocale } from '../../src/site/open-graph.ts';

// Issue 31: citing and sharing an essay, the head's metadata (twitter cards, og:locale, hreflang,
// JSON-LD) and the language switcher's targets, read from the served pages and the API.
const site = useServer();
const parse = unified().use(rehypeParse);

/** The origin the build wrote into absolute URLs (SITE_URL), not the test server's. */
const origin = async () => new URL(((await get(site.url, '/api/site')).json as any).url).origin;

/** A post and a language other than English it is available in. */
async function translatedPost() {
  const c = await corpus('content');
  for (const p of c.byDate) for (const lang of LANGUAGE_CODES) if (lang !== 'en' && c.stateOf(p.slug, lang) === 'available') return { slug: p.slug, lang };
  throw new Error('no translated post');
}

const pathIn = (lang: string, rest: string) => `${lang === 'en' ? '' : `/${lang}`}${rest}`;

/** A served page, parsed: its elements in order, and look-ups of the head's tags. */
async function page(path: string) {
  const r = await get(site.url, path);
  assert.equal(r.status, 200, path);
  const tree = parse.parse(r.text) as Root;
  const all: Element[] = [];
  visit(tree, 'element', (el: Element) => void all.push(el));
  const prop = (el: Element, name: string) => (el.properties[name] === undefined ? undefined : String(el.properties[name]));
  const meta = (key: string) => all.filter((e) => e.tagName === 'meta' && (prop(e, 'name') === key || prop(e, 'property') === key)).map((e) => prop(e, 'content')!);
  const hreflangs = new Map(all.filter((e) => e.tagName === 'link' && prop(e, 'rel') === 'alternate' && prop(e, 'hrefLang')).map((e) => [prop(e, 'hrefLang')!, prop(e, 'href')!]));
  const jsonLd = all.filter((e) => e.tagName === 'script' && prop(e, 'type') === 'application/ld+json').map((e) => JSON.parse(toText(e)) as Record<string, any>);
  const switcher = all.filter((e) => e.tagName === 'a' && prop(e, 'hrefLang') && hasAncestor(tree, e, 'details')).map((e) => ({ lang: prop(e, 'hrefLang')!, href: prop(e, 'href')! }));
  return { html: r.text, all, prop, meta, hreflangs, jsonLd, switcher, text: (el: Element) => toText(el) };
}

/** Whether `el` sits inside an element with this tag (the switcher's links are in its <details>). */
function hasAncestor(tree: Root, target: Element, tag: string): boolean {
  let found = false;
  visit(tree, 'element', (el: Element) => {
    if (el.tagName !== tag || found) return;
    visit(el, 'element', (inner: Element) => void (found ||= inner === target));
  });
  return found;
}

describe('GET /api/posts/{slug}/cite', () => {
  test('an English post: CSL-JSON post-weblog with the canonical URL, and the four forms made from it', async () => {
    const { byDate } = await corpus('content');
    const slug = byDate[0]!.slug;
    const detail = (await get(site.url, `/api/posts/${slug}`)).json as any;
    const r = await get(site.url, `/api/posts/${slug}/cite`);
    assert.equal(r.status, 200);
    const body = r.json as any;
    assert.equal(body.attribution, detail.attribution);
    assert.deepEqual(body.meta, detail.meta);
    const { csl, apa, mla, chicago, bibtex } = body.data;
    assert.equal(csl.type, 'post-weblog');
    assert.equal(csl.title, detail.data.title);
    assert.equal(csl.URL, detail.data.url);
    assert.equal(csl.language, 'en');
    assert.equal(csl['container-title'], (await get(site.url, '/api/site')).json.name);
    const date = new Date(detail.data.date);
    assert.deepEqual(csl.issued, { 'date-parts': [[date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate()]] });
    assert.equal(csl.translator, undefined);
    for (const form of [apa, chicago]) assert.ok(form.includes(detail.data.url), form);
    assert.ok(mla.includes(detail.data.url.replace(/^https?:\/\//, '')), mla);
    assert.match(bibtex, new RegExp(`^@misc\\{[a-z]+\\d{4}-${slug},`));
  });

  test('a translation: its own page\'s URL and language, its provider, the English original', async () => {
    const { slug, lang } = await translatedPost();
    const detail = (await get(site.url, `/api/posts/${slug}?lang=${lang}`)).json as any;
    const { csl, apa } = ((await get(site.url, `/api/posts/${slug}/cite?lang=${lang}`)).json as any).data;
    assert.equal(csl.URL, detail.data.url);
    assert.equal(new URL(csl.URL).pathname, `/${lang}/${slug}`);
    assert.equal(csl.title, detail.data.title);
    // The demo's translations were made by a model nobody recorded: no translator is named, the note says what it was.
    assert.equal(detail.data.translation.provider, 'llm:unrecorded');
    assert.equal(csl.translator, undefined);
    assert.equal(csl['original-title'], (await get(site.url, `/api/posts/${slug}`)).json.data.title);
    assert.equal(csl.note, `Machine translation (a language model whose name was not recorded) of ${detail.data.english_url}`);
    assert.deepEqual(csl.custom, { 'original-language': 'en', 'original-URL': detail.data.english_url, 'machine-translation': true });
    assert.ok(apa.includes(`[${csl['original-title']}]`), apa);
  });

  test('errors answer as the post endpoint does; fallback_url names /cite', async () => {
    const { slug, lang } = (await corpus('content')).find('missing');
    const unknown = await get(site.url, '/api/posts/no-such-post/cite');
    assert.equal(unknown.status, 404);
    assert.deepEqual(unknown.json, (await get(site.url, '/api/posts/no-such-post')).json);
    const missing = await get(site.url, `/api/posts/${slug}/cite?lang=${lang}`);
    const post = (await get(site.url, `/api/posts/${slug}?lang=${lang}`)).json as any;
    assert.equal(missing.status, 404);
    assert.deepEqual(missing.json, { ...post, fallback_url: `${await origin()}/api/posts/${slug}/cite?lang=${lang}&fallback=en` });
    const followed = await get(site.url, new URL((missing.json as any).fallback_url).pathname + new URL((missing.json as any).fallback_url).search);
    assert.equal(followed.status, 200);
    assert.equal((followed.json as any).data.csl.language, 'en');
    const bad = await get(site.url, `/api/posts/${slug}/cite?lang=xx`);
    assert.equal(bad.status, 400);
    assert.deepEqual(bad.json, (await get(site.url, `/api/posts/${slug}?lang=xx`)).json);
  });
});

describe('the post page: cite, share, the Markdown twin', () => {
  test('"Cite this essay" shows the API\'s forms in <pre><code>, and a translation\'s provenance', async () => {
    const c = await corpus('content');
    const translated = await translatedPost();
    for (const { slug, lang } of [{ slug: c.byDate[0]!.slug, lang: 'en' }, translated]) {
      const p = await page(pathIn(lang, `/${slug}`));
      const api = ((await get(site.url, `/api/posts/${slug}/cite?lang=${lang}`)).json as any).data;
      const details = p.all.find((e) => e.tagName === 'details' && p.prop(e, 'dataCite') !== undefined)!;
      assert.ok(details, `cite block on ${lang}`);
      const codes: string[] = [];
      visit(details, 'element', (el: Element) => void (el.tagName === 'code' && codes.push(toText(el, { whitespace: 'pre' }))));
      assert.deepEqual(codes, [api.apa, api.mla, api.chicago, api.bibtex, JSON.stringify(api.csl, null, 2)], lang);
      const provenance = p.all.find((e) => p.prop(e, 'dataProvenance') !== undefined);
      if (lang === 'en') assert.equal(provenance, undefined);
      else {
        // Named in the page's language, never by its raw id.
        assert.ok(toText(provenance!).includes(messages(lang).unrecordedModel), `the provider is named in ${lang}`);
        assert.ok(!toText(provenance!).includes('llm:unrecorded'), lang);
      }
    }
    const fr = await page(`/fr/${translated.slug}`);
    assert.ok(fr.all.some((e) => e.tagName === 'summary' && toText(e) === 'Citer cet essai'), 'the label in the page\'s language');
  });

  test('share links are plain: mailto, the canonical URL, the Markdown twin (served, and in the head); the Web Share button only with a script', async () => {
    const { slug } = await translatedPost();
    const p = await page(`/${slug}`);
    const mail = p.all.find((e) => e.tagName === 'a' && p.prop(e, 'href')?.startsWith('mailto:'))!;
    const canonical = p.all.find((e) => e.tagName === 'link' && p.prop(e, 'rel') === 'canonical')!;
    const mailUrl = new URL(p.prop(mail, 'href')!);
    assert.equal(mailUrl.searchParams.get('body'), p.prop(canonical, 'href'));
    assert.ok(mailUrl.searchParams.get('subject'));
    assert.ok(p.all.some((e) => e.tagName === 'a' && p.prop(e, 'rel') === 'bookmark' && p.prop(e, 'href') === p.prop(canonical, 'href')));
    const twin = p.all.find((e) => e.tagName === 'link' && p.prop(e, 'type') === 'text/markdown')!;
    assert.equal(new URL(p.prop(twin, 'href')!).pathname, `/${slug}.md`);
    assert.ok(p.all.some((e) => e.tagName === 'a' && p.prop(e, 'type') === 'text/markdown' && p.prop(e, 'href') === `/${slug}.md`));
    const md = await get(site.url, `/${slug}.md`);
    assert.equal(md.status, 200);
    assert.match(md.headers.get('content-type')!, /^text\/markdown/);
    const share = p.all.find((e) => p.prop(e, 'dataWebShare') !== undefined)!;
    assert.equal(share.properties.hidden, true, 'hidden until a script finds navigator.share');
    assert.doesNotMatch(p.html, /<script[^>]+src="https?:/, 'no third-party script');
  });
});

describe('head metadata', () => {
  test('a post: twitter card by its image, og:locale and its alternates, hreflang with x-default, Article with a raster logo, BreadcrumbList', async () => {
    const c = await corpus('content');
    for (const p of c.posts) {
      const detail = ((await get(site.url, `/api/posts/${p.slug}`)).json as any).data;
      const h = await page(`/${p.slug}`);
      assert.deepEqual(h.meta('twitter:card'), [detail.featured_image ? 'summary_large_image' : 'summary'], p.slug);
      assert.deepEqual(h.meta('twitter:title'), [detail.title]);
      assert.deepEqual(h.meta('twitter:description'), [detail.summary ?? detail.title]);
      assert.deepEqual(h.meta('twitter:image'), detail.featured_image ? [(await origin()) + detail.featured_image] : []);
      assert.deepEqual(h.meta('og:locale'), ['en_US']);
      const others = LANGUAGE_CODES.filter((l) => l !== 'en' && c.stateOf(p.slug, l) === 'available');
      assert.deepEqual(h.meta('og:locale:alternate').sort(), others.map(ogLocale).sort(), p.slug);
      assert.equal(h.hreflangs.get('x-default'), `${await origin()}/${p.slug}`);
      const article = h.jsonLd.find((j) => j['@type'] === 'BlogPosting')!;
      assert.equal(article.publisher.logo['@type'], 'ImageObject');
      const logo = await fetch(site.url + new URL(article.publisher.logo.url).pathname);
      assert.equal(logo.status, 200);
      assert.equal(logo.headers.get('content-type'), 'image/png');
      const crumbs = h.jsonLd.find((j) => j['@type'] === 'BreadcrumbList')!;
      const items = crumbs.itemListElement as { position: number; name: string; item: string }[];
      assert.deepEqual(items.map((i) => i.position), items.map((_, i) => i + 1));
      assert.equal(items[0]!.item, `${await origin()}/`);
      assert.equal(items.at(-1)!.item, detail.url);
      assert.equal(items.at(-1)!.name, detail.title);
    }
    const zh = await page(`/zh/${c.availableIn('zh')[0]!.slug}`);
    assert.deepEqual(zh.meta('og:locale'), ['zh_CN']);
  });

  test('homes: hreflang for every language with posts and x-default to the English home; later pages only where that page exists', async () => {
    const c = await corpus('content');
    const withPosts = LANGUAGE_CODES.filter((l) => c.availableIn(l).length > 0);
    const home = await page('/');
    assert.deepEqual([...home.hreflangs.keys()].filter((k) => k !== 'x-default').length, withPosts.length);
    assert.equal(home.hreflangs.get('x-default'), `${await origin()}/`);
    assert.equal((await page('/fr/')).hreflangs.get('x-default'), `${await origin()}/`);
    const pages = (lang: string) => Math.ceil(c.availableIn(lang).length / 10);
    if (pages('en') > 1) {
      const second = await page('/page/2');
      const expected = withPosts.filter((l) => pages(l) >= 2);
      assert.deepEqual([...second.hreflangs.keys()].filter((k) => k !== 'x-default').length, expected.length);
      for (const href of second.hreflangs.values()) assert.equal((await get(site.url, new URL(href).pathname)).status, 200, href);
    }
  });

  test('category and tag pages: hreflang to the same term where it has posts, x-default, BreadcrumbList', async () => {
    for (const kind of ['categories', 'tags'] as const) {
      const segment = kind === 'categories' ? 'category' : 'tag';
      const terms = ((await get(site.url, `/api/${kind}`)).json as any).data as { slug: string; name: string }[];
      for (const term of terms.slice(0, 3)) {
        const h = await page(`/${segment}/${term.slug}`);
        const expected: string[] = [];
        for (const lang of LANGUAGE_CODES) {
          const listed = ((await get(site.url, `/api/${kind}?lang=${lang}`)).json as any).data.some((t: { slug: string }) => t.slug === term.slug);
          if (listed) expected.push(lang);
        }
        const hreflangs = [...h.hreflangs].filter(([k]) => k !== 'x-default');
        assert.equal(hreflangs.length, expected.length, `${segment}/${term.slug}`);
        for (const [, href] of hreflangs) assert.match(new URL(href).pathname, new RegExp(`/${segment}/${term.slug}$`));
        assert.equal(h.hreflangs.get('x-default'), `${await origin()}/${segment}/${term.slug}`);
        const crumbs = h.jsonLd.find((j) => j['@type'] === 'BreadcrumbList')!;
        assert.deepEqual(crumbs.itemListElement.map((i: { name: string }) => i.name), [((await get(site.url, '/api/site')).json as any).name, term.name]);
      }
    }
  });
});

describe('the language switcher goes to the same page in each language', () => {
  const targetsOf = async (path: string) => {
    const p = await page(path);
    assert.ok(p.switcher.length > 0, `a switcher on ${path}`);
    for (const { href } of p.switcher) assert.equal((await get(site.url, href)).status, 200, `${path} -> ${href}`);
    return new Map(p.switcher.map((s) => [s.lang, s.href]));
  };
  const hreflangOf = (code: string) => (code === 'zh' ? 'zh-Hans' : code === 'pt-br' ? 'pt-BR' : code);

  test('home, a later home page, search: the language\'s own', async () => {
    for (const path of ['/', '/page/2', '/search']) {
      const got = await targetsOf(path);
      for (const [hreflang, href] of got) {
        const code = LANGUAGE_CODES.find((l) => hreflangOf(l) === hreflang)!;
        assert.equal(href, pathIn(code, path === '/search' ? '/search' : '/'), `${path} -> ${hreflang}`);
      }
    }
  });

  test('a post and a standalone page: the same one in each language it is available in', async () => {
    const c = await corpus('content');
    const { slug } = c.find('available');
    const got = await targetsOf(`/${slug}`);
    const available = LANGUAGE_CODES.filter((l) => c.stateOf(slug, l) === 'available');
    assert.deepEqual([...got.values()].sort(), available.map((l) => pathIn(l, `/${slug}`)).sort());
    for (const href of (await targetsOf('/about')).values()) assert.match(href, /^(\/[a-z-]+)?\/about$/);
  });

  test('category and tag pages: the same term where it has posts, else that language\'s home', async () => {
    for (const kind of ['categories', 'tags'] as const) {
      const segment = kind === 'categories' ? 'category' : 'tag';
      const term = ((await get(site.url, `/api/${kind}`)).json as any).data[0].slug as string;
      const got = await targetsOf(`/${segment}/${term}`);
      let same = 0;
      for (const [hreflang, href] of got) {
        const code = LANGUAGE_CODES.find((l) => hreflangOf(l) === hreflang)!;
        const listed = ((await get(site.url, `/api/${kind}?lang=${code}`)).json as any).data.some((t: { slug: string }) => t.slug === term);
        assert.equal(href, listed ? pathIn(code, `/${segment}/${term}`) : pathIn(code, '/'), `${segment}/${term} -> ${code}`);
        same += Number(listed);
      }
      assert.ok(same > 1, `${segment}/${term} exists in more than English`);
    }
  });
});
