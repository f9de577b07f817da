// Author command: `npm run translations -- status [--root DIR]` prints each translation's state (a stale one
// Folio wrote with the number of segments the English changed), a legend and totals; it also counts, per
// language, the category and tag names content/taxonomies.yaml lacks. `stamp <slug> <lang>...` or
// `stamp --unstamped` records the English source hash; `verify <slug> <lang>...` records a person's review.
// `export --format xliff <slug> <lang> [--out FILE]` writes one translation as XLIFF 2.1 for a CAT tool;
// `import FILE` takes it back as a person's work; `export --format tmx|tbx|csv` the memory (TMX) or the glossary,
// `import FILE.tbx|.csv` a glossary (src/translate/exchange/).
// A mistake is one line and exit 2 (`--verbose` adds the stack).
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { TRANSLATED_CODES } from '../src/core/languages.ts';
import { MEMORY_FILE, TranslationMemory } from '../src/translate/memory.ts';
import { segmentTexts } from '../src/translate/translate-post.ts';
import { loadGlossary } from '../src/translate/glossary.ts';
import { documentText } from '../src/translate/segments.ts';
import { ExchangeError } from '../src/translate/exchange/xliff.ts';
import { exportPost, importPost } from '../src/translate/exchange/xliff-post.ts';
import { exportTmx } from '../src/translate/exchange/tmx.ts';
import { fromCsv, fromTbx, glossaryLists, importGlossary, toCsv, toTbx } from '../src/translate/exchange/glossary-files.ts';
import { readFile } from 'node:fs/promises';
import { loadAll, loadPages, stamp, status, termNameGaps, translateState, verify } from '../src/translate/translation-status.ts';
import type { FolderSource, PageEnglishSource, PostSource } from '../src/pipeline/load/posts.ts';

/** A post or a standalone page (content/pages/): both are stamped and verified alike. */
type Translatable = FolderSource<PageEnglishSource>;

const USAGE = 'usage: npm run translations -- status | stamp <slug> <lang>... | stamp --unstamped | verify <slug> <lang>... | export --format xliff <slug> <lang> [--out FILE] | export --format tmx|tbx|csv [--out FILE] | import FILE.xlf|.tbx|.csv  [--root DIR] [--verbose]';
const MARK = { available: '✓', stale: 'stale', missing: '·', unstamped: 'unstamped', glossary: 'glossary' } as const;

class UsageError extends Error {}

async function statusTable(root: string, posts: PostSource[], all: Translatable[]): Promise<void> {
  const label = 'term names missing';
  const name = (p: Translatable) => (posts.includes(p as PostSource) ? p.slug : `${p.slug} (page)`);
  const width = Math.max(label.length, ...all.map((p) => name(p).length));
  const row = (name: string, cells: string[]) => console.log(`${name.padEnd(width)}  ${cells.map((c) => c.padEnd(10)).join('')}`);
  row('', [...TRANSLATED_CODES]);
  const available: Record<string, number> = {};
  const glossary = await loadGlossary(root);
  const protect = glossary?.protect;
  for (const p of all) {
    const states = status(p).states;
    // A stale translation Folio wrote says how many of its segments the English changed (what a new run sends).
    const memory = await TranslationMemory.open(join(p.dir, MEMORY_FILE));
    const sources = p.english.format === 'md' ? segmentTexts(documentText(p.english, p.english.body), { protect }) : [];
    const mark = (c: string) => {
      // Written with another glossary, or from segments the English no longer has: `translate` makes it again, so it is not counted available here either.
      const state = translateState(states[c]!, memory, c, sources, glossary);
      if (state === 'glossary') return MARK.glossary;
      if (state === 'available') available[c] = (available[c] ?? 0) + 1;
      const changed = state === 'stale' ? memory.staleCount(c, sources) : undefined;
      return changed === undefined ? MARK[state] : `stale ${changed}`;
    };
    row(name(p), TRANSLATED_CODES.map(mark));
  }
  console.log('');
  row('available', TRANSLATED_CODES.map((c) => `${available[c] ?? 0}/${all.length}`));
  // Categories and tags without a name in the language (they read the English one): content/taxonomies.yaml.
  const gaps = await termNameGaps(root, posts);
  row(label, TRANSLATED_CODES.map((c) => String(gaps[c] || MARK.available)));
  const total = Object.values(available).reduce((a, b) => a + b, 0);
  console.log(`\n${total} of ${all.length * TRANSLATED_CODES.length} translations available.`);
  console.log('✓ available   · missing   stale N: the English changed since (N segments to send again, where Folio wrote it)   unstamped: not published until stamped   glossary: written with another glossary (translate makes it again)');
}

const postNamed = (posts: Translatable[], root: string, slug: string | undefined) => {
  const post = posts.find((p) => p.slug === slug);
  if (!post) throw new UsageError(slug ? `no post "${slug}" in ${root}/posts (nor a page in ${root}/pages)` : USAGE);
  return post;
};

function languagesOf(post: Translatable, langs: string[]): string[] {
  if (langs.length === 0) throw new UsageError(USAGE);
  for (const lang of langs) {
    if (!TRANSLATED_CODES.includes(lang)) throw new UsageError(`"${lang}" is not one of the 13 translated languages (${TRANSLATED_CODES.join(', ')})`);
    if (!post.translations.some((t) => t.lang === lang)) throw new UsageError(`${post.slug} has no ${lang} translation (npm run new -- "${post.english.title}" --slug ${post.slug} --lang ${lang}, or npm run translate -- ${post.slug} --lang ${lang})`);
  }
  return [...new Set(langs)];
}

const { values, positionals } = parseArgs({ allowPositionals: true, options: { root: { type: 'string', default: 'content' }, verbose: { type: 'boolean', default: false }, unstamped: { type: 'boolean', default: false }, format: { type: 'string' }, out: { type: 'string' } } });
try {
  const root = values.root!;
  const [command, slug, ...langs] = positionals;
  const posts = await loadAll(root);
  const all: Translatable[] = [...posts, ...(await loadPages(root))];
  if (command === 'status' || command === undefined) await statusTable(root, posts, all);
  else if (command === 'stamp' && values.unstamped) {
    for (const p of all) for (const [lang, s] of Object.entries(status(p).states)) if (s === 'unstamped') console.log(`stamped ${await stamp(p, lang)}`);
  } else if (command === 'stamp' || command === 'verify') {
    const post = postNamed(all, root, slug);
    for (const lang of languagesOf(post, langs)) console.log(command === 'stamp' ? `stamped ${await stamp(post, lang)}` : `verified ${await verify(post, lang)}`);
  } else if (command === 'export') {
    const glossary = await loadGlossary(root);
    let xml: string;
    if (values.format === 'xliff') {
      const post = postNamed(all, root, slug);
      const [lang] = langs;
      if (!lang || !TRANSLATED_CODES.includes(lang)) throw new UsageError(`"${lang ?? ''}" is not one of the 13 translated languages (${TRANSLATED_CODES.join(', ')})`);
      const out = await exportPost(post, lang, glossary);
      if (!out.aligned) console.error(`translations: the ${lang} translation of ${post.slug} does not line up with the English (blocks added or removed by hand): exported without targets`);
      xml = out.xml;
    } else if (values.format === 'tmx') xml = (await exportTmx(all, glossary)).xml;
    else if (values.format === 'tbx') xml = toTbx(await glossaryLists(root));
    else if (values.format === 'csv') xml = toCsv(await glossaryLists(root));
    else throw new UsageError(`export needs --format xliff, tmx, tbx or csv (${USAGE})`);
    if (values.out) {
      await writeFile(values.out, xml);
      console.error(`exported ${values.out}`);
    } else process.stdout.write(xml);
  } else if (command === 'import') {
    if (!slug) throw new UsageError(USAGE);
    const kind = slug.replace(/^.*\./, '').toLowerCase();
    if (kind === 'tbx' || kind === 'csv') {
      const text = await readFile(slug, 'utf8');
      const wrote = await importGlossary(root, kind === 'tbx' ? fromTbx(text, slug) : fromCsv(text, slug));
      console.log(wrote ? `imported ${join(root, 'glossary.yaml')}: the glossary now lists what ${slug} lists` : `unchanged ${join(root, 'glossary.yaml')}: ${slug} lists what it lists`);
    } else if (kind === 'tmx') {
      throw new ExchangeError(`${slug}: importing TMX into the memory needs per-segment authorship in the memory (issue 40 item 1), not there yet: import the translations as XLIFF`);
    } else {
      const { file, changed } = await importPost(all, slug, await loadGlossary(root));
      console.log(changed ? `imported ${file}: ${changed} segment${changed === 1 ? '' : 's'} changed, recorded as a person's` : `unchanged ${file}: nothing to write`);
    }
  } else throw new UsageError(USAGE);
} catch (e) {
  if (values.verbose) console.error(e);
  else console.error(`translations: ${(e as Error).message.split('\n')[0]}`);
  process.exit(e instanceof UsageError || e instanceof ExchangeError ? 2 : 1);
}
