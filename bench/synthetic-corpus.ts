import { mkdir, rm, writeFile, copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import { LANGUAGE_CODES } from '../src/core/languages.ts';
import { sourceHash } from '../src/pipeline/derive/source-hash.ts';

/** A deterministic synthetic corpus: N essays, each in all 14 languages, in Folio's layout and Hugo's. */
const ALPHABETS: Record<string, string> = {
  zh: '的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年', ja: 'あいうえおかきくけこさしすせそたちつてとなにぬねのアイウエオ日本語',
  ko: '가나다라마바사아자차카타파하고노도로모보소오조', ar: 'ابتثجحخدذرزسشصضطظعغفقكلمنهوي',
  hi: 'कखगघचछजझटठडढणतथदधनपफबभमयरलवशसह', ru: 'абвгдежзийклмнопрстуфхцчшщыэюя',
};
const LATIN = 'abcdefghijklmnopqrstuvwxyzéüöçñ';

function rng(seed: number) {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

function randomWord(r: () => number, lang: string): string {
  const alphabet = ALPHABETS[lang] ?? LATIN;
  const cjk = lang === 'zh' || lang === 'ja';
  const n = cjk ? 2 + Math.floor(r() * 2) : 3 + Math.floor(r() * 7);
  let w = '';
  for (let i = 0; i < n; i++) w += alphabet[Math.floor(r() * alphabet.length)];
  return w;
}

/** Natural text reuses a modest vocabulary with a Zipf-like skew; uniform random strings would not. */
const VOCABULARY_SIZE = 12_000;
const vocabularies = new Map<string, string[]>();
function vocabulary(lang: string): string[] {
  let v = vocabularies.get(lang);
  if (!v) {
    const r = rng(LANGUAGE_CODES.indexOf(lang) + 7);
    v = Array.from({ length: VOCABULARY_SIZE }, () => randomWord(r, lang));
    vocabularies.set(lang, v);
  }
  return v;
}

function word(r: () => number, lang: string): string {
  const v = vocabulary(lang);
  return v[Math.floor(Math.pow(r(), 3) * v.length)]!;
}

function paragraph(r: () => number, lang: string, words: number): string {
  const sep = lang === 'zh' || lang === 'ja' ? '' : ' ';
  return Array.from({ length: words }, () => word(r, lang)).join(sep) + (sep ? '.' : '。');
}

export function essay(index: number, lang: string): { title: string; body: string } {
  const r = rng(index * 97 + LANGUAGE_CODES.indexOf(lang) + 1);
  const parts: string[] = [paragraph(r, lang, 80)];
  for (let s = 0; s < 4; s++) {
    parts.push(`## ${paragraph(r, lang, 3)}`, paragraph(r, lang, 90), `See [source ${s}](https://example.org/ref/${index}/${s}).`);
    if (s === 1) parts.push(`### ${paragraph(r, lang, 3)}`, paragraph(r, lang, 60));
    if (s === 2) parts.push(`#### ${paragraph(r, lang, 3)}`, paragraph(r, lang, 60), '![figure](figure.png)');
  }
  // Links within the site as authors write them (the build checks them): the previous essay, the category.
  const prefix = lang === 'en' ? '' : `/${lang}`;
  parts.push(`Compare [the previous essay](${prefix}/${slugOf(Math.max(0, index - 1))}) and [more of the kind](${prefix}/category/c${index % 7}).`);
  return { title: `${paragraph(r, lang, 4).replace(/[.。]$/, '')} ${index}`, body: parts.join('\n\n') };
}

/**
 * An English essay shaped like the demo's, for the translation benchmark: headings, paragraphs
 * with links, emphasis and inline code, a nested list, a table, a quote, a code block, an image.
 */
export function richEssay(index: number): { title: string; summary: string; body: string } {
  const r = rng(index * 131 + 5);
  const sentence = (words: number) => {
    const p = paragraph(r, 'en', words);
    return p[0]!.toUpperCase() + p.slice(1);
  };
  const prose = (sentences: number) => Array.from({ length: sentences }, (_, i) => {
    const s = sentence(8 + Math.floor(r() * 12));
    if (i === 1) return s.replace(/^(\S+) (\S+)/, `[$1 $2](https://example.org/${index}/${i} "Source ${i}")`);
    if (i === 2) return s.replace(/ (\S+) /, ' *$1* ');
    if (i === 3) return s.replace(/ (\S+) (\S+) /, ' **$1 $2** ');
    if (i === 4) return s.replace(/ (\S+) /, ' `$1()` ');
    return s;
  }).join(' ');
  const parts: string[] = [prose(5)];
  for (let s = 0; s < 4; s++) {
    parts.push(`## ${sentence(4).replace(/\.$/, '')}`, prose(4 + Math.floor(r() * 3)), prose(3));
    if (s === 0) parts.push(`- ${sentence(6)}\n- ${sentence(8)}\n  - ${sentence(5)}\n- ${prose(2)}`);
    if (s === 1) parts.push(`| ${sentence(2)} | ${sentence(2)} |\n| --- | --- |\n| ${sentence(3)} | \`${index}\` |\n| ${sentence(4)} | ${sentence(3)} |`);
    if (s === 2) parts.push(`> ${prose(2)}`, '```ts\nconst answer = await fetch(`/api/posts/${slug}`);\n```', `![${sentence(5).replace(/\.$/, '')}](figure.png "${sentence(3).replace(/\.$/, '')}")`);
    if (s === 3) parts.push(`### ${sentence(3).replace(/\.$/, '')}`, prose(4));
  }
  return { title: `${sentence(5).replace(/\.$/, '')} ${index}`, summary: sentence(20), body: `${parts.join('\n\n')}\n` };
}

export const slugOf = (i: number) => `essay-${String(i).padStart(5, '0')}`;

/** Essay i's date: an hour after essay i - 1's from 2000-01-01, so that 100,000 essays end in 2011, all published (a day apart, those past 2,524 were scheduled into the future and not built). */
const essayDate = (i: number) => new Date(Date.UTC(2000, 0, 1) + i * 3_600_000).toISOString();

export async function writeCorpus(root: string, count: number, figure: string): Promise<void> {
  await rm(root, { recursive: true, force: true });
  await mkdir(join(root, 'posts'), { recursive: true });
  await writeFile(join(root, 'site.yaml'), `name: Bench\ndescription: Synthetic corpus\nauthor: Bench\nattribution: bench\nproduct:\n  title: P\n  description: d\n  format: PDF\n  price_usd: 1\n  currency: USD\n  landing_url: /p\n  download_url: /d\n`);
  for (let i = 0; i < count; i++) {
    const dir = join(root, 'posts', slugOf(i));
    await mkdir(dir, { recursive: true });
    await copyFile(figure, join(dir, 'figure.png'));
    const en = essay(i, 'en');
    const hash = sourceHash(en.title, en.body);
    const date = essayDate(i);
    await writeFile(join(dir, 'en.md'), `---\ntitle: "${en.title}"\ndate: ${date}\nsummary: "Synthetic essay ${i}"\ncategories: [C${i % 7}]\ntags: [t${i % 13}, t${i % 5}]\n---\n\n${en.body}\n`);
    for (const lang of LANGUAGE_CODES.slice(1)) {
      const t = essay(i, lang);
      await writeFile(join(dir, `${lang}.md`), `---\ntitle: "${t.title}"\nsummary: "${t.title}"\nprovider: bench\nsource_hash: "${hash}"\n---\n\n${t.body}\n`);
    }
  }
}

/** The same essays as a multilingual Hugo site with minimal templates: the baseline. */
export async function writeHugoSite(root: string, count: number): Promise<void> {
  await rm(root, { recursive: true, force: true });
  const langs = LANGUAGE_CODES.map((code, weight) => `[languages.${code.replace('-', '')}]\n  languageCode = "${code}"\n  weight = ${weight + 1}\n  contentDir = "content/${code}"\n`).join('\n');
  await mkdir(join(root, 'layouts/_default'), { recursive: true });
  await writeFile(join(root, 'hugo.toml'), `baseURL = "http://localhost/"\ntitle = "Bench"\ndefaultContentLanguage = "en"\ndisableKinds = []\n${langs}`);
  await writeFile(join(root, 'layouts/_default/baseof.html'), '<!doctype html><html lang="{{ .Site.Language.Lang }}"><head><title>{{ .Title }}</title>{{ range .AllTranslations }}<link rel="alternate" hreflang="{{ .Lang }}" href="{{ .Permalink }}">{{ end }}</head><body>{{ block "main" . }}{{ end }}</body></html>');
  await writeFile(join(root, 'layouts/_default/single.html'), '{{ define "main" }}<article><h1>{{ .Title }}</h1><p>{{ .ReadingTime }} min</p>{{ .Content }}</article>{{ end }}');
  await writeFile(join(root, 'layouts/_default/list.html'), '{{ define "main" }}<ol>{{ range .Paginator.Pages }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a></li>{{ end }}</ol>{{ end }}');
  for (const lang of LANGUAGE_CODES) {
    for (let i = 0; i < count; i++) {
      const dir = join(root, 'content', lang, 'posts', slugOf(i));
      await mkdir(dir, { recursive: true });
      const e = essay(i, lang);
      const date = essayDate(i);
      await writeFile(join(dir, 'index.md'), `---\ntitle: "${e.title}"\ndate: ${date}\ntranslationKey: "${slugOf(i)}"\ncategories: [C${i % 7}]\ntags: [t${i % 13}, t${i % 5}]\n---\n\n${e.body.replace('![figure](figure.png)', '')}\n`);
    }
  }
}
