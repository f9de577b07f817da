import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import yaml from 'js-yaml';
import { get, useServer } from '../helpers/server.ts';
import { gql } from '../helpers/graphql.ts';
import { corpus } from '../helpers/corpus.ts';
import { slugify } from '../../src/pipeline/load/slugify.ts';
import { TRANSLATED_CODES } from '../../src/core/languages.ts';

// Category and tag names, the attribution and the footer in each language (issue 29, part 5), as
// served: expectations are read from content/taxonomies.yaml and content/site.yaml themselves.
const site = useServer();

type Names = Record<'categories' | 'tags', Record<string, Record<string, string>>>;
const names = async () => yaml.load(await readFile('content/taxonomies.yaml', 'utf8')) as Names;
const siteYaml = async () => yaml.load(await readFile('content/site.yaml', 'utf8')) as { name: string; attributions: Record<string, string> };
const textOf = (html: string) => html.replace(/<[^>]+>/g, '').replace(/&amp;/g, '&');
const h1 = (html: string) => textOf(/<h1>(.*?)<\/h1>/s.exec(html)![1]!);
const footer = (html: string) => /<footer class="site">(.*?)<\/footer>/s.exec(html)![1]!;
const prefix = (lang: string) => (lang === 'en' ? '' : `/${lang}`);

describe('category and tag names in a language', () => {
  test('the Arabic category page is headed with the Arabic name, no Latin "Technology"', async () => {
    const r = await get(site.url, '/ar/category/technology');
    assert.equal(r.status, 200);
    assert.doesNotMatch(h1(r.text), /Technology|[A-Za-z]/);
    assert.ok(h1(r.text).includes((await names()).categories.Technology!.ar!), h1(r.text));
    const tag = await get(site.url, '/ar/tag/translation');
    assert.ok(h1(tag.text).includes((await names()).tags.translation!.ar!), h1(tag.text));
  });

  test('the French home lists the categories by their French names with their counts', async () => {
    const r = await get(site.url, '/fr/');
    const counts = (await get(site.url, '/api/categories?lang=fr')).json.data as { slug: string; name: string; count: number }[];
    assert.ok(counts.length > 0);
    const section = /<section aria-labelledby="categories">(.*?)<\/section>/s.exec(r.text)![1]!;
    for (const { slug, count } of counts) {
      const english = Object.keys((await names()).categories).find((n) => slugify(n) === slug)!;
      const french = (await names()).categories[english]!.fr!;
      assert.ok(section.includes(`<a href="/fr/category/${slug}"><bdi>${french}</bdi> (${count} essai${count > 1 ? 's' : ''})</a>`), `${french} (${count}) in ${section}`);
    }
    assert.doesNotMatch(section, /Technology/);
  });

  test('/api/categories and /api/tags in Japanese: Japanese names, the English slugs; GraphQL says the same', async () => {
    const all = await names();
    for (const kind of ['categories', 'tags'] as const) {
      const en = (await get(site.url, `/api/${kind}`)).json.data as { slug: string; name: string }[];
      const ja = (await get(site.url, `/api/${kind}?lang=ja`)).json.data as { slug: string; name: string }[];
      assert.ok(ja.length > 0, kind);
      for (const term of ja) {
        const english = en.find((t) => t.slug === term.slug);
        assert.ok(english, `${term.slug} is an English slug`);
        assert.equal(term.slug, slugify(english.name));
        assert.equal(term.name, all[kind][Object.keys(all[kind]).find((n) => slugify(n) === term.slug)!]!.ja, term.slug);
      }
      const graph = await gql(site.url, `{ ${kind}(lang: "ja") { slug name count } }`);
      assert.deepEqual(graph.body.data[kind], (await get(site.url, `/api/${kind}?lang=ja`)).json.data, kind);
    }
  });

  test('a translated post names its terms in its language; an English fallback item keeps the English names', async () => {
    const all = await names();
    const fr = (await get(site.url, '/api/posts?lang=fr&fallback=en&per_page=100')).json.data as { slug: string; language: string; categories: string[]; tags: string[] }[];
    const en = (await get(site.url, '/api/posts?per_page=100')).json.data as { slug: string; categories: string[]; tags: string[] }[];
    assert.ok(fr.some((p) => p.language === 'fr') && fr.some((p) => p.language === 'en'));
    for (const item of fr) {
      const source = en.find((p) => p.slug === item.slug)!;
      const expected = (kind: 'categories' | 'tags') => source[kind].map((n) => (item.language === 'fr' ? all[kind][n]!.fr! : n));
      assert.deepEqual(item.categories, expected('categories'), item.slug);
      assert.deepEqual(item.tags, expected('tags'), item.slug);
    }
    const feed = await get(site.url, '/fr/feed.xml');
    assert.match(feed.text, new RegExp(`<category>${all.categories.Technology!.fr}</category>`));
    assert.doesNotMatch(feed.text, /<category>Technology<\/category>/);
  });
});

describe('the attribution and the footer in a language', () => {
  test("a French page's footer and the French feed carry the French attribution; the API's stays the English sentence", async () => {
    const settings = await siteYaml();
    const english: string = (await get(site.url, '/api/site?lang=fr')).json.attribution;
    assert.match(english, /^Source: /);
    const url = /\((https?:\/\/[^)]+)\)/.exec(english)![1]!;
    const french = settings.attributions.fr!.replace('{name}', `\u2068${settings.name}\u2069`).replace('{url}', `\u2068${url}\u2069`);
    const r = await get(site.url, '/fr/');
    assert.ok(textOf(footer(r.text)).includes(french), footer(r.text));
    assert.doesNotMatch(footer(r.text), /Sitemap/);
    const feed = await get(site.url, '/fr/feed.xml');
    assert.ok(feed.text.includes(`<copyright>${french.replace(/'/g, '&apos;')}</copyright>`), 'the French feed carries it too');
  });

  test('no page of a translated language prints the English attribution or "Sitemap"; English pages do', async () => {
    const english: string = (await get(site.url, '/api/site')).json.attribution;
    const c = await corpus('content');
    const pagesOf = (lang: string) => {
      const post = c.availableIn(lang)[0];
      if (!post) return [];
      const { categories, tags } = post.english;
      return [`${prefix(lang)}/`, `${prefix(lang)}/${post.slug}`, ...(categories[0] ? [`${prefix(lang)}/category/${slugify(categories[0])}`] : []), ...(tags[0] ? [`${prefix(lang)}/tag/${slugify(tags[0])}`] : [])];
    };
    for (const path of pagesOf('en')) {
      const r = await get(site.url, path);
      assert.ok(r.text.includes(english) && r.text.includes('>Sitemap<'), path);
    }
    const crawled = TRANSLATED_CODES.flatMap(pagesOf);
    assert.ok(crawled.length >= 4 * 3, 'several languages crawled');
    for (const path of crawled) {
      const r = await get(site.url, path);
      assert.equal(r.status, 200, path);
      assert.ok(!r.text.includes(english), `${path} prints the English attribution`);
      assert.doesNotMatch(r.text, /Sitemap/, path);
    }
  });
});
