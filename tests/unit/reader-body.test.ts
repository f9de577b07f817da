import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { render } from '../../src/pipeline/derive/render.ts';
import { readerHtml } from '../../src/site/reader-html.ts';

/**
 * A post page's body is made by the render step from the tree its HTML was written from
 * (Rendered.reader), not by parsing that HTML again on each page: it must be the same bytes as the
 * page made from the HTML (a page whose entry was not rendered in its build still makes it so).
 */
const ctx = (lang: string, assets: string[]) => ({ mediaPath: '/media/p/', mediaRoot: '/media', images: {}, siteUrl: 'https://s.example', assets, lang });
const same = (format: 'md' | 'html', body: string, lang: string, assets: string[] = []) => {
  const r = render(format, body, ctx(lang, assets));
  // A body with code has none: its page colours the code (render.ts says why).
  if (r.html.includes('<pre')) assert.equal(r.reader, undefined);
  else assert.equal(r.reader, readerHtml(r.html, lang, 1, 'https://s.example'));
};

test('every demo essay body in every language: the page body from the tree equals the one from the HTML', () => {
  let bodies = 0;
  for (const root of ['content/posts', 'sandbox/posts']) {
    for (const slug of readdirSync(root)) {
      const dir = join(root, slug);
      const names = readdirSync(dir);
      const assets = names.filter((n) => !/\.(md|html|yaml)$/.test(n));
      for (const name of names.filter((n) => /\.(md|html)$/.test(n))) {
        const body = readFileSync(join(dir, name), 'utf8').replace(/^---\n[\s\S]*?\n---\n/, '');
        same(name.endsWith('.html') ? 'html' : 'md', body, name.replace(/\.(md|html)$/, ''), assets);
        bodies++;
      }
    }
  }
  assert.ok(bodies > 70, `${bodies} bodies`);
});

test('quotes, units and notes across inline elements, raw HTML, tables, video and blank ends; none with code', () => {
  const md = [
    'He said "yes" and 5 % of *it* was "quoted *inside* text".',
    '## A "heading" 2',
    '#### Skipped level',
    'Text[^1] with \\* escapes &amp; entities &copy; and 750 m.',
    '| a | "b" |\n|---|---|\n| 1 | 2 MW |',
    '> quote "here"',
    '- list "item"\n  - nested 5 kg',
    '<div class="x">raw "html" <b>bold</b></div>',
    '<video src="clip.mp4"></video>',
    'www.example.com and https://x.org "done"',
    '[^1]: A note "with quotes".',
  ].join('\n\n');
  for (const lang of ['en', 'fr', 'de', 'ja']) same('md', `\n\n${md}\n   \n`, lang, ['clip.mp4']);
  same('html', '  <p>Leading "space" 5 %</p>\n<h3>Head</h3>\n\n text after  \n', 'fr');
  same('html', '\n\n<h1>T</h1>trailing "x" 3 km\n\n', 'en');
  same('md', `${md}\n\n\`\`\`js\nconst x = "y";\n\`\`\`\n`, 'en');
});
