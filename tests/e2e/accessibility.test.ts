import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import type { BrowserContextOptions, Page } from 'playwright-core';
import { useServer } from '../helpers/server.ts';
import { chromiumSkip, useChromium } from '../helpers/chromium.ts';
import { pageKinds } from '../helpers/page-kinds.ts';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

interface Violation { id: string; impact: string; help: string; nodes: { target: string[] }[] }

/** A phone (390 px, as an iPhone 14) and a desktop window. */
const FORM_FACTORS: Record<'mobile' | 'desktop', BrowserContextOptions> = {
  mobile: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 3 },
  desktop: { viewport: { width: 1280, height: 800 } },
};

/** What overflows sideways: the page itself, and elements of the main wider than it (outside a region that scrolls). */
const overflow = (page: Page) =>
  page.evaluate(() => {
    const main = document.querySelector('main')!;
    const box = main.getBoundingClientRect();
    const scrolled = (e: Element) => {
      for (let a = e.parentElement; a && a !== main; a = a.parentElement) if (/auto|scroll|hidden|clip/.test(getComputedStyle(a).overflowX)) return true;
      return false;
    };
    const wide = [...main.querySelectorAll('*')].filter((e) => {
      const r = e.getBoundingClientRect();
      return r.width > 0 && (r.left < box.left - 0.5 || r.right > box.right + 0.5) && !scrolled(e);
    });
    return {
      page: document.documentElement.scrollWidth > innerWidth ? [`the page scrolls sideways to ${document.documentElement.scrollWidth} px in ${innerWidth}`] : [],
      main: wide.slice(0, 5).map((e) => `${e.tagName.toLowerCase()}${e.className ? `.${e.className}` : ''} (${Math.round(e.getBoundingClientRect().width)} px in ${Math.round(box.width)})`),
    };
  });

// Dark colours are checked on one form factor: contrast does not depend on the width (and each run takes a minute).
const RUNS = [['mobile', 'light'], ['desktop', 'light'], ['desktop', 'dark']] as const;

describe('in Chromium', { skip: chromiumSkip }, () => {
  const server = useServer();
  const chrome = useChromium();

  for (const [formFactor, colorScheme] of RUNS) {
    test(`every kind of page, ${formFactor}, ${colorScheme}: axe finds no violation, nothing overflows sideways`, async () => {
      const found: string[] = [];
      const context = await chrome.browser.newContext({ ...FORM_FACTORS[formFactor], colorScheme });
      for (const { name, path, notFound } of await pageKinds()) {
        const page = await context.newPage();
        const response = await page.goto(server.url + path, { waitUntil: 'load' });
        assert.equal(response!.status(), notFound ? 404 : 200, `${name} (${path})`);
        const { page: scroll, main } = await overflow(page);
        for (const problem of [...scroll, ...main]) found.push(`${name} (${path}): ${problem}`);
        await page.addScriptTag({ path: AXE });
        const violations = (await page.evaluate(() => (globalThis as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: unknown[] }> } }).axe.run(document, { resultTypes: ['violations'] }))).violations as Violation[];
        for (const v of violations) found.push(`${name} (${path}): ${v.id} [${v.impact}] ${v.help}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
        await page.close();
      }
      await context.close();
      assert.deepEqual(found, [], `${formFactor}, ${colorScheme}:\n${found.join('\n')}`);
    });
  }

  for (const [formFactor, options] of Object.entries(FORM_FACTORS)) {
    test(`/api, ${formFactor}: a path wraps only after '/', a command after a space or a URL's '/', '?' or '&'`, async () => {
      const context = await chrome.browser.newContext(options);
      const page = await context.newPage();
      await page.goto(`${server.url}/api`);
      // The character before each line break of an element's text (where a character starts a new line).
      const breaks = (selector: string) =>
        page.evaluate((selector) => {
          const out: string[][] = [];
          for (const element of document.querySelectorAll(selector)) {
            const chars: { ch: string; top: number }[] = [];
            const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
            for (let node = walker.nextNode(); node; node = walker.nextNode()) {
              for (let i = 0; i < node.textContent!.length; i++) {
                const range = document.createRange();
                range.setStart(node, i);
                range.setEnd(node, i + 1);
                const rect = range.getClientRects()[0];
                if (rect) chars.push({ ch: node.textContent![i]!, top: rect.top });
              }
            }
            const text = chars.map((c) => c.ch).join('');
            out.push(chars.flatMap((c, i) => (i > 0 && c.ch !== '\n' && chars[i - 1]!.ch !== '\n' && c.top > chars[i - 1]!.top + 1 ? [`${text.slice(Math.max(0, i - 12), i)}|${text.slice(i, i + 12)}`] : [])));
          }
          return out;
        }, selector);
      const paths = (await breaks('code.path')).flat();
      const commands = (await breaks('pre.examples')).flat();
      if (formFactor === 'mobile') assert.ok(paths.length > 0 && commands.length > 0, 'on a phone some paths and commands do wrap');
      for (const at of paths) assert.match(at, /\/\|/, `a path wraps after a '/': ${at}`);
      for (const at of commands) assert.match(at, /(\s|[/?&])\|/, `a command wraps after a space or a URL's '/', '?', '&': ${at}`);
      await context.close();
    });
  }
});
