import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { useServer } from '../helpers/server.ts';
import { chromiumSkip, useChromium } from '../helpers/chromium.ts';
import { corpus } from '../helpers/corpus.ts';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

interface Violation { id: string; impact: string; help: string; nodes: { target: string[] }[] }

/** The pages the issue audits, in English, Arabic and Japanese: a post with images in each where there is one. */
async function auditedPages(): Promise<Record<string, string>> {
  const c = await corpus('content');
  const withImages = (lang: string) => {
    const available = c.availableIn(lang);
    return (available.find((p) => p.english.featured_image) ?? available[0]!).slug;
  };
  const unavailable = (lang: string) => c.posts.find((p) => c.stateOf(p.slug, lang) !== 'available')!.slug;
  return {
    'en home': '/',
    'ar home': '/ar/',
    'ja home': '/ja/',
    'en post': `/${withImages('en')}`,
    'ar post': `/ar/${withImages('ar')}`,
    'ja post': `/ja/${withImages('ja')}`,
    'en page': '/about',
    'ja page': '/ja/about',
    'en search': '/search?q=tide',
    'ar search': '/ar/search?q=%D8%A7%D9%84%D9%88%D9%8A%D8%A8',
    'ja search': '/ja/search?q=%E6%99%82%E9%96%93',
    // English is never unavailable: its counterpart is the not-found page the others derive from.
    'en not found': '/no-such-page',
    'ar unavailable translation': `/ar/${unavailable('ar')}`,
    'ja unavailable translation': `/ja/${unavailable('ja')}`,
  };
}

describe('axe-core in Chromium: no violations, light and dark', { skip: chromiumSkip }, () => {
  const server = useServer();
  const chrome = useChromium();

  for (const colorScheme of ['light', 'dark'] as const) {
    test(`${colorScheme}: home, post, search and unavailable-translation pages in en, ar, ja`, async () => {
      const found: string[] = [];
      const context = await chrome.browser.newContext({ colorScheme });
      for (const [name, path] of Object.entries(await auditedPages())) {
        const page = await context.newPage();
        await page.goto(server.url + path, { waitUntil: 'networkidle' });
        await page.addScriptTag({ path: AXE });
        const violations = (await page.evaluate(() => (globalThis as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: unknown[] }> } }).axe.run(document, { resultTypes: ['violations'] }))).violations as Violation[];
        for (const v of violations) found.push(`${name} (${path}): ${v.id} [${v.impact}] ${v.help}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
        await page.close();
      }
      await context.close();
      assert.deepEqual(found, [], `axe violations (${colorScheme}):\n${found.join('\n')}`);
    });
  }
});
