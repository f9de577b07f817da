import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { useServer } from '../helpers/server.ts';
import { chromiumSkip, useChromium } from '../helpers/chromium.ts';
import { corpus } from '../helpers/corpus.ts';

// The reader's site as a typographer and a reader at the controls see it (issue 31), measured in
// Chromium: print, Korean and Japanese line breaking, the header's places, Arabic type, the
// language menu, focus rings and the theme switch (images in the dark: browser.test.ts).

/** The pages of a PDF, counted from its bytes (each page object is `/Type /Page`, the tree `/Type /Pages`). */
const pdfPages = (pdf: Buffer) => (pdf.toString('latin1').match(/\/Type\s*\/Page(?!s)/g) ?? []).length;

/** WCAG contrast ratio of two `rgb()`/`rgba()` colours (opaque ones: the page's own). */
function contrast(a: string, b: string): number {
  const luminance = (color: string) => {
    const [r, g, bl] = color.match(/[\d.]+/g)!.slice(0, 3).map((v) => {
      const c = Number(v) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

/** The line boxes of an element's text: per character, its line (by top) and its box, in reading order. */
async function characterBoxes(page: Page, selector: string) {
  return page.locator(selector).evaluateAll((elements) =>
    elements.map((el) => {
      // Each drawn character with its place in the element's text (a space that ends a line is not drawn).
      const chars: { ch: string; at: number; top: number; right: number }[] = [];
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      const range = document.createRange();
      let at = 0;
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent!;
        for (let i = 0; i < text.length; i++, at++) {
          range.setStart(node, i);
          range.setEnd(node, i + 1);
          const rect = [...range.getClientRects()].find((r) => r.width > 0);
          if (rect) chars.push({ ch: text[i]!, at, top: rect.top, right: rect.right });
        }
      }
      const style = getComputedStyle(el);
      const box = el.getBoundingClientRect();
      return { chars, fontSize: parseFloat(style.fontSize), contentRight: box.right - parseFloat(style.paddingRight), lineHeight: parseFloat(style.lineHeight) };
    }),
  );
}

interface Drawn { ch: string; at: number; top: number }
/** Where one line ends and the next begins: the drawn characters either side of each break. */
function lineBreaks(chars: Drawn[], lineHeight: number): [Drawn, Drawn][] {
  const breaks: [Drawn, Drawn][] = [];
  for (let i = 1; i < chars.length; i++) if (chars[i]!.top - chars[i - 1]!.top > lineHeight / 2) breaks.push([chars[i - 1]!, chars[i]!]);
  return breaks;
}

/**
 * A byline's lines as drawn: its visible characters (a "·" in the text, or one a stylesheet draws in a
 * ::before or ::after) in visual order, left to right, per line; what the element's overflow clips is not
 * drawn. And the items that must stay whole (white-space: nowrap) but span more than one line.
 */
async function bylineLines(page: Page, selector: string) {
  return page.locator(selector).evaluateAll((elements) =>
    elements.map((meta) => {
      const boxes: { ch: string; left: number; right: number; top: number; bottom: number }[] = [];
      // The part of the viewport where an element's content is drawn: its clipping ancestors' boxes.
      const clipOf = (el: Element) => {
        let [left, right] = [-Infinity, Infinity];
        for (let at: Element | null = el; at; at = at.parentElement) {
          if (at !== el && getComputedStyle(at).overflowX !== 'visible') {
            const r = at.getBoundingClientRect();
            [left, right] = [Math.max(left, r.left), Math.min(right, r.right)];
          }
        }
        return { left, right };
      };
      const add = (ch: string, r: { left: number; right: number; top: number; bottom: number }, owner: Element) => {
        const clip = clipOf(owner);
        if (Math.min(r.right, clip.right) - Math.max(r.left, clip.left) > 1) boxes.push({ ch, left: r.left, right: r.right, top: r.top, bottom: r.bottom });
      };
      const walker = document.createTreeWalker(meta, NodeFilter.SHOW_TEXT);
      const range = document.createRange();
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent!;
        for (let i = 0; i < text.length; i++) {
          if (text[i]!.trim() === '') continue;
          range.setStart(node, i);
          range.setEnd(node, i + 1);
          const rect = [...range.getClientRects()].find((r) => r.width > 0);
          if (rect) add(text[i]!, rect, node.parentElement!);
        }
      }
      // Separators drawn by CSS: the box of a ::before at the start of its element's first fragment, of an ::after at the end of its last.
      for (const el of [meta, ...meta.querySelectorAll('*')]) {
        const rtl = getComputedStyle(el).direction === 'rtl';
        for (const pseudo of ['::before', '::after'] as const) {
          const style = getComputedStyle(el, pseudo);
          if (!style.content.includes('·') || style.display === 'none') continue;
          const rects = [...el.getClientRects()];
          const fragment = pseudo === '::before' ? rects[0] : rects.at(-1);
          if (!fragment) continue;
          const width = parseFloat(style.width);
          const marginStart = parseFloat(style.marginInlineStart) || 0;
          const atLeft = (pseudo === '::before') !== rtl;
          const left = atLeft ? fragment.left + (pseudo === '::before' ? marginStart : 0) : fragment.right - width - (pseudo === '::before' ? marginStart : 0);
          add('·', { left, right: left + width, top: fragment.top, bottom: fragment.bottom }, el);
        }
      }
      const lineHeight = parseFloat(getComputedStyle(meta).fontSize);
      const lines: (typeof boxes)[] = [];
      for (const box of boxes.sort((a, b) => a.top - b.top)) {
        const line = lines.find((l) => Math.abs((l[0]!.top + l[0]!.bottom) / 2 - (box.top + box.bottom) / 2) < lineHeight / 2);
        if (line) line.push(box);
        else lines.push([box]);
      }
      const broken = [...meta.querySelectorAll('*')]
        .filter((el) => getComputedStyle(el).whiteSpace === 'nowrap' && el.textContent!.trim() !== '')
        .filter((el) => {
          const r = document.createRange();
          r.selectNodeContents(el);
          return new Set([...r.getClientRects()].filter((x) => x.width > 0).map((x) => Math.round((x.top + x.bottom) / 2))).size > 1;
        })
        .map((el) => el.textContent!);
      return { lines: lines.map((l) => l.sort((a, b) => a.left - b.left).map((b) => b.ch).join('')), broken };
    }),
  );
}

const HANGUL = /[\uac00-\ud7a3]/;
const VIEWPORTS = { desktop: { width: 1280, height: 900 }, mobile: { width: 390, height: 844 } };

describe('the reader\'s site as a typographer sees it, in Chromium', { skip: chromiumSkip }, () => {
  const server = useServer();
  const chrome = useChromium();
  const withPage = async (options: BrowserContextOptions, run: (page: Page) => Promise<void>) => {
    const context = await chrome.browser.newContext(options);
    try {
      await run(await context.newPage());
    } finally {
      await context.close();
    }
  };

  test('print: the essay alone, ink on white on a dark system, in fewer A4 pages; Arabic is not cut', async () => {
    const c = await corpus('content');
    const ar = c.availableIn('ar').find((p) => p.english.featured_image)!.slug;
    await withPage({ colorScheme: 'dark', viewport: VIEWPORTS.desktop }, async (page) => {
      for (const [path, most] of [['/tidal-energy', 3], [`/ar/${ar}`, 3]] as const) {
        await page.goto(server.url + path, { waitUntil: 'networkidle' });
        await page.emulateMedia({ media: 'print', colorScheme: 'dark' });
        const printed = await page.evaluate(() => {
          const shown = (s: string) => [...document.querySelectorAll(s)].some((el) => el.getClientRects().length > 0);
          const main = document.querySelector('main')!.getBoundingClientRect();
          // Every box's horizontal extent as drawn (within the ancestors that clip it: a byline is shifted
          // under its clip, reader-typography's "·" test): the skip link moved 100vw "to the start" widened right-to-left pages.
          const drawn = (el: Element) => {
            let { left, right } = el.getBoundingClientRect();
            for (let at = el.parentElement; at; at = at.parentElement) {
              if (getComputedStyle(at).overflowX === 'visible') continue;
              const clip = at.getBoundingClientRect();
              [left, right] = [Math.max(left, clip.left), Math.min(right, clip.right)];
            }
            return { left, right, width: right - left };
          };
          const boxes = [...document.body.querySelectorAll('*')].map(drawn).filter((r) => r.width > 0);
          return {
            chrome: ['.skip', 'header.site', 'footer.site', 'details.languages', 'nav', 'button'].filter(shown),
            ink: getComputedStyle(document.body).color,
            paper: getComputedStyle(document.body).backgroundColor,
            filters: [...document.querySelectorAll('article img')].map((img) => getComputedStyle(img).filter).filter((f) => f !== 'none'),
            main: [main.left, main.right],
            extent: [Math.min(...boxes.map((r) => r.left)), Math.max(...boxes.map((r) => r.right))],
            width: document.documentElement.clientWidth,
          };
        });
        assert.deepEqual(printed.chrome, [], `${path}: nothing but the essay prints`);
        assert.equal(printed.ink, 'rgb(0, 0, 0)', `${path}: black ink`);
        assert.equal(printed.paper, 'rgb(255, 255, 255)', `${path}: white paper`);
        assert.deepEqual(printed.filters, [], `${path}: images print as they are`);
        assert.ok(printed.main[0]! >= 0 && printed.main[1]! <= printed.width, `${path}: the main's box lies inside the page: ${printed.main} in ${printed.width}`);
        assert.ok(printed.extent[0]! >= 0 && printed.extent[1]! <= printed.width, `${path}: no box reaches past the page: ${printed.extent} in ${printed.width}`);
        const pages = pdfPages(await page.pdf({ format: 'A4' }));
        assert.ok(pages >= 1 && pages <= most, `${path}: ${pages} A4 pages (at most ${most}; 4 to 5 before the print stylesheet)`);
        await page.emulateMedia({ media: 'screen' });
        assert.equal(await page.evaluate(() => document.documentElement.scrollWidth), VIEWPORTS.desktop.width, `${path}: no sideways scroll on screen`);
      }
    });
  });

  test('Korean breaks lines between words, never between two syllables of one, on desktop and mobile', async () => {
    const c = await corpus('content');
    for (const [device, viewport] of Object.entries(VIEWPORTS)) {
      await withPage({ viewport }, async (page) => {
        let breaks = 0;
        const inside: string[] = [];
        for (const post of c.availableIn('ko')) {
          await page.goto(`${server.url}/ko/${post.slug}`);
          for (const p of await characterBoxes(page, 'article .body p')) {
            const found = lineBreaks(p.chars, p.lineHeight);
            breaks += found.length;
            // Inside a word: two syllables next to each other in the text, nothing between them.
            inside.push(...found.filter(([a, b]) => b.at === a.at + 1 && HANGUL.test(a.ch) && HANGUL.test(b.ch)).map(([a, b]) => `${post.slug}: ${a.ch}|${b.ch}`));
          }
        }
        assert.ok(breaks > 20, `${device}: enough line breaks to judge (${breaks})`);
        assert.deepEqual(inside, [], `${device}: ${inside.length} of ${breaks} line breaks inside a word`);
      });
    }
  });

  test('Japanese body lines fill the column: their mean end is within 1 em of it (the last line of each paragraph aside)', async () => {
    const c = await corpus('content');
    // As shown (justified), and as broken (unjustified: phrase wrapping left 2.1 to 2.8 em; what a justified line would stretch).
    for (const [device, viewport, unjustified, most] of [['desktop', VIEWPORTS.desktop, false, 1], ['mobile', VIEWPORTS.mobile, false, 1], ['desktop', VIEWPORTS.desktop, true, 1.25], ['mobile', VIEWPORTS.mobile, true, 1.25]] as const) {
      await withPage({ viewport }, async (page) => {
        const shortfalls: number[] = [];
        for (const post of c.availableIn('ja')) {
          await page.goto(`${server.url}/ja/${post.slug}`);
          if (unjustified) await page.addStyleTag({ content: 'article .body p { text-align: start !important; }' });
          for (const p of await characterBoxes(page, 'article .body p')) {
            const lines = new Map<number, number>();
            for (const ch of p.chars) {
              const line = [...lines.keys()].find((top) => Math.abs(top - ch.top) < p.lineHeight / 2) ?? ch.top;
              lines.set(line, Math.max(lines.get(line) ?? 0, ch.right));
            }
            const ends = [...lines.values()].slice(0, -1);
            shortfalls.push(...ends.map((end) => (p.contentRight - end) / p.fontSize));
          }
        }
        assert.ok(shortfalls.length > 20, `${device}: enough lines to judge (${shortfalls.length})`);
        const mean = shortfalls.reduce((a, b) => a + b, 0) / shortfalls.length;
        assert.ok(mean <= most, `${device}${unjustified ? ', unjustified' : ''}: Japanese lines end ${mean.toFixed(2)} em short of the column on average (at most ${most})`);
      });
    }
    // Headings still wrap by phrase where Chromium can.
    await withPage({}, async (page) => {
      await page.goto(`${server.url}/ja/${c.availableIn('ja')[0]!.slug}`);
      if (await page.evaluate(() => CSS.supports('word-break', 'auto-phrase'))) assert.equal(await page.locator('article h1').evaluate((h) => getComputedStyle(h).wordBreak), 'auto-phrase');
    });
  });

  test('the header keeps its places: the Search link at one x on every kind of page, the language button on one line', async () => {
    const c = await corpus('content');
    const kinds = (lang: string) => {
      const prefix = lang === 'en' ? '' : `/${lang}`;
      return [`${prefix}/`, `${prefix}/${c.availableIn(lang)[0]!.slug}`, `${prefix}/category/technology`, `${prefix}/search`, `${prefix}/search?q=the`];
    };
    for (const [device, viewport] of Object.entries(VIEWPORTS)) {
      await withPage({ viewport }, async (page) => {
        for (const lang of ['en', 'ar', 'ja']) {
          const places = new Map<string, string>();
          for (const path of [...kinds(lang), ...(lang === 'en' ? ['/about'] : [])]) {
            await page.goto(server.url + path);
            const search = await page.locator('header.site nav.search a').boundingBox();
            places.set(path, `${Math.round(search!.x)}`);
            const summary = await page.locator('details.languages summary').evaluate((el) => {
              const range = document.createRange();
              range.selectNodeContents(el);
              return { lines: new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top))).size, right: el.getBoundingClientRect().right };
            });
            assert.equal(summary.lines, 1, `${device} ${path}: the language button's text is on one line`);
            assert.ok(summary.right <= viewport.width, `${device} ${path}: the language button fits the screen`);
          }
          assert.equal(new Set(places.values()).size, 1, `${device} ${lang}: the Search link's x on every page: ${JSON.stringify(Object.fromEntries(places))}`);
        }
      });
    }
  });

  test('print: a link\'s printed address is set as on a Latin page, left to right, spaced from the link\'s words on their side', async () => {
    const href = 'https://en.wikipedia.org/wiki/Machine_translation';
    // Wide enough that the address is on one line: the link's box is its words and then the address (its ::after).
    await withPage({ viewport: { width: 3000, height: 900 } }, async (page) => {
      const printed: Record<string, { width: number; content: string; direction: string; bidi: string; spacing: string[]; gapLeft: number; gapRight: number; rtl: boolean }> = {};
      for (const path of ['/a-field-guide-to-translation', '/ar/a-field-guide-to-translation']) {
        await page.goto(server.url + path);
        await page.emulateMedia({ media: 'print' });
        printed[path] = await page.locator(`article .body a[href="${href}"]`).first().evaluate((a) => {
          const words = document.createRange();
          words.selectNodeContents(a);
          const box = [...a.getClientRects()];
          const text = [...words.getClientRects()];
          if (box.length !== 1 || text.length !== 1) throw new Error(`the link is on more than one line: ${box.length}, ${text.length}`);
          const after = getComputedStyle(a, '::after');
          return {
            width: box[0]!.width - text[0]!.width,
            content: after.content,
            direction: after.direction,
            bidi: after.unicodeBidi,
            spacing: [after.letterSpacing, after.wordSpacing],
            gapLeft: parseFloat(after.marginLeft),
            gapRight: parseFloat(after.marginRight),
            rtl: getComputedStyle(a).direction === 'rtl',
          };
        });
      }
      const [en, ar] = [printed['/a-field-guide-to-translation']!, printed['/ar/a-field-guide-to-translation']!];
      assert.equal(ar.rtl, true);
      for (const [path, p] of Object.entries(printed)) {
        assert.match(p.content, /^"<https:\/\/en\.wikipedia\.org\/wiki\/Machine_translation>"$/, `${path}: the address alone, no space inside its isolate (it went to the far side in right-to-left text)`);
        assert.equal(`${p.direction} ${p.bidi}`, 'ltr isolate', `${path}: the address reads left to right, isolated`);
        assert.deepEqual(p.spacing, ['normal', '0px'], `${path}: no added spacing`);
        // The space between the link's words and its address: a margin on the words' side.
        assert.ok(p.rtl ? p.gapRight > 0 && p.gapLeft === 0 : p.gapLeft > 0 && p.gapRight === 0, `${path}: the gap on the side of the words: ${p.gapLeft} ${p.gapRight}`);
      }
      // The same address, the same width: the Latin face at the Latin size (the Arabic face's spaces, colons,
      // full stops and digits are wider, and the Arabic body is set larger).
      // The related essays' addresses likewise.
      await page.goto(`${server.url}/ar/the-slow-web`);
      await page.emulateMedia({ media: 'print' });
      const related = await page.locator('section.related a[data-url]').first().evaluate((a) => {
        const after = getComputedStyle(a, '::after');
        return { content: after.content, set: `${after.direction} ${after.unicodeBidi} ${after.marginLeft} ${after.fontFamily.split(',')[0]}`, right: parseFloat(after.marginRight) };
      });
      assert.match(related.content, /^"<http[^ ]+>"$/);
      assert.equal(related.set, 'ltr isolate 0px Charter', 'a related essay\'s address: left to right, in the Latin face');
      assert.ok(related.right > 0, 'spaced from the title on its side');
      assert.ok(Math.abs(ar.width - en.width) / en.width < 0.02, `the address is ${ar.width.toFixed(1)} px wide on the Arabic page, ${en.width.toFixed(1)} px on the English one`);
    });
  });

  test('no visible "·" begins or ends a line of a byline, and no item breaks, at any width, in any direction', async () => {
    const c = await corpus('content');
    const paths = ['en', 'ar', 'ja', 'zh'].flatMap((lang) => {
      const prefix = lang === 'en' ? '' : `/${lang}`;
      return [...c.availableIn(lang).slice(0, 2).map((p) => `${prefix}/${p.slug}`), `${prefix}/`];
    });
    paths.push('/search?q=the', `/ar/search?q=${encodeURIComponent('الويب')}`);
    let lines = 0;
    await withPage({ viewport: { width: 1280, height: 800 } }, async (page) => {
      for (const path of paths) {
        await page.goto(server.url + path);
        for (const width of [320, 360, 390, 430, 540, 768, 1024, 1280]) {
          await page.setViewportSize({ width, height: 800 });
          const bylines = await bylineLines(page, 'main .meta:not([id])');
          assert.ok(bylines.length > 0, `${path}: a byline`);
          for (const b of bylines) {
            lines += b.lines.length;
            for (const line of b.lines) {
              assert.ok(!line.startsWith('·') && !line.endsWith('·'), `${width}px ${path}: a line of the byline begins or ends with "·": ${JSON.stringify(b.lines)}`);
            }
            assert.deepEqual(b.broken, [], `${width}px ${path}: an item of the byline is split across lines`);
          }
        }
      }
    });
    assert.ok(lines > 0);
  });

  test('titles and descriptions carry no invisible bidi isolates (FSI/PDI): the page isolates with <bdi>', async () => {
    for (const path of ['/category/technology', '/ar/category/technology', '/ja/category/technology', '/tag/tides', '/ko/tag/tides', '/ar/']) {
      const res = await fetch(server.url + path);
      const html = await res.text();
      const plain = [...html.matchAll(/<title>([^<]*)<\/title>|<meta (?:name|property)="(?:description|og:title|og:description)" content="([^"]*)"/g)].map((m) => m[1] ?? m[2]!);
      assert.ok(plain.length >= 3, `${path}: title, description, og:title`);
      for (const text of plain) assert.doesNotMatch(text, /[\u2066-\u2069]/, `${path}: ${JSON.stringify(text)}`);
    }
    const ar = await (await fetch(`${server.url}/ar/category/technology`)).text();
    assert.match(ar, /<h1>[^<]*<bdi>[^<]+<\/bdi>[^<]*<\/h1>/, 'the term name is isolated in the heading');
  });

  test('Arabic text is set in one Arabic family, spaces and digits included, and its underlines clear the dots', async () => {
    const c = await corpus('content');
    await withPage({}, async (page) => {
      await page.goto(`${server.url}/ar/${c.availableIn('ar')[0]!.slug}`);
      const styles = await page.evaluate(() => {
        const of = (s: string) => getComputedStyle(document.querySelector(s)!);
        const first = (family: string) => family.split(',')[0]!.trim().replace(/['"]/g, '');
        const link = of('article .body a');
        return { body: first(of('article .body p').fontFamily), meta: first(of('article .meta').fontFamily), offset: link.textUnderlineOffset };
      });
      assert.equal(styles.body, 'Noto Naskh Arabic', 'the Arabic face comes before the Latin one');
      assert.equal(styles.meta, styles.body, 'the byline in the body\'s family');
      assert.notEqual(styles.offset, 'auto', 'underlines are set below the dots');
      // Where the face is installed, every glyph of an Arabic paragraph (spaces, digits, punctuation) comes from it.
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('DOM.enable');
      await cdp.send('CSS.enable');
      const { root } = await cdp.send('DOM.getDocument');
      const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector: 'article .body p' });
      const { fonts } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId });
      if (fonts.some((f) => f.familyName === 'Noto Naskh Arabic')) assert.deepEqual(fonts.map((f) => f.familyName), ['Noto Naskh Arabic']);
      else console.log('# Noto Naskh Arabic is not installed (apt-get install fonts-noto-core): the used font is not checked');
    });
  });

  test('the language menu closes on Escape (focus back on its button) and on a click outside; its entries align', async () => {
    await withPage({ viewport: VIEWPORTS.desktop }, async (page) => {
      for (const path of ['/search', '/ar/search']) {
        await page.goto(server.url + path);
        const menu = page.locator('details.languages');
        const summary = menu.locator('summary');
        await summary.click();
        assert.equal(await menu.evaluate((d: HTMLDetailsElement) => d.open), true);
        const edges = await menu.locator('li a').evaluateAll((links) =>
          links.map((a) => {
            const range = document.createRange();
            range.selectNodeContents(a);
            const r = range.getBoundingClientRect();
            return document.dir === 'rtl' ? Math.round(r.right) : Math.round(r.left);
          }),
        );
        assert.equal(new Set(edges).size, 1, `${path}: every entry starts at the menu's start: ${edges}`);
        await page.keyboard.press('Escape');
        assert.equal(await menu.evaluate((d: HTMLDetailsElement) => d.open), false, `${path}: Escape closes it`);
        assert.equal(await summary.evaluate((s) => s === document.activeElement), true, `${path}: focus is back on its button`);
        await summary.click();
        await page.locator('h1').click();
        assert.equal(await menu.evaluate((d: HTMLDetailsElement) => d.open), false, `${path}: a click outside closes it`);
        await summary.click();
        await menu.locator('ul').click({ position: { x: 2, y: 2 } });
        assert.equal(await menu.evaluate((d: HTMLDetailsElement) => d.open), true, `${path}: a click inside keeps it open`);
      }
    });
  });

  test('focus rings stand out (3:1 at least) on buttons, fields and links, light and dark; the clear button wears the accent', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      await withPage({ colorScheme }, async (page) => {
        await page.goto(`${server.url}/search`);
        await page.locator('#q').fill('tide');
        for (const selector of ['#q', 'form.search button', 'header.site nav.search a', 'button.theme']) {
          await page.locator(selector).focus();
          const ring = await page.locator(selector).evaluate((el) => {
            const s = getComputedStyle(el);
            let bg = 'rgba(0, 0, 0, 0)';
            for (let at: Element | null = el.parentElement; at && /rgba\(.*, 0\)$/.test(bg); at = at.parentElement) bg = getComputedStyle(at).backgroundColor;
            return { visible: el.matches(':focus-visible'), style: s.outlineStyle, width: parseFloat(s.outlineWidth), color: s.outlineColor, around: bg };
          });
          assert.ok(ring.visible && ring.style === 'solid' && ring.width >= 2, `${colorScheme} ${selector}: a ring of 2 px at least: ${JSON.stringify(ring)}`);
          const ratio = contrast(ring.color, ring.around);
          assert.ok(ratio >= 3, `${colorScheme} ${selector}: ring ${ring.color} on ${ring.around} is ${ratio.toFixed(2)}:1`);
        }
        // The clear button lives in the field's user-agent shadow tree: read its style over the DevTools protocol.
        const cdp = await page.context().newCDPSession(page);
        await cdp.send('DOM.enable');
        await cdp.send('CSS.enable');
        type Node = { nodeId: number; attributes?: string[]; children?: Node[]; shadowRoots?: Node[] };
        const find = (n: Node): Node | undefined => (n.attributes?.includes('-webkit-search-cancel-button') ? n : [...(n.children ?? []), ...(n.shadowRoots ?? [])].map(find).find(Boolean));
        const clear = find((await cdp.send('DOM.getDocument', { depth: -1, pierce: true })).root as Node)!;
        const { computedStyle } = await cdp.send('CSS.getComputedStyleForNode', { nodeId: clear.nodeId });
        const accent = await page.locator('form.search button').evaluate((b) => getComputedStyle(b).backgroundColor);
        assert.equal(computedStyle.find((p) => p.name === 'background-color')?.value, accent, `${colorScheme}: the clear button is the accent`);
      });
    }
  });

  test('the theme follows the system, a chosen one is kept across reloads, and without JavaScript there is no switch', async () => {
    const LIGHT = 'rgb(251, 250, 247)';
    const DARK = 'rgb(21, 20, 18)';
    const background = (page: Page) => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    for (const [system, other] of [['light', 'dark'], ['dark', 'light']] as const) {
      await withPage({ colorScheme: system }, async (page) => {
        await page.goto(`${server.url}/tidal-energy`);
        const toggle = page.locator('button.theme');
        assert.equal(await background(page), system === 'light' ? LIGHT : DARK, `${system} system: the page follows it`);
        assert.equal(await toggle.getAttribute('aria-pressed'), String(system === 'dark'));
        assert.equal(await toggle.evaluate((b) => b.textContent!.trim()), 'Dark theme', 'the switch is named');
        await toggle.click();
        assert.equal(await background(page), other === 'light' ? LIGHT : DARK, `${system} system, ${other} chosen`);
        assert.equal(await page.evaluate(() => getComputedStyle(document.documentElement).colorScheme), other);
        assert.equal(await toggle.getAttribute('aria-pressed'), String(other === 'dark'));
        await page.reload();
        assert.equal(await background(page), other === 'light' ? LIGHT : DARK, `${system} system: the ${other} choice is kept after a reload`);
        await page.goto(`${server.url}/ja/`);
        assert.equal(await background(page), other === 'light' ? LIGHT : DARK, 'and on other pages');
        await page.locator('button.theme').click();
        assert.equal(await background(page), system === 'light' ? LIGHT : DARK, 'switching back follows the system again');
        assert.equal(await page.evaluate(() => localStorage.getItem('folio-theme')), null);
      });
      await withPage({ colorScheme: system, javaScriptEnabled: false }, async (page) => {
        await page.goto(`${server.url}/tidal-energy`);
        assert.equal(await background(page), system === 'light' ? LIGHT : DARK, `no JavaScript, ${system} system: the page follows it`);
        assert.equal(await page.locator('button.theme').isVisible(), false, 'no switch that cannot work');
      });
    }
  });
});
