import { test } from 'node:test';
import assert from 'node:assert/strict';
import { unified } from 'unified';
import rehypeParse from 'rehype-parse';
import { visit } from 'unist-util-visit';
import { imageSize } from 'image-size';
import type { Element, Root } from 'hast';
import { get, useServer } from '../helpers/server.ts';
import { corpus } from '../helpers/corpus.ts';
import { LANGUAGE_CODES } from '../../src/core/languages.ts';

const site = useServer();
const parse = unified().use(rehypeParse);

/** The elements of a page's article, in order. */
function articleElements(html: string): Element[] {
  const out: Element[] = [];
  visit(parse.parse(html) as Root, 'element', (el: Element) => {
    if (el.tagName !== 'article') return;
    visit(el, 'element', (inner: Element) => void out.push(inner));
  });
  return out;
}

const bytesOf = async (path: string) => {
  const res = await fetch(site.url + path);
  return { res, bytes: new Uint8Array(await res.arrayBuffer()) };
};

test('every image of every post page has its real size, and AVIF and WebP sources whose files are the widths they claim', async () => {
  const c = await corpus('content');
  const checked = new Set<string>();
  let pictures = 0;
  for (const p of c.posts) {
    for (const lang of LANGUAGE_CODES.filter((l) => c.stateOf(p.slug, l) === 'available')) {
      const path = `${lang === 'en' ? '' : `/${lang}`}/${p.slug}`;
      const els = articleElements((await get(site.url, path)).text);
      for (const img of els.filter((e) => e.tagName === 'img')) {
        const src = String(img.properties.src);
        const { width, height } = imageSize((await bytesOf(src)).bytes);
        assert.deepEqual([img.properties.width, img.properties.height], [width, height], `${path}: ${src} has width and height`);
      }
      for (const picture of els.filter((e) => e.tagName === 'picture')) {
        pictures++;
        const sources = picture.children.filter((e): e is Element => e.type === 'element' && e.tagName === 'source');
        assert.deepEqual(sources.map((s) => s.properties.type), ['image/avif', 'image/webp'], `${path}: AVIF first, then WebP`);
        for (const source of sources) {
          assert.match(String(source.properties.sizes), /39\.5rem/, `${path}: sizes follow the column`);
          for (const candidate of String(source.properties.srcSet).split(', ')) {
            const [url, w] = candidate.split(' ') as [string, string];
            if (checked.has(url)) continue;
            checked.add(url);
            const { res, bytes } = await bytesOf(url);
            assert.equal(res.status, 200, url);
            assert.equal(res.headers.get('content-type'), source.properties.type, url);
            assert.match(res.headers.get('cache-control')!, /immutable/, `${url} is named by its content`);
            assert.equal(`${imageSize(bytes).width}w`, w, url);
          }
        }
      }
    }
  }
  assert.ok(pictures > 10 && checked.size > 20, `${pictures} pictures, ${checked.size} variants`);
});

test('a phone gets a cover a fraction of the JPEG’s bytes (Lighthouse: 32 KB of 46 KB wasted)', async () => {
  const els = articleElements((await get(site.url, '/tidal-energy')).text);
  const cover = els.find((e) => e.tagName === 'img' && e.properties.className?.toString() === 'cover')!;
  const avif = els.find((e) => e.tagName === 'source' && e.properties.type === 'image/avif')!;
  const for800 = String(avif.properties.srcSet).split(', ').find((c) => c.endsWith(' 800w'))!.split(' ')[0]!;
  const jpeg = (await bytesOf(String(cover.properties.src))).bytes.length;
  const small = (await bytesOf(for800)).bytes.length;
  assert.ok(small < jpeg * 0.6, `800w AVIF ${small} B against the 1200 px JPEG's ${jpeg} B`);
});

test('an image alone in its paragraph with a Markdown title is a figure captioned by it, in each language', async () => {
  for (const [path, caption] of [['/tidal-energy', 'Spring and neap tides over a fortnight'], ['/es/tidal-energy', 'Mareas vivas y muertas a lo largo de quince días']] as const) {
    const els = articleElements((await get(site.url, path)).text);
    const figure = els.find((e) => e.tagName === 'figure');
    assert.ok(figure, `${path} has a figure`);
    const inner: Element[] = [];
    visit(figure, 'element', (e: Element) => void inner.push(e));
    assert.equal(inner.find((e) => e.tagName === 'figcaption')?.children.map((t) => (t.type === 'text' ? t.value : '')).join(''), caption);
    const img = inner.find((e) => e.tagName === 'img')!;
    assert.equal(img.properties.title, undefined, 'the caption is not repeated as a tooltip');
    assert.ok(String(img.properties.alt).length > 10, 'the alt text stays');
  }
});

test('the API’s image fields are as the contract says: paths of the originals, measured sizes', async () => {
  const detail = (await get(site.url, '/api/posts/tidal-energy')).json.data;
  assert.equal(detail.featured_image, '/media/tidal-energy/cover.jpg');
  assert.deepEqual(detail.media.filter((m: { type: string }) => m.type === 'image').map((m: { src: string }) => new URL(m.src).pathname), ['/media/tidal-energy/figure-1.jpg']);
  const search = (await get(site.url, '/api/search?q=tide')).json;
  const cover = search.images.find((i: { url: string }) => i.url === '/media/tidal-energy/cover.jpg');
  assert.deepEqual([cover.width, cover.height, Object.keys(cover).sort()], [1200, 630, ['description', 'height', 'post_slug', 'post_title', 'post_url', 'title', 'type', 'url', 'width']]);
});
