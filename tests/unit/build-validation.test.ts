import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { buildBundle } from '../../src/pipeline/bundle.ts';
import { robotsTxt } from '../../src/discovery/robots.ts';
import type { Core } from '../../src/core/index.ts';
import { ContentErrors, FileError } from '../../src/pipeline/load/file-error.ts';
import { sourceHash } from '../../src/pipeline/derive/source-hash.ts';
import sharp from 'sharp';

const SITE = `name: S\ndescription: D\nauthor: A\nattribution: cite\nproduct:\n  title: P\n  description: d\n  format: PDF\n  price_usd: 1\n  currency: USD\n  landing_url: /p\n  download_url: /d\n`;
const EN = `---\ntitle: "Hello"\ndate: 2026-01-01T00:00:00Z\ncategories: [Tech]\n---\n\nBody text.\n`;

/** A content root from an inline map of files (Hugo's txtar style). */
async function build(files: Record<string, string | Buffer>) {
  const dir = await mkdtemp(join(tmpdir(), 'folio-'));
  try {
    for (const [name, text] of Object.entries({ 'site.yaml': SITE, ...files })) {
      await mkdir(dirname(join(dir, name)), { recursive: true });
      await writeFile(join(dir, name), text);
    }
    return await buildBundle({ contentDir: dir, outDir: join(dir, 'out'), base: '', cacheDir: join(dir, 'cache') });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The build's errors (every post's), or the one error of the root (its site.yaml, no posts). */
async function errorsOf(files: Record<string, string>): Promise<FileError[]> {
  try {
    await build(files);
  } catch (e) {
    if (e instanceof ContentErrors) return e.errors;
    assert.ok(e instanceof FileError, String(e));
    return [e];
  }
  assert.fail('the build should fail');
}

async function fails(files: Record<string, string>, file: RegExp, message: RegExp) {
  const [e] = await errorsOf(files);
  assert.match(e!.file, file);
  assert.match(e!.message, message);
}

test('a valid root builds; translation states come from the source hash', async () => {
  const hash = sourceHash('Hello', 'Body text.');
  const r = await build({
    'posts/hello/en.md': EN,
    'posts/hello/fr.md': `---\ntitle: "Bonjour"\nsource_hash: "${hash}"\n---\n\nTexte.\n`,
    'posts/hello/de.md': `---\ntitle: "Hallo"\nsource_hash: "sha256:${'0'.repeat(64)}"\n---\n\nText.\n`,
    'posts/hello/ja.md': '---\ntitle: "Hello"\n---\n\nBody text.\n',
  });
  const post = r.catalog.posts[0]!;
  assert.equal(post.entries.fr!.state, 'available');
  assert.equal(post.entries.de!.state, 'stale');
  assert.equal(post.entries.es, undefined);
  assert.equal(post.entries.ja, undefined, 'an unstamped translation (a scaffold holding the English) is not published');
  assert.equal(post.author, 'A', 'author defaults to the site author');
});

test('malformed files fail naming the file, the field and what was expected', async () => {
  await fails({ 'posts/hello/en.md': EN.replace('title: "Hello"\n', '') }, /hello\/en\.md$/, /title: must be a non-empty string/);
  await fails({ 'posts/hello/en.md': EN.replace('2026-01-01T00:00:00Z', 'yesterday') }, /en\.md$/, /date: must be a real date or timestamp in ISO 8601/);
  await fails({ 'posts/hello/en.md': EN.replace('categories: [Tech]', 'categories: Tech') }, /en\.md$/, /categories: must be a list/);
  await fails({ 'posts/hello/en.md': EN.replace('---\n\n', 'colour: red\n---\n\n') }, /en\.md$/, /colour: is not a known field/);
  await fails({ 'posts/hello/en.md': EN.replace('---\n\n', 'featured_image: nope.jpg\n---\n\n') }, /en\.md$/, /featured_image: must name an image file/);
  await fails({ 'posts/hello/en.md': '---\ntitle: [unclosed\n---\nx' }, /en\.md$/, /not valid YAML/);
  await fails({ 'posts/hello/en.md': EN, 'posts/hello/xx.md': EN }, /xx\.md$/, /not named for a supported language/);
  await fails({ 'posts/hello/fr.md': EN }, /hello$/, /no English source/);
  await fails({ 'posts/Hello_World/en.md': EN }, /Hello_World$/, /not a valid slug/);
  await fails({ 'site.yaml': SITE.replace('price_usd: 1', 'price_usd: free'), 'posts/hello/en.md': EN }, /site\.yaml$/, /product\.price_usd/);
  await fails({ 'site.yaml': `${SITE}robots_disallow: sandbox\n`, 'posts/hello/en.md': EN }, /site\.yaml$/, /robots_disallow: must be a list of paths/);
});

test('robots.txt asks crawlers to skip the paths robots_disallow names, and points at the sitemap', async () => {
  const r = await build({ 'site.yaml': `${SITE}robots_disallow: [/sandbox/, /drafts/]\n`, 'posts/hello/en.md': EN });
  const text = robotsTxt({ catalog: r.catalog } as unknown as Core);
  assert.match(text, /^User-agent: \*\nDisallow: \/sandbox\/\nDisallow: \/drafts\/\n\nSitemap: \S+\/sitemap\.xml\n$/);
  assert.doesNotMatch(text, /Allow: \//);
});

test('a slug colliding with a reserved path fails the build', async () => {
  // `index`: an English post's page would be the home's file (/index.html).
  for (const slug of ['api', 'sandbox', 'fr', 'status', 'graphql', 'mcp', 'ask', 'contact', 'index']) {
    await fails({ [`posts/${slug}/en.md`]: EN }, new RegExp(`${slug}$`), /reserved slug/);
  }
});

test('dates must be real calendar values, quoted or not; timestamps keep their zone', async () => {
  for (const bad of ['2026-13-45', '"2026-13-45"', '2026-02-30', '"2026-02-30"', '2026-02-30T08:00:00Z', '2025-02-29', '2026-01-01T24:00:00Z', '2026-01-01T08:60:00Z', 'yesterday']) {
    await fails({ 'posts/hello/en.md': EN.replace('2026-01-01T00:00:00Z', bad) }, /en\.md$/, /^.*en\.md:3: date: must be a real date or timestamp in ISO 8601, e\.g\. date: 2026-01-31T08:00:00Z/);
  }
  const dated = async (value: string) => (await build({ 'posts/hello/en.md': EN.replace('2026-01-01T00:00:00Z', value) })).catalog.posts[0]!.date;
  assert.equal(await dated('2024-02-29'), '2024-02-29T00:00:00Z', 'a leap day');
  assert.equal(await dated('"2026-03-01"'), '2026-03-01T00:00:00Z');
  assert.equal(await dated('2026-03-01T10:30:00+02:00'), '2026-03-01T08:30:00Z');
  assert.equal(await dated('2026-03-01T10:30'), '2026-03-01T10:30:00Z', 'no zone is UTC');
});

test('every error of a build is reported together (every field of a file too), one line each: file:line: field: what, e.g. ...', async () => {
  const errors = await errorsOf({
    'posts/one/en.md': EN.replace('2026-01-01T00:00:00Z', '2026-02-30'),
    'posts/two/en.md': EN.replace('title: "Hello"\n', 'title: ""\n'),
    'posts/three/en.md': EN,
    'posts/four/en.md': EN.replace('categories: [Tech]', 'categories: Tech\ncolour: red').replace('2026-01-01T00:00:00Z', '2026-01-32'),
  });
  assert.deepEqual(errors.map((e) => e.message.replace(/^.*\/posts\//, '')), [
    'four/en.md:3: date: must be a real date or timestamp in ISO 8601, e.g. date: 2026-01-31T08:00:00Z (got "2026-01-32")',
    'four/en.md:4: categories: must be a list of non-empty strings, e.g. [Technology, Craft]',
    'four/en.md:5: colour: is not a known field (allowed: title, date, modified, author, summary, categories, tags, featured_image, featured_image_alt, draft)',
    'one/en.md:3: date: must be a real date or timestamp in ISO 8601, e.g. date: 2026-01-31T08:00:00Z (got "2026-02-30")',
    'two/en.md:2: title: must be a non-empty string, e.g. title: "Some text"',
  ]);
  for (const e of errors) assert.ok(!e.message.includes('\n'), 'one line');
});

test('taxonomies.yaml names terms per language by their English name or slug; the API, summaries and the page attribution follow', async () => {
  const r = await build({
    'site.yaml': `${SITE}attributions:\n  fr: "Source : {name} ({url})"\n`,
    'posts/hello/en.md': EN.replace('categories: [Tech]', 'categories: [Tech Culture]\ntags: [link rot]'),
    'taxonomies.yaml': 'categories:\n  Tech Culture:\n    fr: Culture technique\n    ja: 技術文化\ntags:\n  link-rot:\n    fr: liens morts\n',
  });
  assert.deepEqual(r.catalog.term_names, { categories: { 'tech-culture': { fr: 'Culture technique', ja: '技術文化' } }, tags: { 'link-rot': { fr: 'liens morts' } } });
  assert.deepEqual(r.catalog.posts[0]!.categories, [{ slug: 'tech-culture', name: 'Tech Culture' }], 'the slug and the record stay English');
  assert.equal(r.catalog.site.attribution, 'cite');
  assert.match(r.catalog.site.attributions.fr!, /^Source : \u2068S\u2069 \(\u2068http:\/\/[^\u2069]+\u2069\)$/, 'name and address filled, isolated in the translated sentence');
});

test('a taxonomies.yaml error names the file, its line and the term; every error at once', async () => {
  const errors = await errorsOf({
    'posts/hello/en.md': EN.replace('categories: [Tech]', 'categories: [Tech]\ntags: [maps]'),
    'taxonomies.yaml': 'categories:\n  Tech:\n    fr: Technique\n    xx: Nope\n  Cooking:\n    fr: Cuisine\ntags:\n  maps:\n    en: maps\n    de: ""\n',
  });
  assert.deepEqual(errors.map((e) => e.message.replace(/^.*taxonomies\.yaml/, 'taxonomies.yaml')), [
    'taxonomies.yaml:4: categories.Tech.xx: is not a translated language code (one of es, zh, ar, pt-br, fr, ja, de, ru, id, hi, ko, tr, vi; the English name is the posts\' own)',
    'taxonomies.yaml:5: categories.Cooking: is not a category of any post (the posts\' categories: tech)',
    'taxonomies.yaml:9: tags.maps.en: is not a translated language code (one of es, zh, ar, pt-br, fr, ja, de, ru, id, hi, ko, tr, vi; the English name is the posts\' own)',
    'taxonomies.yaml:10: tags.maps.de: must be a non-empty name',
  ]);
  await fails({ 'posts/hello/en.md': EN, 'taxonomies.yaml': 'categories:\n  Tech: [a\n' }, /taxonomies\.yaml$/, /taxonomies\.yaml:\d+: is not valid YAML/);
  await fails({ 'posts/hello/en.md': EN, 'taxonomies.yaml': 'kinds:\n  Tech:\n    fr: T\n' }, /taxonomies\.yaml$/, /taxonomies\.yaml:1: kinds: is not a taxonomy/);
});

test('a page slug taken by a post, or by a site path, fails the build in one line each', async () => {
  const page = `---\ntitle: "About"\n---\n\nAbout us.\n`;
  const errors = await errorsOf({ 'posts/hello/en.md': EN, 'pages/hello/en.md': page, 'pages/search/en.md': page, 'pages/about/en.md': page });
  assert.equal(errors.length, 2, errors.map((e) => e.message).join('\n'));
  assert.match(errors[0]!.message, /pages\/hello: collides with the post .*posts\/hello \(both would live at \/hello\); rename one folder$/);
  assert.match(errors[1]!.message, /pages\/search: uses the reserved slug "search"/);
  for (const e of errors) assert.doesNotMatch(e.message, /\n/);
});

test('the menu names pages and categories; an unknown slug is a content error at its line', async () => {
  const page = `---\ntitle: "About"\n---\n\nAbout us.\n`;
  const { catalog } = await build({ 'site.yaml': `${SITE}menu: [about, tech]\n`, 'posts/hello/en.md': EN, 'pages/about/en.md': page });
  assert.deepEqual(catalog.menu, [{ kind: 'page', slug: 'about' }, { kind: 'category', slug: 'tech' }]);
  assert.deepEqual(catalog.pages.map((p) => p.slug), ['about']);
  assert.deepEqual(catalog.posts.map((p) => p.slug), ['hello']);
  await fails({ 'site.yaml': `${SITE}menu: [about, nowhere]\n`, 'posts/hello/en.md': EN, 'pages/about/en.md': page }, /site\.yaml$/, /site\.yaml:13: menu: "nowhere" is neither a page .* nor a category slug \(known: page about, category tech\)$/);
  await fails({ 'posts/hello/en.md': EN, 'pages/about/en.md': `---\ntitle: "About"\ndate: 2026-01-01\n---\n\nx\n` }, /pages\/about\/en\.md$/, /en\.md:3: date: is not a known field \(allowed: title, summary, modified\)/);
});

test('menu_names name a page of the menu per language; a slug not in the menu or a bad language is an error', async () => {
  const page = `---\ntitle: "About"\n---\n\nAbout us.\n`;
  const { catalog } = await build({ 'site.yaml': `${SITE}menu: [about, tech]\nmenu_names:\n  about: {de: "Über"}\n`, 'posts/hello/en.md': EN, 'pages/about/en.md': page });
  assert.deepEqual(catalog.menu[0], { kind: 'page', slug: 'about', names: { de: 'Über' } });
  await fails({ 'site.yaml': `${SITE}menu: [about]\nmenu_names:\n  colophon: {de: "Impressum"}\n`, 'posts/hello/en.md': EN, 'pages/about/en.md': page }, /site\.yaml$/, /menu_names\.colophon: names no entry of menu: \(about\)/);
  await fails({ 'site.yaml': `${SITE}menu: [about]\nmenu_names:\n  about: {xx: "Über"}\n`, 'posts/hello/en.md': EN, 'pages/about/en.md': page }, /site\.yaml$/, /menu_names\.about\.xx: must map a language code to a string/);
});

test('a cover without alt text is a warning naming the file; a translation gives its own alt text, else the English one', async () => {
  const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#888' } }).png().toBuffer();
  const withCover = (extra = '') => EN.replace('---\n\n', `featured_image: cover.png\n${extra}---\n\n`);
  const bare = await build({ 'posts/hello/en.md': withCover(), 'posts/hello/cover.png': png, 'posts/plain/en.md': EN });
  assert.equal(bare.warnings.length, 1, bare.warnings.join('\n'));
  assert.match(bare.warnings[0]!, /posts\/hello\/en\.md: featured_image: has no featured_image_alt/);
  const translation = (title: string, extra = '') => `---\ntitle: "${title}"\n${extra}source_hash: "${sourceHash('Hello', 'Body text.')}"\n---\n\nText.\n`;
  const described = await build({
    'posts/hello/en.md': withCover('featured_image_alt: "A grey square"\n'),
    'posts/hello/fr.md': translation('Bonjour', 'featured_image_alt: "Un carré gris"\n'),
    'posts/hello/de.md': translation('Hallo'),
    'posts/hello/cover.png': png,
  });
  assert.deepEqual(described.warnings, []);
  const alt = (lang: string) => described.catalog.posts[0]!.entries[lang]!.alts?.['/media/hello/cover.png'];
  assert.deepEqual([alt('en'), alt('fr'), alt('de')], ['A grey square', 'Un carré gris', 'A grey square']);
  await fails({ 'posts/hello/en.md': EN.replace('---\n\n', 'featured_image_alt: "x"\n---\n\n') }, /en\.md$/, /featured_image_alt: describes the featured image, but there is no featured_image/);
});

test("a newcomer's content errors: one line each, naming the file and the fix (issue 41)", async () => {
  // No posts folder, or an empty one: one error, not the menu's and links' consequences.
  const none = await errorsOf({ 'site.yaml': `${SITE}menu: [tech]\n` });
  assert.equal(none.length, 1, none.map((e) => e.message).join('\n'));
  assert.match(none[0]!.message, /posts: holds no posts: add one with npm run new -- "The Title"/);
  const drafts = await errorsOf({ 'site.yaml': `${SITE}menu: [tech]\n`, 'posts/hello/en.md': EN.replace('---\n\n', 'draft: true\n---\n\n') });
  assert.equal(drafts.length, 1, drafts.map((e) => e.message).join('\n'));
  assert.match(drafts[0]!.message, /holds no published post yet \(1 draft, 0 scheduled\)/);
  // Three bad language files in one folder: all three in one build.
  const bad = `---\ntitle: [unclosed\n---\n\nx\n`;
  const three = await errorsOf({ 'posts/hello/en.md': EN, 'posts/hello/fr.md': bad, 'posts/hello/de.md': bad, 'posts/hello/xx.md': bad });
  assert.deepEqual(three.map((e) => e.file.replace(/.*\//, '')).sort(), ['de.md', 'fr.md', 'xx.md']);
  // A front matter never closed: said at its first line, not past the end of the file.
  const open = await errorsOf({ 'posts/hello/en.md': `---\ntitle: "Hello"\ndate: 2026-01-01\n\nBody.\n` });
  assert.match(open[0]!.message, /en\.md:1: front matter has no closing --- line/);
  // A minimal site.yaml without product: says it is required and what it is.
  const noProduct = await errorsOf({ 'site.yaml': 'name: S\ndescription: D\nauthor: A\n', 'posts/hello/en.md': EN });
  assert.match(noProduct[0]!.message, /product: is required \(the offer GET \/api\/products\/the-value-layer answers with\)/);
  for (const e of [...none, ...drafts, ...three, ...open, ...noProduct]) assert.doesNotMatch(e.message, /\n|    at /, 'one line, no stack');
});

test('a language file over 1 MB builds with a warning naming it', async () => {
  const long = EN + '\n' + 'Words words words.\n\n'.repeat(60_000);
  const { warnings } = await build({ 'posts/hello/en.md': long });
  assert.ok(warnings.some((w) => /hello\/en\.md: is 1\.\d MB, over the 1 MB a post is expected to be/.test(w)), warnings.join('\n'));
});

test('a scheduled post is checked at every build though left out: its broken link fails now, not when it falls due', async () => {
  const later = (body: string) => `---\ntitle: "Later"\ndate: 2099-01-01T00:00:00Z\n---\n\n${body}\n`;
  const errors = await errorsOf({ 'posts/hello/en.md': EN, 'posts/later/en.md': later('See [nothing](/no-such-page).') });
  assert.equal(errors.length, 1, errors.map((e) => e.message).join('\n'));
  assert.match(errors[0]!.message, /later\/en\.md:6: link: \/no-such-page is no page or file of this site/, 'at its line in the file');
  // Its links to itself and to the published posts are fine; it stays out of the build.
  const { catalog } = await build({ 'posts/hello/en.md': EN, 'posts/later/en.md': later('## Part\n\nSee [part](#part), [hello](/hello).') });
  assert.deepEqual(catalog.posts.map((p) => p.slug), ['hello']);
});
