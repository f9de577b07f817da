// `node bench/search-answers.ts BUNDLE OUT`: every answer of a fixed query set over a search bundle
// (bench:search's bundle.corpus/serve-N/dist/builds/bench/bundle/main), one JSON a line, to compare two
// versions of the search byte for byte (issue 39: a speed-up must not change an answer). The queries
// come from the corpus itself: bench/relevance-set.ts's queries (inflected, misspelled, exact: 600 a
// language), and 150 a language drawn from its texts: single words, two and three words, prefixes,
// typos (a deletion, substitution or transposition), upper case, a quoted phrase, page 2, fallback.
// Prints the core's whole answer (search, JSON, UTF-8) p50/p99 over five rounds.
import { writeFileSync } from 'node:fs';
import { diskBundle, loadCore } from '../src/bundle/load-bundle.ts';
import { toJson } from '../src/core/index.ts';
import { LANGUAGE_CODES, language } from '../src/core/languages.ts';
import { loadSearchSource } from '../src/search/load-source.ts';
import { relevanceSet } from './relevance-set.ts';

const [bundle, out] = process.argv.slice(2);
if (!bundle || !out) throw new Error('usage: node bench/search-answers.ts BUNDLE OUT');
const core = await loadCore(bundle);
const posts = core.catalog.posts;
const source = await (await loadSearchSource(diskBundle(bundle), posts.length)).whole();
let seed = 7;
const r = () => (seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32;
const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)]!;
const queries: URLSearchParams[] = [];
const add = (lang: string, q: string, extra: Record<string, string> = {}) => queries.push(new URLSearchParams({ q, lang, ...extra }));
for (const lang of LANGUAGE_CODES) {
  const texts = posts.map((p, id) => ({ slug: p.slug, text: source.text(lang, id) ?? '' })).filter((t) => t.text);
  for (const q of relevanceSet(lang, language(lang).locale, texts).slice(0, 600)) add(lang, q.q);
  const seg = new Intl.Segmenter(language(lang).locale, { granularity: 'word' });
  const word = () => {
    const t = pick(texts).text;
    const at = Math.floor(r() * Math.max(1, t.length - 300));
    const ws = [...seg.segment(t.slice(at, at + 300))].filter((x) => x.isWordLike).map((x) => x.segment);
    return ws.length ? pick(ws) : 'x';
  };
  const typo = (w: string) => {
    const cs = [...w];
    if (cs.length < 3) return w;
    const i = Math.floor(r() * (cs.length - 1));
    const k = r();
    if (k < 0.33) cs.splice(i, 1);
    else if (k < 0.66) cs[i] = pick([...'aeioustrnkäéñ']);
    else [cs[i], cs[i + 1]] = [cs[i + 1]!, cs[i]!];
    return cs.join('');
  };
  for (let i = 0; i < 150; i++) {
    const k = r();
    const w = word();
    if (k < 0.3) add(lang, w);
    else if (k < 0.45) add(lang, `${w} ${word()}`);
    else if (k < 0.52) add(lang, `${w} ${word()} ${word()}`);
    else if (k < 0.6) add(lang, [...w].slice(0, Math.max(2, [...w].length - 2)).join(''));
    else if (k < 0.75) add(lang, typo(w));
    else if (k < 0.8) add(lang, `${typo(w)} ${word()}`);
    else if (k < 0.85) add(lang, w.toUpperCase());
    else if (k < 0.9) add(lang, `"${w} ${word()}"`);
    else if (k < 0.95) add(lang, w, { page: '2', per_page: '5' });
    else add(lang, w, { fallback: 'en' });
  }
}
const answers: string[] = [];
for (const q of queries) answers.push(await core.search(q).then((run) => toJson(run.body), (e: { body?: () => unknown }) => `error ${toJson(e.body?.() ?? String(e))}`));
writeFileSync(out, answers.map((a, i) => `${queries[i]}\t${a}`).join('\n') + '\n');

const UTF8 = new TextEncoder();
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.floor((p / 100) * xs.length)]!;
const whole: number[] = [];
for (let round = 0; round < 5; round++) {
  for (const q of queries) {
    const t = performance.now();
    await core.search(q).then((run) => UTF8.encode(toJson(run.body)), () => undefined);
    whole.push(performance.now() - t);
  }
}
const us = (n: number) => `${(n * 1000).toFixed(1)} µs`;
console.log(`${queries.length} answers written to ${out}; the core's whole answer (search, JSON, UTF-8): p50 ${us(pct(whole, 50))} p99 ${us(pct(whole, 99))} (${whole.length} runs)`);
