// `npm run bench:translate -- [N]`: what `npm run translate` sends, for the demo corpus and N synthetic
// essays shaped like the demo's (default 1,000), through an in-process pseudo-locale engine that
// counts what it is given: segments and characters on a first run, after a one-sentence edit (goal:
// 1 segment per language) and with nothing changed (goal: 0); and segmentation plus reassembly time
// per essay (goal: under 5 ms; median and p95). The memory is kept in memory, never written.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import matter from 'gray-matter';
import { TRANSLATED_CODES } from '../src/core/languages.ts';
import { providerLabel, type Provider } from '../src/translate/provider.ts';
import { TranslationMemory } from '../src/translate/memory.ts';
import { documentText, segmentDocument, type DocumentText } from '../src/translate/segments.ts';
import { englishSegments, journalWrite, translatePost } from '../src/translate/translate-post.ts';
import { sourceHash } from '../src/pipeline/derive/source-hash.ts';
import { richEssay } from './synthetic-corpus.ts';

const count = Number(process.argv[2] ?? 1000);
if (!Number.isInteger(count) || count < 1) throw new Error('usage: npm run bench:translate -- <essays>');

/** Where a language's script starts, for the languages not written in Latin (the checks refuse Latin answers there). */
const SCRIPT_BASE: Record<string, number> = { ar: 0x0628, hi: 0x0915, ja: 0x30a2, ko: 0xac00, zh: 0x4e00, ru: 0x0430 };
const inScript = (lang: string, word: string) => {
  const base = SCRIPT_BASE[lang];
  // Marks dropped in Latin: a synthetic word with ñ read as Spanish in a pt-br answer (the pivot check).
  return base === undefined ? `${word.normalize('NFD').replace(/\p{M}/gu, '')}ö` : [...word].map((c) => String.fromCodePoint(base + (c.codePointAt(0)! % 26))).join('');
};
/** Every word changed (in the language's script), every tag kept: a language to the structure, registered for this run only. */
const pseudo = (tagged: string, lang = 'es') => tagged.replace(/(^|>)([^<]*)/g, (_, close: string, words: string) => close + words.replace(/\p{L}+/gu, (w) => inScript(lang, [...w].reverse().join(''))));
const sent = { segments: 0, chars: 0 };
const engine: Provider = {
  id: 'pseudo',
  version: '1',
  supports: () => 'direct',
  limits: { segments: 50, chars: 100_000 },
  async translate(segments, lang) {
    sent.segments += segments.length;
    sent.chars += segments.reduce((n, s) => n + s.length, 0);
    return segments.map((s) => pseudo(s, lang));
  },
};

interface Essay {
  slug: string;
  english: DocumentText;
  memory: TranslationMemory;
  written: Map<string, DocumentText>;
  /** Language -> the English source hash its translation was made from (what the command compares). */
  hashes: Map<string, string>;
}

async function demoCorpus(): Promise<DocumentText[]> {
  const out: DocumentText[] = [];
  for (const slug of (await readdir('content/posts')).sort()) {
    const { data, content } = matter(await readFile(join('content/posts', slug, 'en.md'), 'utf8'));
    out.push(documentText(data, content));
  }
  return out;
}

/**
 * One run of the command over every essay and language: what it sends. As the command, it takes
 * up only what is missing or stale (the English source hash changed), unless `force` sends every
 * essay through the memory.
 */
async function run(essays: Essay[], langs: readonly string[], force = false) {
  sent.segments = 0;
  sent.chars = 0;
  for (const essay of essays) {
    const hash = sourceHash(essay.english.title, essay.english.body);
    // As the command: the English segmented once, for every language.
    const english = englishSegments(essay.english, undefined);
    for (const lang of langs) {
      if (!force && essay.hashes.get(lang) === hash) continue;
      const outcome = await translatePost({
        slug: essay.slug,
        lang,
        english,
        existing: essay.written.get(lang),
        provider: engine,
        engine: providerLabel(engine),
        memory: essay.memory,
        dryRun: false,
        budget: { chars: Infinity },
        checkpoint: async () => undefined,
      });
      if (!outcome.result) throw new Error(`${essay.slug} ${lang}: ${outcome.skipped ?? outcome.failed.map((f) => `${f.where}: ${f.reason}`).join('; ')}`);
      journalWrite(essay.memory, lang, '', english, outcome.result, outcome.authors, undefined);
      essay.memory.commit(lang);
      essay.written.set(lang, outcome.result);
      essay.hashes.set(lang, hash);
    }
  }
  return { ...sent };
}

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
const n = (x: number) => x.toLocaleString('en-US');

/**
 * Segmentation and reassembly of each essay (segments in, every segment translated, the document
 * out). The engine's translations are made beforehand: the time is Folio's alone.
 */
function timings(docs: DocumentText[], rounds = 1): number[] {
  const translated = docs.map((doc) => segmentDocument(doc).segments.map((s) => pseudo(s.text)));
  return Array.from({ length: rounds }, () =>
    docs.map((doc, i) => {
      const t = performance.now();
      segmentDocument(doc).rebuild(translated[i]!);
      return performance.now() - t;
    }),
  ).flat();
}

async function report(name: string, docs: DocumentText[], langs: readonly string[]) {
  const essays: Essay[] = await Promise.all(docs.map(async (english, i) => ({ slug: `essay-${i}`, english, memory: await TranslationMemory.open(`/nonexistent/bench-${i}`), written: new Map(), hashes: new Map() })));
  const segments = docs.reduce((k, d) => k + segmentDocument(d).segments.length, 0);
  const t = performance.now();
  const first = await run(essays, langs);
  const firstSeconds = (performance.now() - t) / 1000;
  const unchanged = await run(essays, langs);
  // Every essay and language sent through the memory anyway (what a run after a lost source hash would do).
  const forced = name.startsWith('demo') ? await run(essays, langs, true) : undefined;
  // One sentence of one essay edited: its first paragraph's first sentence, one word longer.
  const edited = essays[Math.floor(essays.length / 2)]!;
  edited.english = { ...edited.english, body: edited.english.body.replace(/^([^#\n!|>`-][^.\n]*)\./m, '$1 indeed.') };
  const edit = await run(essays, langs);
  // Warmed up first: the first essays pay for the parser's compilation.
  timings(docs.slice(0, 20));
  // At least 1,000 samples: a dozen demo essays alone would make the p95 their slowest.
  const ms = timings(docs, Math.ceil(1000 / docs.length));
  console.log(`${name}: ${n(docs.length)} essays, ${n(segments)} segments x ${langs.length} languages (in-process pseudo-locale engine)`);
  console.log(`  first run        sent ${n(first.segments).padStart(9)} segments ${n(first.chars).padStart(12)} characters  (${firstSeconds.toFixed(1)} s with checks and memory)`);
  console.log(`  one-sentence edit sent ${n(edit.segments).padStart(8)} segments ${n(edit.chars).padStart(12)} characters  (goal ${langs.length}: 1 per language) ${edit.segments === langs.length ? 'ok' : 'MISSED'}`);
  console.log(`  nothing changed  sent ${n(unchanged.segments).padStart(9)} segments ${n(unchanged.chars).padStart(12)} characters  (goal 0) ${unchanged.segments === 0 ? 'ok' : 'MISSED'}`);
  if (forced) console.log(`  nothing changed, every essay forced through the memory: sent ${n(forced.segments)} segments (goal 0) ${forced.segments === 0 ? 'ok' : 'MISSED'}`);
  console.log(`  segment + reassemble per essay: median ${pct(ms, 50).toFixed(2)} ms, p95 ${pct(ms, 95).toFixed(2)} ms, max ${Math.max(...ms).toFixed(2)} ms over ${n(ms.length)} runs (goal < 5 ms) ${pct(ms, 95) < 5 ? 'ok' : 'MISSED'}`);
}

console.log('a shared, busy machine (2 cores): times are indicative');
await report('demo corpus', await demoCorpus(), TRANSLATED_CODES);
await report('synthetic corpus', Array.from({ length: count }, (_, i) => richEssay(i)), TRANSLATED_CODES);
