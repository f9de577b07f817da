import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { useServer } from '../helpers/server.ts';
import { chromiumSkip, useChromium } from '../helpers/chromium.ts';
import { corpus } from '../helpers/corpus.ts';

// The reader's site where layout matters (issue 16), in Chromium: search with JavaScript off,
// lines that must not break, CJK line breaking, per-script fonts, the attribution's direction.


describe('the reader\'s site in Chromium', { skip: chromiumSkip }, () => {
  const server = useServer();
  const chrome = useChromium();

  test('search works with JavaScript disabled: the form submits and the results come back marked', async () => {
    const context = await chrome.browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${server.url}/search`);
    await page.locator('#q').fill('tide');
    await Promise.all([page.waitForURL('**/search?q=tide'), page.locator('#q').press('Enter')]);
    assert.equal(await page.locator('#search-status').textContent(), '1 result for “tide”');
    assert.equal(await page.locator('#search-results li h2 a').first().textContent(), 'What the Tide Knows');
    assert.equal((await page.locator('#search-results mark').first().textContent())?.toLowerCase(), 'tide');
    assert.equal(await page.locator('#q').inputValue(), 'tide');
    await page.goto(`${server.url}/ar/search?q=${encodeURIComponent('الويب')}`);
    assert.equal(await page.locator('#search-status').textContent(), 'نتيجتان لـ «الويب»');
    assert.equal(await page.locator('#search-results li').count(), 2);
    await page.goto(`${server.url}/search?q=zzqxv`);
    assert.equal(await page.locator('#search-status').textContent(), 'No essays match “zzqxv”.');
    await context.close();
  });

  test('with JavaScript the same results are swapped in place: no reload, the address and Back follow', async () => {
    const page = await chrome.browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${server.url}/search`);
    await page.evaluate(() => ((window as unknown as { kept: boolean }).kept = true));
    await page.locator('#q').fill('the');
    await Promise.all([page.waitForURL('**/search?q=the'), page.locator('#q').press('Enter')]);
    await page.waitForSelector('#search-results li');
    assert.match((await page.locator('#search-status').textContent())!, /^\d+ results for “the”$/);
    await Promise.all([page.waitForURL('**/search?q=the&page=2'), page.locator('nav.pager a[rel=next]').click()]);
    await page.waitForSelector('#search-results[start="11"]');
    await Promise.all([page.waitForURL('**/search?q=the'), page.goBack()]);
    await page.waitForSelector('#search-results[start="1"]');
    assert.equal(await page.locator('#q').inputValue(), 'the');
    assert.equal(await page.evaluate(() => (window as unknown as { kept?: boolean }).kept), true, 'the page was never reloaded');
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('on a narrow screen the meta line keeps "·" before "4 min read", and "読めます" whole', async () => {
    const c = await corpus('content');
    const ja = c.availableIn('ja')[0]!.slug;
    const page = await chrome.browser.newPage({ viewport: { width: 320, height: 640 } });
    for (const path of ['/tidal-energy', `/ja/${ja}`]) {
      await page.goto(server.url + path);
      const lines = await page.locator('article .meta').first().evaluate((meta) => {
        const walker = document.createTreeWalker(meta, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const at = node.textContent!.search(/\d+\s*(min read|分で読めます)/);
          if (at < 0) continue;
          const range = document.createRange();
          range.setStart(node, at);
          range.setEnd(node, node.textContent!.length);
          return new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size;
        }
        return 0;
      });
      assert.equal(lines, 1, `${path}: the reading time is on one line`);
    }
    await page.goto(server.url + '/tidal-energy');
    // The separator is drawn before the reading time (a ::before), and read by no screen reader (its alternative text is empty).
    const sep = await page.locator('article .meta [data-meta="reading-time"]').evaluate((el) => getComputedStyle(el, '::before').content);
    assert.equal(sep, '"·" / ""');
    assert.match((await page.locator('article .meta').first().textContent())!.replace(/\s+/g, ' '), /2026 4 min read/);
    await page.close();
  });

  test('CJK text breaks strictly (Japanese headings by phrase); each script has its own system fonts', async () => {
    const c = await corpus('content');
    const page = await chrome.browser.newPage();
    const slug = (lang: string) => c.availableIn(lang)[0]!.slug;
    await page.goto(`${server.url}/ja/${slug('ja')}`);
    const ja = await page.locator('article .body p').first().evaluate((el) => {
      const s = getComputedStyle(el);
      return { lineBreak: s.lineBreak, wordBreak: s.wordBreak, font: s.fontFamily };
    });
    assert.equal(ja.lineBreak, 'strict');
    assert.equal(ja.wordBreak, 'normal', 'the body wraps by character (by phrase, lines ended ragged: reader-typography.test.ts)');
    assert.match(ja.font, /Noto Serif CJK JP/);
    const fonts: Record<string, RegExp> = { ar: /Noto Naskh Arabic/, hi: /Noto Serif Devanagari/, zh: /Noto Serif CJK SC/, ko: /Noto Serif CJK KR/ };
    for (const [lang, font] of Object.entries(fonts)) {
      if (c.availableIn(lang).length === 0) continue;
      await page.goto(`${server.url}/${lang}/`);
      assert.match(await page.locator('h1').evaluate((el) => getComputedStyle(el).fontFamily), font, lang);
      assert.match(await page.locator('.meta').first().evaluate((el) => getComputedStyle(el).fontFamily), /system-ui/, `${lang} interface text`);
    }
    await page.close();
  });

  test('in Arabic pages the Arabic attribution reads right to left: its full stop is left of the word it ends', async () => {
    const page = await chrome.browser.newPage();
    await page.goto(`${server.url}/ar/`);
    const [first, last] = await page.locator('footer.site p').first().evaluate((el) => {
      const text = document.createTreeWalker(el, NodeFilter.SHOW_TEXT).nextNode()!;
      const at = (i: number) => {
        const r = document.createRange();
        r.setStart(text, i);
        r.setEnd(text, i + 1);
        return r.getBoundingClientRect().left;
      };
      const end = text.textContent!.length - 1;
      return [at(end - 1), at(end)];
    });
    assert.ok(last! < first!, `the final "." is left of the word it ends (right to left): ${last} < ${first}`);
    await page.close();
  });
});
