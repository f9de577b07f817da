import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, writeFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { buildBundle } from '../../src/pipeline/bundle.ts';
import { ContentErrors } from '../../src/pipeline/load/file-error.ts';
import { sourceHash } from '../../src/pipeline/derive/source-hash.ts';

process.env.FOLIO_RENDER_THREADS ??= '1';

const SITE = `name: S\ndescription: D\nauthor: A\nattribution: cite\nproduct:\n  title: P\n  description: d\n  format: PDF\n  price_usd: 1\n  currency: USD\n  landing_url: /p\n  download_url: /d\n`;
// A 1x1 PNG: a real image the build measures and encodes.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
const SITE_URL = 'http://localhost:4321';

const post = (title: string, date: string, body: string, extra = '') => `---\ntitle: "${title}"\ndate: ${date}\ncategories: [Tech]\ntags: [Notes]\n${extra}---\n\n${body}`;
/** A translation stamped with its English source's hash (so it is published). */
const translation = (title: string, english: [string, string], body: string) => `---\ntitle: "${title}"\nsource_hash: "${sourceHash(...english)}"\n---\n\n${body}`;

// Every kind of path a post may link to that exists, each on its own line.
const VALID = [
  '## First part', '',
  '[home](/) [fr home](/fr/) [en prefix](/en/beta) [en home](/en)',
  '[post](/beta) [translated](/fr/alpha) [untranslated](/de/beta) [query](/beta?x=1) [slash](/beta/)',
  '[twin](/beta.md) [fr twin](/fr/alpha.md) [untranslated twin](/de/beta.md)',
  '[category](/category/tech) [tag](/tag/notes) [fr category](/fr/category/tech) [slash](/category/tech/)',
  '[media](/media/alpha/pic.png) [sibling](pic.png) [dot](./pic.png) [relative post](beta)',
  '[search](/search) [fr search](/fr/search) [api](/api) [post api](/api/posts/alpha) [mcp](/mcp/docs)',
  '[feed](/feed.xml) [fr feed](/fr/atom.xml) [sitemap](/sitemap.xml) [llms](/llms.txt) [openapi](/openapi.json) [robots](/robots.txt)',
  `[own url](${SITE_URL}/beta) [own home](${SITE_URL}/) [external](https://example.com/missing) [mail](mailto:a@example.com) [tel](tel:+1)`,
  '[heading](#first-part) [other heading](/beta#beta-heading) [main](#content) [translated heading](/fr/alpha#premi%C3%A8re-partie)',
  '[other root](/sandbox/anything)', '',
  '![pic](pic.png)', '',
  '<img src="./pic.png" alt="x"> <video src="clip.mp4" poster="pic.png"></video> <video><source src="clip.mp4"></video>', '',
  'Text with a footnote.[^1]', '',
  '[^1]: The note.', '',
].join('\n');

const ALPHA_FR = '## Première partie\n\nTexte [accueil](/fr/) [post](/beta).\n';

/** The broken references of beta's en.md: the text, and what its error says. */
const BROKEN: [string, RegExp][] = [
  ['[x](/no-such-post)', /link: \/no-such-post is no page or file of this site$/],
  ['[x](/fr/alpah)', /link: \/fr\/alpah is no page or file of this site, e\.g\. \/fr\/alpha$/],
  ['[x](/alpah.md)', /link: \/alpah\.md is no page or file of this site, e\.g\. \/alpha\.md$/],
  ['[x](/category/tehc)', /link: \/category\/tehc is no page or file of this site, e\.g\. \/category\/tech$/],
  ['[x](/fr/tag/nope)', /link: \/fr\/tag\/nope is no page or file of this site, e\.g\. \/fr\/tag\/notes$/],
  ['[x](/media/alpha/pic.pgn)', /link: \/media\/alpha\/pic\.pgn is no page or file of this site, e\.g\. \/media\/alpha\/pic\.png$/],
  [`[x](${SITE_URL}/alpah)`, /link: http:\/\/localhost:4321\/alpah is no page or file of this site, e\.g\. \/alpha$/],
  ['[x](/alpha#no-heading)', /link: \/alpha#no-heading names no heading of \/alpha, e\.g\. #first-part$/],
  ['[x](#nowhere)', /link: #nowhere names no heading of \/beta, e\.g\. #beta-heading$/],
  ['[x](alpah)', /link: alpah is no page or file of this site \(it leads to \/alpah\), e\.g\. \/alpha$/],
  ['[x](./figure.pdf)', /link: \.\/figure\.pdf is not a file in the post folder, e\.g\. add it beside the post$/],
  ['![x](missing.jpg)', /image: missing\.jpg is not a file in the post folder, e\.g\. add it beside the post$/],
  ['<img src="gone.png" alt="x">', /image: gone\.png is not a file in the post folder/],
  ['<video src="gone.mp4"></video>', /video: gone\.mp4 is not a file in the post folder/],
  ['<video><source src="gone.webm"></video>', /video: gone\.webm is not a file in the post folder/],
  ['<video src="/media/beta/clip.mp4"></video>', /video: \/media\/beta\/clip\.mp4 is no page or file of this site$/],
];
const BETA = ['## Beta heading', '', ...BROKEN.flatMap(([text]) => [text, ''])].join('\n');

async function bundle(files: Record<string, string | Buffer>) {
  const dir = await mkdtemp(join(tmpdir(), 'folio-links-'));
  try {
    for (const [name, text] of Object.entries({ 'site.yaml': SITE, ...files })) {
      await mkdir(dirname(join(dir, name)), { recursive: true });
      await writeFile(join(dir, name), text);
    }
    await buildBundle({ contentDir: dir, outDir: join(dir, 'out'), base: '', siteUrl: SITE_URL, cacheDir: join(dir, 'cache'), otherBases: ['/sandbox'], publicDir: 'public' });
    return [];
  } catch (e) {
    if (!(e instanceof ContentErrors)) throw e;
    return e.errors.map((x) => x.message.replace(`${dir}/`, ''));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const ALPHA = {
  'posts/alpha/en.md': post('Alpha', '2026-01-02T00:00:00Z', VALID),
  'posts/alpha/fr.md': translation('Alpha fr', ['Alpha', VALID], ALPHA_FR),
  'posts/alpha/pic.png': PNG,
  'posts/alpha/clip.mp4': 'not really a video',
};

test('every kind of path the site answers passes the link check', async () => {
  assert.deepEqual(await bundle({ ...ALPHA, 'posts/beta/en.md': post('Beta', '2026-01-01T00:00:00Z', '## Beta heading\n\nText.\n') }), []);
});

test('each broken link, image and video is one error on its file and line, all of them together', async () => {
  const errors = await bundle({
    ...ALPHA,
    'posts/beta/en.md': post('Beta', '2026-01-01T00:00:00Z', BETA),
    'posts/beta/fr.md': translation('Beta fr', ['Beta', BETA], 'Texte.\n\n[x](/fr/nope)\n'),
  });
  const bodyStart = 8; // after the front matter (6 lines) and a blank line
  const expected = BROKEN.map(([, message], i) => [`posts/beta/en.md:${bodyStart + 2 + 2 * i}: `, message] as const);
  const beta = errors.filter((e) => e.startsWith('posts/beta/en.md'));
  assert.equal(beta.length, BROKEN.length, errors.join('\n'));
  beta.forEach((line, i) => {
    assert.ok(line.startsWith(expected[i]![0]), `${line} should be at ${expected[i]![0]}`);
    assert.match(line, expected[i]![1]);
  });
  assert.ok(errors.includes('posts/beta/fr.md:8: link: /fr/nope is no page or file of this site'), errors.join('\n'));
  assert.equal(errors.length, BROKEN.length + 1, errors.join('\n'));
});

test('link errors come with the other content errors; a link into a post that failed to load is not judged', async () => {
  const errors = await bundle({
    'posts/beta/en.md': post('Beta', '2026-01-01T00:00:00Z', '[x](/gamma) [y](/gamma.md) [z](/category/gamma-only)\n\n[w](/no-such-post)\n'),
    'posts/gamma/en.md': post('Gamma', 'yesterday', 'Text.\n'),
  });
  assert.deepEqual(errors, [
    'posts/gamma/en.md:3: date: must be a real date or timestamp in ISO 8601, e.g. date: 2026-01-31T08:00:00Z (got "yesterday")',
    'posts/beta/en.md:10: link: /no-such-post is no page or file of this site',
  ]);
});

test('links in standalone pages are checked like a post\'s, and links to a page pass', async () => {
  const page = (title: string, body: string) => `---\ntitle: "${title}"\n---\n\n${body}`;
  const errors = await bundle({
    ...ALPHA,
    'posts/beta/en.md': post('Beta', '2026-01-01T00:00:00Z', '## Beta heading\n\nSee [about](/about) and [the colophon](/colophon).\n'),
    'pages/about/en.md': page('About', 'Read [alpha](/alpha), then [nothing](/no-such-page).\n\n![a photo](photo.png)\n'),
    'pages/about/photo.png': PNG,
  });
  assert.equal(errors.length, 2, errors.join('\n'));
  assert.ok(errors.some((e) => /^posts\/beta\/en\.md:10: link: \/colophon is no page or file of this site/.test(e)), errors.join('\n'));
  assert.ok(errors.includes('pages/about/en.md:5: link: /no-such-page is no page or file of this site'), errors.join('\n'));
});
