import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readerHtml } from '../../src/site/reader-html.ts';
import { render } from '../../src/pipeline/derive/render.ts';

const FENCED = 'Some code:\n\n```ts\nconst answer: number = 42; // why\n```\n\n```brainfuck\n+++.\n```\n';
const ctx = { mediaPath: '/media/p/', mediaRoot: '/media', images: {}, siteUrl: 'https://s.example', assets: [], lang: 'fr' };

test("a fenced block in a known language is coloured on the page, in both themes' colours, left to right", () => {
  const page = readerHtml(render('md', FENCED, ctx).html, 'fr');
  const pre = /<pre class="shiki[^"]*"[^>]*>[\s\S]*?<\/pre>/.exec(page)?.[0];
  assert.ok(pre, page);
  assert.match(pre, /data-language="ts"/);
  assert.match(pre, /dir="ltr"/);
  assert.match(pre, /<span style="--shiki-light:#[0-9A-F]{6};--shiki-dark:#[0-9A-F]{6}">const<\/span>/i, 'a keyword carries both colours');
  assert.ok(pre.includes('// why'), 'the code is unchanged');
  assert.doesNotMatch(pre, /[“”«»]/, 'no typography inside code');
});

test('an unknown language stays a plain block; the API keeps the plain block for every language', () => {
  const { html } = render('md', FENCED, ctx);
  assert.doesNotMatch(html, /shiki/, 'content_html is as written');
  assert.match(readerHtml(html, 'fr'), /<pre><code class="language-brainfuck">\+\+\+\.\n<\/code><\/pre>/);
});
