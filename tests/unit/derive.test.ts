import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readingTime } from '../../src/build/derive/reading-time.ts';
import { sourceHash } from '../../src/build/derive/source-hash.ts';
import { slugify } from '../../src/build/slugify.ts';
import { render } from '../../src/build/derive/render.ts';

test('reading time: words/230, characters/500 for zh ja ko, at least 1', () => {
  assert.equal(readingTime('word '.repeat(460), 'en'), 2);
  assert.equal(readingTime('word', 'fr'), 1);
  assert.equal(readingTime('字'.repeat(1500), 'zh'), 3);
  assert.equal(readingTime('字'.repeat(1500), 'vi'), 1, 'one long "word" in a spaced script');
});

test('source hash ignores line endings and outer white space, not content', () => {
  assert.equal(sourceHash('T', 'a\r\nb\n'), sourceHash(' T ', 'a\nb'));
  assert.notEqual(sourceHash('T', 'a b'), sourceHash('T', 'a  b'));
  assert.match(sourceHash('T', 'x'), /^sha256:[0-9a-f]{64}$/);
});

test('slugify', () => {
  assert.equal(slugify('Technology'), 'technology');
  assert.equal(slugify('Ünïcode & Co.'), 'unicode-co');
  assert.equal(slugify('  open   source '), 'open-source');
});

test('render: links deduplicated in order, media absolute, sections, local files rewritten', () => {
  const md = [
    'Intro [a](https://a.example/x_(y)) and [b](https://b.example).',
    '## Two',
    '![alt](pic.png)',
    '### Three [a again](https://a.example/x_(y))',
    '<video controls src="clip.mp4"></video>',
    '#### Four',
    '<iframe src="https://player.example/embed/1"></iframe>',
    '##### Five is not in the outline',
  ].join('\n\n');
  const r = render('md', md, { mediaPath: '/media/p/', siteUrl: 'https://s.example', assets: ['pic.png', 'clip.mp4'] });
  assert.deepEqual(r.links, ['https://a.example/x_(y)', 'https://b.example', 'https://player.example/embed/1']);
  assert.deepEqual(r.media, [
    { type: 'image', src: 'https://s.example/media/p/pic.png' },
    { type: 'video', src: 'https://s.example/media/p/clip.mp4' },
    { type: 'video', src: 'https://player.example/embed/1' },
  ]);
  assert.deepEqual(r.sections, [{ level: 2, text: 'Two' }, { level: 3, text: 'Three a again' }, { level: 4, text: 'Four' }]);
  assert.ok(r.html.includes('src="/media/p/pic.png"') && r.html.includes('id="two"'));
  assert.ok(r.markdown.includes('](/media/p/pic.png)') && r.markdown.includes('src="/media/p/clip.mp4"'));
  assert.deepEqual(r.localImages, [{ name: 'pic.png', alt: 'alt' }]);
});

test('render: an HTML post is converted to Markdown', () => {
  const r = render('html', '<h2>Hi</h2><p>Some <a href="https://x.example">link</a>.</p>', { mediaPath: '/media/p/', siteUrl: 'https://s', assets: [] });
  assert.match(r.markdown, /^## Hi\n\nSome \[link\]\(https:\/\/x\.example\)\.$/);
  assert.deepEqual(r.sections, [{ level: 2, text: 'Hi' }]);
});
