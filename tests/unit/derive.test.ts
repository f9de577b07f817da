import { test } from 'node:test';
import assert from 'node:assert/strict';
import { countUnits, pageReadingTime, READING_RATES, readingTime } from '../../src/core/reading-time.ts';
import { LANGUAGE_CODES } from '../../src/core/languages.ts';
import { sourceHash } from '../../src/pipeline/derive/source-hash.ts';
import { slugify } from '../../src/pipeline/load/slugify.ts';
import { render } from '../../src/pipeline/derive/render.ts';
import { variantWidths } from '../../src/core/responsive-images.ts';

test('the API\'s reading_time: words/230, characters/500 for zh, ja and ko, whole minutes, at least 1 (DECISIONS.md)', () => {
  assert.equal(readingTime('word '.repeat(460), 'en'), 2);
  assert.equal(readingTime('mot '.repeat(765), 'fr'), 3, 'French words at 230 too');
  assert.equal(readingTime('字'.repeat(1260), 'zh'), 3, '2.52 rounds to 3');
  assert.equal(readingTime('글'.repeat(1000), 'ko'), 2, 'Korean by characters');
  assert.equal(readingTime('tiếng '.repeat(1320), 'vi'), 6, 'Vietnamese by what spaces separate');
  assert.equal(readingTime('', 'en'), 1, 'at least one minute');
});

test('the site\'s reading time: units over the language\'s rate, whole minutes, at least 1', () => {
  assert.equal(pageReadingTime('word '.repeat(460), 'en'), 2);
  assert.equal(pageReadingTime('word', 'fr'), 1, 'at least one minute');
  assert.equal(pageReadingTime('mot '.repeat(765), 'fr'), 3, 'French at 255 words a minute');
  assert.equal(pageReadingTime('كلمة '.repeat(760), 'ar'), 4, 'Arabic at 190 words a minute');
  assert.equal(pageReadingTime('字'.repeat(1260), 'zh'), 3, 'Chinese at 420 characters a minute');
  assert.equal(pageReadingTime('字'.repeat(1770), 'ja'), 3, 'Japanese at 590 characters a minute');
  assert.equal(pageReadingTime('tiếng '.repeat(1320), 'vi'), 4, 'Vietnamese syllables at 330 a minute');
  assert.equal(pageReadingTime('word '.repeat(460), 'xx'), 2, 'an unlisted language reads at the English rate');
});

test('reading units: letters and digits for characters (not spaces or punctuation), space-separated otherwise', () => {
  assert.equal(countUnits('读书，3 次。', 'character'), 4);
  assert.equal(countUnits(' Tôi  đọc sách. ', 'syllable'), 3);
  assert.equal(countUnits('한국어 문장입니다', 'word'), 2);
  assert.equal(countUnits('', 'word'), 0);
});

test('reading rates: every language has one, counted in a unit that suits its script', () => {
  for (const code of LANGUAGE_CODES) assert.ok(READING_RATES[code], code);
  assert.deepEqual(LANGUAGE_CODES.filter((c) => READING_RATES[c]!.unit === 'character').sort(), ['ja', 'zh'], 'written without spaces');
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
  const r = render('md', md, { mediaPath: '/media/p/', mediaRoot: '/media', images: {}, siteUrl: 'https://s.example', assets: ['pic.png', 'clip.mp4'], lang: 'en' });
  assert.deepEqual(r.links, ['https://a.example/x_(y)', 'https://b.example', 'https://player.example/embed/1']);
  assert.deepEqual(r.media, [
    { type: 'image', src: 'https://s.example/media/p/pic.png' },
    { type: 'video', src: 'https://s.example/media/p/clip.mp4' },
    { type: 'video', src: 'https://player.example/embed/1' },
  ]);
  assert.deepEqual(r.sections, [{ level: 2, text: 'Two', id: 'two' }, { level: 3, text: 'Three a again', id: 'three-a-again' }, { level: 4, text: 'Four', id: 'four' }]);
  assert.ok(r.html.includes('src="/media/p/pic.png"') && r.html.includes('id="two"'));
  assert.ok(r.markdown.includes('](/media/p/pic.png)') && r.markdown.includes('src="/media/p/clip.mp4"'));
  assert.deepEqual(r.localImages, [{ name: 'pic.png', alt: 'alt' }]);
});

test('render: an HTML post is converted to Markdown', () => {
  const r = render('html', '<h2>Hi</h2><p>Some <a href="https://x.example">link</a>.</p>', { mediaPath: '/media/p/', mediaRoot: '/media', images: {}, siteUrl: 'https://s', assets: [], lang: 'en' });
  assert.match(r.markdown, /^## Hi\n\nSome \[link\]\(https:\/\/x\.example\)\.$/);
  assert.deepEqual(r.sections, [{ level: 2, text: 'Hi', id: 'hi' }]);
});

test('render: post images get their measured size, AVIF/WebP sources, and a titled image alone is a captioned figure', () => {
  const digest = 'ab'.repeat(32);
  const images = { 'pic.jpg': { width: 960, height: 600, digest }, 'icon.gif': { width: 32, height: 32, digest } };
  const md = ['![A chart](pic.jpg "Tides at Saint-Malo")', 'Inline ![dot](icon.gif "not a caption") in text.', '![Untitled](pic.jpg)'].join('\n\n');
  const r = render('md', md, { mediaPath: '/media/p/', mediaRoot: '/sandbox/media', images, siteUrl: 'https://s', assets: ['pic.jpg', 'icon.gif'], lang: 'en' });
  const figures = [...r.html.matchAll(/<figure>(.*?)<\/figure>/g)].map((m) => m[1]!);
  assert.equal(figures.length, 1, r.html);
  assert.match(figures[0]!, /^<picture><source type="image\/avif" srcset="[^"]+" sizes="[^"]+"><source type="image\/webp"[^>]*><img [^>]*><\/picture><figcaption>Tides at Saint-Malo<\/figcaption>$/);
  const srcset = /srcset="([^"]+)"/.exec(figures[0]!)![1]!;
  assert.deepEqual(srcset.split(', '), [400, 800, 960].map((w) => `/sandbox/media/_v/${digest.slice(0, 20)}-${w}.avif ${w}w`));
  for (const img of r.html.match(/<img [^>]*>/g)!) assert.match(img, /width="(960|32)" height="(600|32)"/, img);
  assert.ok(!figures[0]!.includes('title='), 'the caption is not repeated as a tooltip');
  assert.match(r.html, /<p>Inline <img src="\/media\/p\/icon.gif" alt="dot" title="not a caption"[^>]*> in text.<\/p>/, 'an inline GIF stays inline and as it is');
  assert.equal((r.html.match(/<picture>/g) ?? []).length, 2, 'the untitled image has its sources too');
  assert.ok(r.markdown.includes('](/media/p/pic.jpg "Tides at Saint-Malo")'), 'the Markdown twin keeps the source');
  assert.deepEqual(variantWidths(4000), [400, 800, 1200]);
  assert.deepEqual(variantWidths(300), [300]);
});

test('render: every h2 to h4 has a unique id, kept in its script, that structure.sections names', () => {
  const md = ['<p id="tides">An author\'s id</p>', '## Tides', '## Tides', '## المد والجزر', '### 潮の満ち引き', '#### ज्वार और भाटा', '## ?!'].join('\n\n');
  const r = render('md', md, { mediaPath: '/media/p/', mediaRoot: '/media', images: {}, siteUrl: 'https://s', assets: [], lang: 'ar' });
  const ids = r.sections.map((s) => s.id);
  assert.deepEqual(ids, ['tides-1', 'tides-2', 'المد-والجزر', '潮の満ち引き', 'ज्वार-और-भाटा', 'section']);
  assert.deepEqual(r.ids.sort(), [...ids, 'tides'].sort(), 'no id is given twice');
  for (const id of ids) assert.ok(r.html.includes(`id="${id}"`), id);
});

test('render: a video takes its poster and captions from the files beside it, the page\'s language on by default', () => {
  const ctx = { mediaPath: '/media/p/', mediaRoot: '/media', images: {}, siteUrl: 'https://s', assets: ['clip.mp4', 'clip.jpg', 'clip.vtt', 'clip.fr.vtt'] };
  const fr = render('md', '<video controls src="clip.mp4"></video>', { ...ctx, lang: 'fr' });
  assert.match(fr.html, /<video controls src="\/media\/p\/clip.mp4" poster="\/media\/p\/clip.jpg">/);
  assert.match(fr.html, /<track kind="captions" src="\/media\/p\/clip.vtt" srclang="en" label="English"><track kind="captions" src="\/media\/p\/clip.fr.vtt" srclang="fr" label="Français" default>/);
  assert.deepEqual(fr.refs.filter((x) => x.what === 'captions').map((x) => x.url), ['clip.vtt', 'clip.fr.vtt'], 'the link check sees them');
  const de = render('md', '<video controls src="clip.mp4" poster="clip.jpg"><track kind="captions" src="clip.vtt"></video>', { ...ctx, lang: 'de' });
  assert.equal((de.html.match(/<track/g) ?? []).length, 1, 'the author\'s own tracks are kept as they are');
  const none = render('md', '<video controls src="clip.mp4"></video>', { ...ctx, assets: ['clip.mp4'], lang: 'en' });
  assert.doesNotMatch(none.html, /poster|<track/);
});

test('render: an image from elsewhere alone with a title is a captioned figure too', () => {
  const r = render('md', '![A map](https://img.example/map.png "The old harbour")', { mediaPath: '/media/p/', mediaRoot: '/media', images: {}, siteUrl: 'https://s', assets: [], lang: 'en' });
  assert.equal(r.html, '<figure><img src="https://img.example/map.png" alt="A map" loading="lazy"><figcaption>The old harbour</figcaption></figure>');
});
