import { termName } from '../../core/term-names.ts';
import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { placeFile } from '../reuse/place-file.ts';
import { join } from 'node:path';
import { availableLanguages } from '../../core/availability.ts';
import { LANGUAGE_CODES } from '../../core/languages.ts';
import type { Catalog } from '../../core/types.ts';
import { createIndex, exportIndex, indexText } from '../../search/search-index.ts';
import { encodeIndex, joinIndex, splitIndex, type IndexHeader } from '../../search/index-codec.ts';
import { splitTexts, textPartFile, textsFile, type TextsIndex } from '../../search/texts-codec.ts';
import { stemTable } from '../../search/stem-groups.ts';
import { cutPieces, OPENING_FILES, OPENING_PIECE_BYTES, openingBytes, pieceFile, storedAs, type OpeningFile, type Pieces } from '../../search/opening-files.ts';
import { postStats, type SearchDoc } from '../../search/relevance.ts';
import { updatedIndex } from './search-update.ts';

/** A language's files besides its digest, its runs' parts (`runs.{k}.bin`, as many as its header's `parts`), its texts' (texts-codec.ts) and its opening files (opening-files.ts: whole or in pieces). */
const FILES = ['index.json', 'index.bin', 'texts.json'];
const partFile = (lang: string, k: number) => `${lang}.runs.${k}.bin`;

/** The live bundle's search indexes, and what is known of how this build's posts differ from its. */
export interface LiveSearch {
  /** Its search folder. */
  dir: string;
  /** Its catalog's slugs in order, and the posts not taken whole from it (the only ones whose documents may differ). */
  posts?: { slugs: readonly string[]; changed: ReadonlySet<string> };
}

export type Doc = { id: number; head: string; body: string };
const indexed = (lang: string, { id, head, body }: Doc): SearchDoc => ({ id, head: indexText(lang, head), all: indexText(lang, `${head} \n ${body}`) });

/** Every document indexed by FlexSearch, encoded with each word's counts, and the sorted vocabulary. */
export async function built(lang: string, docs: readonly Doc[]): Promise<{ header: IndexHeader; data: Uint8Array; words: string[] }> {
  const index = createIndex();
  const vocabulary = new Set<string>();
  const all = docs.map((doc) => indexed(lang, doc));
  for (const d of all) {
    for (const word of d.all.split(' ')) if (word) vocabulary.add(word);
    index.add(d);
  }
  const words = [...vocabulary].sort();
  return { ...encodeIndex(await exportIndex(index), words, postStats(all, words)), words };
}

/** The live index with the changed documents updated (search-update.ts); undefined when it must be built in full. */
async function liveUpdated(lang: string, docs: readonly Doc[], live: string, changed: ReadonlySet<number>): Promise<{ header: IndexHeader; data: Uint8Array; words: string[] } | undefined> {
  const read = (file: string) => readFile(join(live, file)).then((b) => new Uint8Array(b.buffer, b.byteOffset, b.byteLength));
  const [headerBytes, exported] = await Promise.all([read(`${lang}.index.json`), read(`${lang}.index.bin`)]).catch(() => []);
  if (!headerBytes || !exported) return undefined;
  const header = JSON.parse(Buffer.from(headerBytes).toString()) as IndexHeader;
  const opening = (file: OpeningFile) => (header.pieces?.[file] ? openingBytes(lang, file, undefined, header.pieces, read) : read(`${lang}.${file}`));
  const [words, vocabularyBytes] = await Promise.all([opening('words.bin'), opening('vocabulary.json')]).catch(() => []);
  if (!words || !vocabularyBytes) return undefined;
  const vocabulary = JSON.parse(Buffer.from(vocabularyBytes).toString()) as string[];
  const parts = await Promise.all((header.parts ?? []).map((_, k) => read(partFile(lang, k)))).catch(() => undefined);
  if (!header.parts || !parts) return undefined;
  const now = docs.filter((d) => changed.has(d.id)).map((d) => indexed(lang, d));
  return updatedIndex(
    { header, bytes: joinIndex({ header, exported, words, parts }, vocabulary.length), vocabulary },
    changed,
    now,
    docs.map((d) => d.id),
  );
}

/** A language's files (but its digest): the index cut in parts, its texts by id (`ids` of them), vocabulary and stems. */
export async function writeLanguage(dir: string, lang: string, { header, data, words }: { header: IndexHeader; data: Uint8Array; words: string[] }, docs: readonly Doc[], ids: number, pieceBytes = OPENING_PIECE_BYTES): Promise<void> {
  const files = splitIndex(header, data, words.length);
  // The files that open the language, each whole or, past pieceBytes, in pieces that the header counts.
  const opening: [OpeningFile, Uint8Array][] = [
    ['words.bin', files.words],
    ['vocabulary.json', Buffer.from(JSON.stringify(words))],
    ['stems.json', Buffer.from(JSON.stringify(stemTable(lang, words)))],
  ];
  const pieces: Pieces = {};
  for (const [file, bytes] of opening) {
    const cut = cutPieces(bytes, pieceBytes);
    if (cut) pieces[file] = cut.length;
    for (const [k, piece] of (cut ?? [bytes]).entries()) await writeFile(join(dir, cut ? pieceFile(lang, file, k) : `${lang}.${file}`), piece);
  }
  await writeFile(join(dir, `${lang}.index.json`), JSON.stringify(Object.keys(pieces).length ? { ...files.header, pieces } : files.header));
  await writeFile(join(dir, `${lang}.index.bin`), files.exported);
  for (const [k, part] of files.parts.entries()) await writeFile(join(dir, partFile(lang, k)), part);
  const bodies: (string | undefined)[] = [];
  for (const { id, body } of docs) bodies[id] = body;
  await writeTexts(dir, lang, Array.from({ length: ids }, (_, id) => bodies[id]));
}

/** A language's texts by id, in parts (texts-codec.ts). */
async function writeTexts(dir: string, lang: string, texts: readonly (string | undefined)[]): Promise<void> {
  const { index, parts } = splitTexts(texts);
  for (const [k, part] of parts.entries()) await writeFile(join(dir, textPartFile(lang, k)), part);
  await writeFile(join(dir, textsFile(lang)), JSON.stringify(index));
}

/** The live index's part files of `lang` (its runs', its texts' and its opening files, whole or pieces); undefined for an index written whole (before parts), which is built again. */
async function liveParts(dir: string, lang: string): Promise<string[] | undefined> {
  const read = (file: string) => readFile(join(dir, file), 'utf8').then((s) => JSON.parse(s) as unknown, () => undefined);
  const [header, texts] = (await Promise.all([read(`${lang}.index.json`), read(textsFile(lang))])) as [IndexHeader | undefined, TextsIndex | undefined];
  if (!header?.parts || !texts?.parts) return undefined;
  return [...header.parts.map((_, k) => partFile(lang, k)), ...texts.parts.map((_, k) => textPartFile(lang, k)), ...OPENING_FILES.flatMap((file) => storedAs(lang, file, header.pieces))];
}

/**
 * One exported FlexSearch index per language over the posts available in it (by the site's
 * stale policy) in the compact form of index-codec.ts, cut by term range for reading in parts (splitIndex), its sorted vocabulary, and each entry's plain text for
 * snippets (texts-codec.ts), and its words' stems (stem-groups.ts). A language whose documents are the live build's keeps its files; one
 * where a few posts changed (and the posts kept their ids) is updated from the live index.
 */
/** Returns how many languages' indexes were taken from the live build, and how many updated from it. `pieceBytes`: the opening files' bound (opening-files.ts). */
export async function writeSearchIndexes(catalog: Catalog, text: (slug: string, lang: string) => string | undefined, dir: string, live?: LiveSearch, pieceBytes = OPENING_PIECE_BYTES): Promise<{ taken: number; updated: number }> {
  let taken = 0;
  let updated = 0;
  await mkdir(dir, { recursive: true });
  const policy = { serveStale: catalog.site.serve_stale };
  const posts = live?.posts;
  const sameIds = posts !== undefined && posts.slugs.length === catalog.posts.length && catalog.posts.every((p, id) => posts.slugs[id] === p.slug);
  const changed = new Set(sameIds ? catalog.posts.flatMap((p, id) => (posts.changed.has(p.slug) ? [id] : [])) : []);
  for (const lang of LANGUAGE_CODES) {
    const docs: Doc[] = [];
    const inputs = createHash('sha256').update(`${catalog.posts.length}\0`);
    for (const [id, post] of catalog.posts.entries()) {
      if (!availableLanguages(post, policy).includes(lang)) continue;
      const entry = post.entries[lang]!;
      const body = text(post.slug, lang) ?? '';
      // The terms as the language names them: what a reader of it would type.
      const terms = (['categories', 'tags'] as const).flatMap((kind) => post[kind].map((t) => termName(catalog, kind, t, lang))).join(' ');
      const head = [entry.title, entry.summary ?? '', terms].join(' \n ');
      inputs.update(`${id}\0${head}\0${body}\0`);
      docs.push({ id, head, body });
    }
    // A language whose posts did not change since the live build (made by the same code) keeps its index.
    const digest = inputs.digest('hex');
    const digestFile = `${lang}.digest`;
    const parts = live && (await readFile(join(live.dir, digestFile), 'utf8').catch(() => '')) === digest ? await liveParts(live.dir, lang) : undefined;
    if (live && parts !== undefined) {
      for (const file of [...FILES.map((f) => `${lang}.${f}`), ...parts, digestFile]) placeFile(join(live.dir, file), join(dir, file));
      taken++;
      continue;
    }
    const update = sameIds && live ? await liveUpdated(lang, docs, live.dir, changed) : undefined;
    if (update) updated++;
    await writeLanguage(dir, lang, update ?? (await built(lang, docs)), docs, catalog.posts.length, pieceBytes);
    await writeFile(join(dir, digestFile), digest);
  }
  return { taken, updated };
}

/**
 * A shard's share of the search indexes: per language, the plain text of each of its posts
 * available in it, by catalog id (texts-codec.ts, as an index's `<lang>.texts.*`); none for the
 * posts it outlined. The merge reads them (reuse/live-bundle.ts) and indexes every post.
 */
export async function writeSearchTexts(catalog: Catalog, text: (slug: string, lang: string) => string | undefined, dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  const policy = { serveStale: catalog.site.serve_stale };
  const available = catalog.posts.map((post) => availableLanguages(post, policy));
  for (const lang of LANGUAGE_CODES) {
    await writeTexts(dir, lang, catalog.posts.map((post, id) => (available[id]!.includes(lang) ? text(post.slug, lang) : undefined)));
  }
}
