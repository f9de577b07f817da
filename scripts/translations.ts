// Author command: `npm run translations -- status [--wide] [--root DIR]` prints each translation's state (a stale one
// Folio wrote with the number of segments the English changed), a legend and totals; it also counts, per
// language, the category and tag names content/taxonomies.yaml lacks. `stamp <slug> <lang>...` or
// `stamp --unstamped` records the English source hash; `verify <slug> <lang>...` records a person's review.
// `export --format xliff <slug> <lang> [--out FILE]` writes one translation as XLIFF 2.1 for a CAT tool;
// `import FILE` takes it back as a person's work; `export --format tmx|tbx|csv` the memory (TMX) or the glossary,
// `import FILE.tmx` translations as a person's work, `import FILE.tbx|.csv` a glossary (src/translate/exchange/).
// A mistake is one line and exit 2 (`--verbose` adds the stack).
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { TRANSLATED_CODES } from '../src/core/languages.ts';
import { gitUserName, reviewDate } from '../src/translate/reviewer.ts';
import { loadGlossary } from '../src/translate/glossary.ts';
import { ExchangeError } from '../src/translate/exchange/xliff.ts';
import { exportPost, importPost } from '../src/translate/exchange/xliff-post.ts';
import { exportTmx, importTmx } from '../src/translate/exchange/tmx.ts';
import { fromCsv, fromTbx, glossaryLists, importGlossary, toCsv, toTbx } from '../src/translate/exchange/glossary-files.ts';
import { readFile } from 'node:fs/promises';
import { loadAll, loadPages, stamp, status, termNameGaps, translationMarks, verify, verifyRefusal } from '../src/translate/translation-status.ts';
import type { FolderSource, PageEnglishSource, PostSource } from '../src/pipeline/load/posts.ts';

/** A post or a standalone page (content/pages/): both are stamped and verified alike. */
type Translatable = FolderSource<PageEnglishSource>;

const USAGE = 'usage: npm run translations -- status | stamp <slug> <lang>... | stamp --unstamped | verify <slug> <lang>... [--by NAME] [--force] | export --format xliff <slug> <lang> [--out FILE] | export --format tmx|tbx|csv [--out FILE] | import FILE.xlf|.tmx|.tbx|.csv  [--root DIR] [--verbose] (--help for more)';
const HELP: Record<string, string> = {
  '': `${USAGE}

  status                    each post's translations: available, stale, missing, to review; totals per language
  stamp <slug> <lang>...    records that a translation matches the current English (source_hash)
  stamp --unstamped         stamps every translation that has no source_hash
  verify <slug> <lang>...   records a person's review (verified: true, by whom, when), approving the text kept for review
  export --format xliff <slug> <lang> [--out FILE]   one translation as XLIFF 2.1 for a CAT tool
  export --format tmx|tbx|csv [--out FILE]           the memory (TMX 1.4b) or the glossary (TBX, CSV)
  import FILE.xlf|.tmx|.tbx|.csv                     translations back as a person's work (XLIFF, TMX), or a glossary
  --root DIR                the content folder (default: content)
  --verbose                 a mistake's stack trace too
Each command takes --help.`,
  status: `usage: npm run translations -- status [--wide] [--root DIR]

Prints a row per post and page with each language's state: ✓ available, · missing, stale N (the
English changed: N segments to send again, where Folio wrote it), review N (a person's text kept
although its English changed: review it in the file, then \`verify\`, or \`translate
--retranslate-reviewed\`), unstamped, glossary (written with another glossary). Then the available
translations and the category and tag names missing per language. The table fits the terminal's
width (languages in several blocks); --wide prints one table whatever the width.`,
  stamp: `usage: npm run translations -- stamp <slug> <lang>... | stamp --unstamped [--root DIR]

Writes the English's source hash into each translation's front matter: it is then published as
available (a scaffold is not published until it is stamped).`,
  verify: `usage: npm run translations -- verify <slug> <lang>... [--by NAME] [--force] [--root DIR]

Records that a person reviewed the translation (verified: true, which the API reports), and who and
when in its front matter (verified_by: --by NAME, else git config user.name; verified_at: today's
date; the file keeps them, the API does not show them). Text kept for review (needs_review) is
approved: it is recorded as the person's for the current English. A stale translation (its English
changed since) is refused: bring it up to date first, or --force verifies it anyway. The slug names
a post or a page (content/pages/).`,
  export: `usage: npm run translations -- export --format xliff <slug> <lang> [--out FILE] | export --format tmx|tbx|csv [--out FILE] [--root DIR]

XLIFF 2.1: one unit per segment of the English (code, images and HTML as protected placeholders, links and
emphasis as protected pairs, the English file as the skeleton), the translation's text as targets where it
lines up. TMX 1.4b: the memory, each English segment with its aligned translations. TBX (TBX-Core) or CSV:
the glossary. To stdout, or to FILE with --out.`,
  import: `usage: npm run translations -- import FILE.xlf|.tmx|.tbx|.csv [--root DIR]

An XLIFF file: each unit's source must still be the English's segment (else refused, naming the unit); the
changed targets are written into the translation as a person's work, other blocks keep their bytes, nothing is
written when nothing changed. A TMX file: every post's and page's segments whose current English it holds take
its text in each of its languages, the same way. A TBX or CSV file: the glossary, checked before it is kept.`,
};
const MARK = { available: '✓', stale: 'stale', missing: '·', unstamped: 'unstamped', glossary: 'glossary' } as const;

class UsageError extends Error {}

/** The terminal's width (none when the output is not a terminal and COLUMNS is unset: one table). */
const terminalWidth = () => (process.stdout.isTTY ? process.stdout.columns : Number(process.env.COLUMNS) || Infinity);

async function statusTable(root: string, posts: PostSource[], all: Translatable[], width: number): Promise<void> {
  const label = 'term names missing';
  const name = (p: Translatable) => (posts.includes(p as PostSource) ? p.slug : `${p.slug} (page)`);
  const available: Record<string, number> = {};
  const glossary = await loadGlossary(root);
  const rows: [string, string[]][] = [];
  for (const p of all) {
    const marks = await translationMarks(p, glossary);
    const mark = (c: string) => {
      const { state, review, changed } = marks[c]!;
      // Written with another glossary, or from segments the English no longer has: `translate` makes it again, so it is not counted available here either.
      if (state === 'glossary') return MARK.glossary;
      // A person's text kept under a changed English: published as stale until reviewed.
      if (state === 'available' && review) return `review ${review}`;
      if (state === 'available') available[c] = (available[c] ?? 0) + 1;
      return changed === undefined ? MARK[state] : `stale ${changed}`;
    };
    rows.push([name(p), TRANSLATED_CODES.map(mark)]);
  }
  const gaps = await termNameGaps(root, posts);
  const totals: [string, string[]][] = [
    ['available', TRANSLATED_CODES.map((c) => `${available[c] ?? 0}/${all.length}`)],
    // Categories and tags without a name in the language (they read the English one): content/taxonomies.yaml.
    [label, TRANSLATED_CODES.map((c) => String(gaps[c] || MARK.available))],
  ];
  const nameWidth = Math.max(label.length, ...rows.map(([n]) => n.length));
  // The languages in blocks that fit the width (at least one language a block).
  const perBlock = Math.max(1, Math.min(TRANSLATED_CODES.length, Math.floor((width - nameWidth - 2) / 10)));
  const print = (name: string, cells: string[]) => console.log(`${name.padEnd(nameWidth)}  ${cells.map((c) => c.padEnd(10)).join('')}`);
  for (let from = 0; from < TRANSLATED_CODES.length; from += perBlock) {
    const block = <T,>(cells: T[]) => cells.slice(from, from + perBlock);
    if (from) console.log('');
    print('', block([...TRANSLATED_CODES]));
    for (const [n, cells] of rows) print(n, block(cells));
    console.log('');
    for (const [n, cells] of totals) print(n, block(cells));
  }
  const total = Object.values(available).reduce((a, b) => a + b, 0);
  console.log(`\n${total} of ${all.length * TRANSLATED_CODES.length} translations available.`);
  const legend = ['✓ available', '· missing', 'stale N: English changed since (N segments to send again, where Folio wrote it)', "review N: a person's text kept under a changed English (review it, then verify)", 'unstamped: not published until stamped', 'glossary: written with another glossary (translate makes it again)'];
  // The legend as lines that fit the width.
  const lines: string[] = [];
  for (const item of legend) {
    const last = lines.at(-1);
    if (last !== undefined && last.length + 3 + item.length <= width) lines[lines.length - 1] = `${last}   ${item}`;
    else lines.push(item);
  }
  for (const line of lines) console.log(line);
}

const postNamed = (posts: Translatable[], root: string, slug: string | undefined) => {
  const post = posts.find((p) => p.slug === slug);
  if (!post) throw new UsageError(slug ? `no post "${slug}" in ${root}/posts (nor a page in ${root}/pages)` : USAGE);
  return post;
};

/** The reviewer: --by NAME, else the git user.name of the content's repository. */
function reviewer(root: string, by: string | undefined): string {
  const name = by ?? gitUserName(root);
  if (!name.trim()) throw new UsageError('who reviewed it? name the reviewer with --by NAME (or set git config user.name)');
  return name.trim();
}

function languagesOf(post: Translatable, langs: string[]): string[] {
  if (langs.length === 0) throw new UsageError(USAGE);
  for (const lang of langs) {
    if (!TRANSLATED_CODES.includes(lang)) throw new UsageError(`"${lang}" is not one of the 13 translated languages (${TRANSLATED_CODES.join(', ')})`);
    if (!post.translations.some((t) => t.lang === lang)) throw new UsageError(`${post.slug} has no ${lang} translation (npm run new -- "${post.english.title}" --slug ${post.slug} --lang ${lang}, or npm run translate -- ${post.slug} --lang ${lang})`);
  }
  return [...new Set(langs)];
}

const OPTIONS = { root: { type: 'string', default: 'content' }, verbose: { type: 'boolean', default: false }, unstamped: { type: 'boolean', default: false }, wide: { type: 'boolean', default: false }, format: { type: 'string' }, out: { type: 'string' }, by: { type: 'string' }, force: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h', default: false } } as const;
let parsed: ReturnType<typeof parseArgs<{ allowPositionals: true; options: typeof OPTIONS }>>;
try {
  parsed = parseArgs({ allowPositionals: true, options: OPTIONS });
} catch (e) {
  console.error(`translations: ${(e as Error).message.split('\n')[0]}`);
  process.exit(2);
}
const { values, positionals } = parsed;
if (values.help || positionals[0] === 'help') {
  const topic = positionals[0] === 'help' ? (positionals[1] ?? '') : (positionals[0] ?? '');
  console.log(HELP[topic] ?? HELP['']);
  process.exit(0);
}
try {
  const root = values.root!;
  const [command, slug, ...langs] = positionals;
  const posts = await loadAll(root);
  const all: Translatable[] = [...posts, ...(await loadPages(root))];
  if (command === 'status' || command === undefined) await statusTable(root, posts, all, values.wide ? Infinity : terminalWidth());
  else if (command === 'stamp' && values.unstamped) {
    for (const p of all) for (const [lang, s] of Object.entries(status(p).states)) if (s === 'unstamped') console.log(`stamped ${await stamp(p, lang)}`);
  } else if (command === 'stamp' || command === 'verify') {
    const post = postNamed(all, root, slug);
    const chosen = languagesOf(post, langs);
    if (command === 'stamp') for (const lang of chosen) console.log(`stamped ${await stamp(post, lang)}`);
    else {
      // Every language is checked before any is written: a refused one leaves all as they were.
      for (const lang of values.force ? [] : chosen) {
        const refusal = verifyRefusal(post, lang);
        if (refusal) throw new Error(refusal);
      }
      const review = { by: reviewer(root, values.by), at: reviewDate() };
      for (const lang of chosen) console.log(`verified ${await verify(post, lang, review)} (by ${review.by}, ${review.at})`);
    }
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
      const { changed, files, skipped } = await importTmx(all, slug, await readFile(slug, 'utf8'), await loadGlossary(root));
      for (const line of skipped) console.error(`translations: ${line}`);
      console.log(changed ? `imported ${slug}: ${changed} segment${changed === 1 ? '' : 's'} changed in ${files.join(', ')}, recorded as a person's` : `unchanged: ${slug} holds what the translations hold`);
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
