import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { useServer } from '../helpers/server.ts';
import { chromiumSkip, useChromium } from '../helpers/chromium.ts';
import { corpus } from '../helpers/corpus.ts';
import { readerText } from '../../src/site/reader-text.ts';



describe('the site in Chromium', { skip: chromiumSkip }, () => {
  const server = useServer();
  const chrome = useChromium();

  /** Opens a page and fails the test on any console error or page error. */
  async function open(path: string, expectedStatus = 200): Promise<Page> {
    const page = await chrome.browser.newPage();
    const problems: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' && !(expectedStatus === 404 && /status of 404/.test(m.text()))) problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(e.message));
    const response = await page.goto(server.url + path, { waitUntil: 'load' });
    assert.equal(response?.status(), expectedStatus, path);
    await page.waitForLoadState('networkidle');
    assert.deepEqual(problems, [], `console errors on ${path}`);
    return page;
  }

  test('the /en/ redirects never leave the origin, whatever the rest of the path holds', async () => {
    // Chromium drops a tab or newline from a Location, so `/\t/host` would read `//host`: another origin.
    const page = await chrome.browser.newPage();
    const origin = new URL(server.url).origin;
    const seen: string[] = [];
    page.on('request', (r) => seen.push(r.url()));
    for (const path of ['/en/%09/evil.example/phish', '/en/%0a/evil.example/', '/en/%5C/evil.example', '/en/%2F%2Fevil.example/x', '/sandbox/en/%09/evil.example', '/en/%E6%97%A5']) {
      await page.goto(server.url + path, { waitUntil: 'load' });
      assert.equal(new URL(page.url()).origin, origin, `${path} stayed on ${origin}, ended at ${page.url()}`);
    }
    assert.deepEqual(seen.filter((u) => new URL(u).origin !== origin), [], 'no request left the origin');
    await page.close();
  });

  test('home page lists the newest essays and links to them', async () => {
    const c = await corpus('content');
    const page = await open('/');
    assert.equal(await page.locator('html').getAttribute('lang'), 'en');
    const titles = await page.locator('ol.posts h2 a').allTextContents();
    assert.deepEqual(titles, c.byDate.slice(0, 10).map((p) => readerText(p.english.title, 'en')));
    await page.locator('ol.posts h2 a').first().click();
    await page.waitForLoadState('load');
    assert.equal(await page.locator('article h1').textContent(), readerText(c.byDate[0]!.english.title, 'en'));
    await page.close();
  });

  test('a post with images and video renders them, with JSON-LD and hreflang alternates', async () => {
    const page = await open('/tidal-energy');
    // The browser takes a variant from the srcset, not the JPEG fallback.
    const chosen = await page.locator('article img.cover').evaluate((el: HTMLImageElement) => el.currentSrc);
    assert.match(chosen, /\/media\/_v\/[0-9a-f]{20}-\d+\.avif$/);
    const images = page.locator('article img');
    assert.ok((await images.count()) >= 2);
    for (const img of await images.all()) {
      await img.scrollIntoViewIfNeeded();
      assert.ok(await img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0), 'image loaded');
    }
    assert.equal(await page.locator('article video').count(), 1);
    // The article first, then its BreadcrumbList.
    const ld = JSON.parse((await page.locator('script[type="application/ld+json"]').first().textContent())!);
    assert.equal(ld['@type'], 'BlogPosting');
    assert.equal(ld.headline, 'What the Tide Knows');
    assert.ok((await page.locator('link[rel=alternate][hreflang]').count()) >= 3);
    assert.ok(await page.locator('meta[property="og:image"]').count());
    await page.close();
  });

  test('the language switcher leads to a translated post with its automated-translation notice', async () => {
    const page = await open('/tidal-energy');
    await page.locator('details.languages summary').click();
    await page.locator('details.languages a[hreflang="es"]').click();
    await page.waitForLoadState('load');
    assert.equal(new URL(page.url()).pathname, '/es/tidal-energy');
    assert.equal(await page.locator('html').getAttribute('lang'), 'es');
    assert.ok(await page.locator('.notice[data-notice="automated"]').isVisible());
    await page.locator('.notice a[hreflang="en"]').click();
    await page.waitForLoadState('load');
    assert.equal(new URL(page.url()).pathname, '/tidal-energy');
    await page.close();
  });

  test('Arabic pages are right-to-left and keyboard reachable', async () => {
    const c = await corpus('content');
    const post = c.availableIn('ar')[0]!;
    const page = await open(`/ar/${post.slug}`);
    assert.equal(await page.locator('html').getAttribute('dir'), 'rtl');
    assert.equal(await page.locator('article').evaluate((el) => getComputedStyle(el).direction), 'rtl');
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.className), 'skip');
    const home = await open('/ar/');
    assert.equal(await home.locator('html').getAttribute('dir'), 'rtl');
    await page.screenshot({ path: 'dist/screenshot-ar.png' });
    await page.close();
    await home.close();
  });

  test('the 404 page and the translation-unavailable page', async () => {
    const page = await open('/no-such-page', 404);
    assert.equal(await page.locator('[data-page="not-found"] h1').count(), 1);
    await page.locator('a[href="/"]').last().click();
    await page.waitForLoadState('load');
    assert.equal(new URL(page.url()).pathname, '/');
    const c = await corpus('content');
    const { slug, lang } = c.find('missing');
    const missing = await open(`/${lang}/${slug}`, 404);
    assert.ok(await missing.locator('.notice[data-notice="fallback"]').isVisible());
    await missing.locator(`[data-page="translation-unavailable"] p > a[href="/${slug}"]`).click();
    await missing.waitForLoadState('load');
    assert.equal(new URL(missing.url()).pathname, `/${slug}`);
    await page.close();
    await missing.close();
  });

  test('site search works with the keyboard alone, in English and in Arabic', async () => {
    const page = await open('/');
    await page.locator('header.site nav a[href="/search"]').focus();
    await Promise.all([page.waitForURL('**/search'), page.keyboard.press('Enter')]);
    let reached = false;
    const focused: string[] = [];
    for (let i = 0; i < 30 && !reached; i++) {
      await page.keyboard.press('Tab');
      focused.push(await page.evaluate(() => document.activeElement?.getAttribute('href') ?? ''));
      reached = (await page.evaluate(() => document.activeElement?.id)) === 'q';
    }
    assert.ok(reached, 'the search box is reachable with Tab');
    assert.ok(focused.includes('/about') && focused.includes('/category/technology'), `the site menu is reached with Tab on the way: ${focused.join(' ')}`);
    await page.keyboard.type('tide');
    await Promise.all([page.waitForURL('**/search?q=tide'), page.keyboard.press('Enter')]);
    await page.waitForSelector('#search-results li');
    assert.equal(await page.locator('#search-results li h2 a').first().textContent(), 'What the Tide Knows');
    assert.match((await page.locator('#search-status').textContent())!, /tide/);
    const ar = await open('/ar/search');
    assert.equal(await ar.locator('html').getAttribute('dir'), 'rtl');
    await ar.locator('#q').fill('الويب');
    await Promise.all([ar.waitForURL('**/ar/search?q=*'), ar.keyboard.press('Enter')]);
    await ar.waitForSelector('#search-results li');
    assert.ok((await ar.locator('#search-results li').count()) >= 1);
    assert.equal(await ar.locator('#search-results').evaluate((el) => getComputedStyle(el).direction), 'rtl');
    await ar.screenshot({ path: 'dist/screenshot-ar-search.png' });
    await page.close();
    await ar.close();
  });

  test('dark theme follows the system preference', async () => {
    const page = await chrome.browser.newPage({ colorScheme: 'dark' });
    await page.goto(server.url + '/');
    const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const light = await chrome.browser.newPage({ colorScheme: 'light' });
    await light.goto(server.url + '/');
    assert.notEqual(bg, await light.evaluate(() => getComputedStyle(document.body).backgroundColor));
    // Images are shown as they are in both (a dimming only a hover undid left touch screens dim: issue 31).
    const filters = async (p: Page) => {
      await p.goto(server.url + '/tidal-energy');
      return p.locator('article img').evaluateAll((imgs) => [...new Set(imgs.map((i) => getComputedStyle(i).filter))]);
    };
    assert.deepEqual(await filters(page), ['none']);
    assert.deepEqual(await filters(light), ['none']);
    await page.close();
    await light.close();
  });
});
