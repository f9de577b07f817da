import { test } from 'node:test';
import assert from 'node:assert/strict';
import { get, useServer } from '../helpers/server.ts';
import { gql } from '../helpers/graphql.ts';

const site = useServer();

/** The links of the site menu (its nav) of an HTML page: [href, text, aria-current]. */
function menuOf(html: string): [string, string, string | undefined][] {
  const nav = /<nav class="menu"[^>]*>([\s\S]*?)<\/nav>/.exec(html);
  assert.ok(nav, 'the page has the site menu');
  return [...nav[1]!.matchAll(/<a href="([^"]+)"([^>]*)><bdi>([^<]*)<\/bdi><\/a>/g)].map((m) => [m[1]!, m[3]!, /aria-current="([^"]+)"/.exec(m[2]!)?.[1]]);
}

test('/about is a page with the site menu, the About link marked current', async () => {
  const r = await get(site.url, '/about');
  assert.equal(r.status, 200);
  assert.match(r.headers.get('content-type')!, /^text\/html/);
  assert.match(r.text, /<h1[^>]*>About<\/h1>/);
  const menu = menuOf(r.text);
  assert.deepEqual(menu.slice(0, 3), [['/about', 'About', 'page'], ['/colophon', 'Colophon', undefined], ['/category/technology', 'Technology', undefined]]);
  assert.doesNotMatch(r.text, /<time datetime/, 'a page shows no date');
});

test('/fr/about is the French page; negotiation gives the PageSingle envelope and the Markdown twin', async () => {
  const fr = await get(site.url, '/fr/about');
  assert.equal(fr.status, 200);
  assert.match(fr.text, /<h1[^>]*>À propos<\/h1>/);
  assert.deepEqual(menuOf(fr.text)[0], ['/fr/about', 'À propos', 'page']);
  const json = await get(site.url, '/fr/about', { headers: { accept: 'application/json' } });
  assert.match(json.headers.get('content-type')!, /^application\/json/);
  assert.equal(json.headers.get('vary'), 'Accept, Accept-Encoding');
  assert.equal(json.text, (await get(site.url, '/api/pages/about?lang=fr')).text, 'same envelope as /api/pages/about');
  const body = JSON.parse(json.text);
  assert.equal(body.data.slug, 'about');
  assert.equal(body.data.language, 'fr');
  assert.equal(body.data.title, 'À propos');
  for (const field of ['date', 'author', 'categories', 'tags', 'featured_image']) assert.equal(field in body.data, false, field);
  const md = await get(site.url, '/about', { headers: { accept: 'text/markdown' } });
  assert.equal(md.headers.get('content-type'), 'text/markdown; charset=utf-8');
  assert.match(md.text, /^---\ntitle: "About"\nslug: "about"\n[\s\S]*\n---\n\n# About\n/);
  assert.equal(md.text, (await get(site.url, '/about.md')).text, '/about.md is the negotiated Markdown');
  assert.equal((await get(site.url, '/fr/about.md')).status, 200);
});

test('a language without the page is a 404 like an unavailable post translation; fallback=en serves English', async () => {
  const de = await get(site.url, '/de/about');
  assert.equal(de.status, 404);
  assert.match(de.text, /data-page="translation-unavailable"/);
  assert.match(de.text, /href="\/about"/);
  const json = await get(site.url, '/de/about', { headers: { accept: 'application/json' } });
  assert.equal(json.status, 404);
  assert.equal(JSON.parse(json.text).status, 'missing');
  const api = await get(site.url, '/api/pages/about?lang=de&fallback=en');
  assert.equal(JSON.parse(api.text).data.translation.fallback_used, true);
  assert.equal((await get(site.url, '/api/pages/no-such-page')).status, 404);
});

test('pages are never posts: absent from /api/posts, feeds, search, GraphQL; the sitemap lists them with alternates', async () => {
  const posts = JSON.parse((await get(site.url, '/api/posts?per_page=100')).text);
  assert.ok(posts.data.length > 0);
  assert.ok(!posts.data.some((p: { slug: string }) => ['about', 'colophon'].includes(p.slug)));
  assert.equal((await get(site.url, '/api/posts/about')).status, 404);
  const feed = await get(site.url, '/feed.xml');
  assert.doesNotMatch(feed.text, /\/about</);
  const search = JSON.parse((await get(site.url, '/api/search?q=Calloway&fallback=en')).text);
  assert.ok(!search.data.some((p: { slug: string }) => ['about', 'colophon'].includes(p.slug)));
  const g = await gql(site.url, '{ posts(first: 100) { edges { node { slug } } } }');
  assert.ok(!g.body.data.posts.edges.some((e: { node: { slug: string } }) => e.node.slug === 'about'));
  const sitemap = (await get(site.url, '/sitemap.xml')).text;
  const entry = /<url><loc>[^<]*\/about<\/loc>(.*?)<\/url>/.exec(sitemap);
  assert.ok(entry, 'the sitemap lists /about');
  assert.match(entry[1]!, /hreflang="fr" href="[^"]*\/fr\/about"/);
  assert.match(entry[1]!, /hreflang="ja" href="[^"]*\/ja\/about"/);
  assert.match(entry[1]!, /hreflang="x-default"/);
  assert.doesNotMatch(sitemap, /\/de\/about</);
  // Category and tag lists, in the languages they list posts in, with their alternates.
  const category = /<url><loc>[^<]*\/fr\/category\/technology<\/loc>(.*?)<\/url>/.exec(sitemap);
  assert.ok(category, 'the sitemap lists /fr/category/technology');
  assert.match(category[1]!, /hreflang="en" href="[^"]*\/category\/technology"/);
  assert.match(sitemap, /<loc>[^<]*\/tag\/[a-z0-9-]+<\/loc>/, 'the sitemap lists tag pages');
});

test('the menu on the homes of en, fr and ar is in their language', async () => {
  const en = menuOf((await get(site.url, '/')).text);
  assert.deepEqual(en.slice(0, 2).map(([h, t]) => [h, t]), [['/about', 'About'], ['/colophon', 'Colophon']]);
  assert.ok(en.every(([, , current]) => current === undefined), 'nothing is current on the home');
  const fr = menuOf((await get(site.url, '/fr/')).text);
  assert.deepEqual(fr.slice(0, 2).map(([h, t]) => [h, t]), [['/fr/about', 'À propos'], ['/fr/colophon', 'Colophon']]);
  assert.equal(fr[2]![0], '/fr/category/technology');
  const ar = await get(site.url, '/ar/');
  const arMenu = menuOf(ar.text);
  // No Arabic About: its Arabic name from site.yaml's menu_names, linking to the English page (hreflang="en").
  assert.deepEqual(arMenu[0]!.slice(0, 2), ['/about', 'نبذة']);
  assert.match(ar.text, /<a href="\/about" hreflang="en">/);
  assert.doesNotMatch(ar.text, /<a href="\/about"[^>]* lang="en"/, 'the label is Arabic, not English');
  // A language the page is translated into names it by its own title; no name is left English anywhere.
  for (const lang of ['es', 'zh', 'pt-br', 'de', 'ru', 'id', 'hi', 'ko', 'tr', 'vi']) {
    const labels = menuOf((await get(site.url, `/${lang}/`)).text).slice(0, 2).map(([, t]) => t);
    assert.ok(!labels.includes('About') && !labels.includes('Colophon'), `${lang}: ${labels.join(', ')}`);
  }
  assert.equal(arMenu[2]![0], '/ar/category/technology');
  assert.notEqual(arMenu[2]![1], 'Technology', 'category names in Arabic');
  // Every menu link answers, the lists of its categories included (published even when empty in a language).
  for (const [href] of [...en, ...fr, ...arMenu]) assert.equal((await get(site.url, href)).status, 200, href);
});
