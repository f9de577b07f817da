import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { get, useServer } from '../helpers/server.ts';
import { corpus } from '../helpers/corpus.ts';
import { chromiumSkip, useChromium } from '../helpers/chromium.ts';

// An essay's page as a reader meets it (issue 31): a table of contents and section links for long
// essays, cover alt text, captioned media, the search page's script in its body.
const site = useServer();

const decode = (s: string) => s.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');
const between = (html: string, open: string, close: string) => {
  const at = html.indexOf(open);
  return at < 0 ? undefined : html.slice(at, html.indexOf(close, at) + close.length);
};
const idsOf = (html: string) => [...html.matchAll(/\sid="([^"]+)"/g)].map((m) => decode(m[1]!));
const tocOf = (html: string) => between(html, '<nav class="toc"', '</nav>');
const targets = (nav: string) => [...nav.matchAll(/href="#([^"]+)"/g)].map((m) => decode(m[1]!));
type Section = { level: number; text: string; id: string };

describe('long essays: a table of contents and section links', () => {
  test('every long essay, in every language it is in, lists its h2 and h3 in a nav whose links target ids given once', async () => {
    const c = await corpus('content');
    const scripts = new Set<string>();
    for (const post of c.posts) {
      for (const lang of ['en', ...post.translations.map((t) => t.lang)]) {
        if (c.stateOf(post.slug, lang) !== 'available') continue;
        const path = lang === 'en' ? `/${post.slug}` : `/${lang}/${post.slug}`;
        const page = await get(site.url, path);
        const sections: Section[] = (await get(site.url, `/api/posts/${post.slug}?lang=${lang}`)).json.data.structure.sections;
        const nav = tocOf(page.text);
        assert.ok(sections.filter((s) => s.level === 2).length >= 3 && nav, `${path} is long and has a table of contents`);
        assert.match(nav, /^<nav class="toc" aria-label="[^"]+"><p class="toc-title" aria-hidden="true">[^<]+<\/p><ol><li>/);
        assert.deepEqual(targets(nav), sections.filter((s) => s.level <= 3).map((s) => s.id), `${path}: h2 and h3, in order`);
        const ids = idsOf(page.text);
        assert.equal(new Set(ids).size, ids.length, `${path}: no id twice`);
        for (const s of sections) {
          assert.ok(ids.includes(s.id), `${path}: #${s.id} exists`);
          assert.ok(page.text.includes(`<a class="anchor" href="#${s.id}"`), `${path}: #${s.id} has its link`);
        }
        if (/[^\x00-\x7f]/.test(sections[0]!.id)) scripts.add(lang);
      }
    }
    for (const lang of ['ar', 'ja', 'hi', 'zh', 'ko', 'ru']) assert.ok(scripts.has(lang), `${lang} headings keep their own letters in their ids`);
  });

  test('the nav and each section link are named in the page\'s language; a short essay has neither contents nor a need for them', async () => {
    const ar = await get(site.url, '/ar/the-cartographers-dilemma');
    assert.match(tocOf(ar.text)!, /aria-label="المحتويات"/);
    assert.match(ar.text, /<div class="heading"><h2 id="([^"]+)">([^<]+)<\/h2><a class="anchor" href="#\1" aria-label="رابط هذا القسم: \2">#<\/a><\/div>/);
    const short = await get(site.url, '/sandbox/first-steps');
    assert.equal(short.status, 200);
    assert.equal(tocOf(short.text), undefined);
    const api = await get(site.url, '/api/posts/the-cartographers-dilemma?lang=ar');
    assert.ok(!api.json.data.content_html.includes('class="anchor"'), 'the API\'s HTML is the author\'s: ids, no links added');
    for (const s of api.json.data.structure.sections as Section[]) assert.ok(api.json.data.content_html.includes(`id="${s.id}"`), s.id);
  });
});

describe('cover alt text', () => {
  test('the cover and og:image:alt read the front matter\'s featured_image_alt, the translation\'s own in its language', async () => {
    const c = await corpus('content');
    const withCover = c.posts.filter((p) => p.english.featured_image);
    assert.ok(withCover.length >= 4);
    for (const post of withCover) {
      for (const file of [post.english, ...post.translations.filter((t) => c.stateOf(post.slug, t.lang) === 'available')]) {
        const alt = file.featured_image_alt ?? post.english.featured_image_alt;
        assert.ok(alt, `${post.slug}/${file.lang} has alt text`);
        const page = await get(site.url, file.lang === 'en' ? `/${post.slug}` : `/${file.lang}/${post.slug}`);
        const cover = /<img class="cover"[^>]*>/.exec(page.text)![0];
        assert.equal(decode(/alt="([^"]*)"/.exec(cover)![1]!), alt, `${post.slug}/${file.lang}`);
        assert.equal(decode(/<meta property="og:image:alt" content="([^"]*)">/.exec(page.text)![1]!), alt);
      }
    }
    const plain = c.posts.find((p) => !p.english.featured_image)!;
    assert.doesNotMatch((await get(site.url, `/${plain.slug}`)).text, /og:image:alt/);
    const search = await get(site.url, '/api/search?q=cartographer');
    const image = search.json.images.find((i: { url: string }) => i.url.endsWith('/the-cartographers-dilemma/cover.jpg'));
    assert.equal(image.description, withCover.find((p) => p.slug === 'the-cartographers-dilemma')!.english.featured_image_alt, 'the search image record describes the cover');
  });
});

describe('media', () => {
  test('the video has a poster and captions (the page\'s language on by default), and both are served', async () => {
    for (const [path, on] of [['/tidal-energy', 'en'], ['/es/tidal-energy', 'es']] as const) {
      const page = await get(site.url, path);
      const video = between(page.text, '<video', '</video>')!;
      const poster = /poster="([^"]+)"/.exec(video)![1]!;
      const tracks = [...video.matchAll(/<track kind="captions" src="([^"]+)" srclang="([^"]+)" label="[^"]+"( default)?>/g)];
      assert.deepEqual(tracks.map((t) => t[2]), ['en', 'es'], path);
      assert.deepEqual(tracks.filter((t) => t[3]).map((t) => t[2]), [on], `${path}: ${on} on by default`);
      const image = await fetch(site.url + poster);
      assert.equal(image.status, 200);
      assert.equal(image.headers.get('content-type'), 'image/jpeg');
      for (const t of tracks) {
        const vtt = await fetch(site.url + t[1]);
        assert.equal(vtt.status, 200);
        assert.match(vtt.headers.get('content-type')!, /^text\/vtt/);
        assert.match(await vtt.text(), /^WEBVTT\n\n00:00:00\.000 --> /);
      }
    }
  });
});

describe('the search page', () => {
  test('its script is part of the body: nothing after </html>, with or without a query', async () => {
    for (const path of ['/search', '/search?q=tide', '/ar/search', '/sandbox/search']) {
      const r = await get(site.url, path);
      assert.equal(r.status, 200, path);
      assert.ok(r.text.trimEnd().endsWith('</html>'), `${path} ends with </html>: …${r.text.slice(-80)}`);
      // The last script is the page's own (the head holds the theme's, which runs before the first paint).
      const script = r.text.lastIndexOf('<script');
      assert.ok(script > r.text.indexOf('<body') && script < r.text.indexOf('</body>'), `${path}: the script is in the body`);
    }
  });
});

describe('long essays in Chromium', { skip: chromiumSkip }, () => {
  const chrome = useChromium();

  test('Tab reaches the contents; following a link scrolls to the heading and moves the focus start there', async () => {
    const page = await chrome.browser.newPage({ viewport: { width: 1024, height: 700 } });
    await page.goto(`${site.url}/tidal-energy`);
    const nav = page.getByRole('navigation', { name: 'Contents' });
    assert.equal(await nav.count(), 1);
    let href: string | null = null;
    for (let i = 0; i < 60 && !href; i++) {
      await page.keyboard.press('Tab');
      href = await page.evaluate(() => (document.activeElement?.closest('nav.toc') ? document.activeElement.getAttribute('href') : null));
    }
    assert.equal(href, '#the-moons-long-pull', 'the first link of the contents is reached by Tab');
    for (let i = 0; i < 2; i++) await page.keyboard.press('Tab');
    const chosen = await page.evaluate(() => document.activeElement!.getAttribute('href')!);
    assert.equal(chosen, '#why-the-coast-matters');
    await page.keyboard.press('Enter');
    await page.waitForFunction((h) => location.hash === h, chosen);
    const top = await page.locator(chosen).evaluate((h) => h.getBoundingClientRect().top);
    assert.ok(top >= 0 && top < 40, `the heading is at the top of the window (${top} px)`);
    await page.keyboard.press('Tab');
    const next = await page.evaluate(() => ({ href: document.activeElement!.getAttribute('href'), name: document.activeElement!.getAttribute('aria-label') }));
    assert.deepEqual(next, { href: chosen, name: 'Link to this section: Why the coast matters' }, 'the next Tab is the heading\'s own link');
    // Hidden until pointed at or focused: shown once its fade is over.
    await page.waitForFunction(() => getComputedStyle(document.activeElement!).opacity === '1', undefined, { timeout: 2000 });
    await page.close();
  });
});
