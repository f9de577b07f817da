import { LANGUAGE_CODES } from '../core/languages.ts';
import type { SearchSource } from '../core/types.ts';
import { importIndex, query, type LanguageSearch } from './search-index.ts';
import { decodeIndex, type IndexHeader } from './index-codec.ts';
import { decodeJson, type BundleReader } from '../bundle/reader.ts';

/** A language's files as bytes, before they are decoded and imported. */
interface LanguageFiles {
  header: Uint8Array;
  data: Uint8Array;
  words: Uint8Array;
  texts?: Uint8Array;
}

export interface LoadedSearchSource extends SearchSource {
  /** Milliseconds each language took to load on its first use (index import and snippet texts). */
  readonly loadMs: ReadonlyMap<string, number>;
  /** Loads every language not used yet (the bench and the background warm-up). */
  loadAll(): void;
}

const FILES = (lang: string) => [`search/${lang}.index.json`, `search/${lang}.index.bin`, `search/${lang}.vocabulary.json`, `search/${lang}.texts.json`] as const;

/**
 * The prebuilt indexes (no re-indexing at start-up), each language imported on its first use so a
 * server is ready before any index is decoded; after the first search the languages not used yet
 * load in the background, one per task, so no later request waits for one. A host that can read
 * its files at any time (a disk) reads each language's files then; one that cannot (Workers) reads
 * their bytes now and decodes them on first use. Index ids are positions in the catalog's posts.
 */
export async function loadSearchSource(reader: BundleReader, slugs: readonly string[]): Promise<LoadedSearchSource> {
  const need = (name: string, bytes: Uint8Array | undefined) => {
    if (!bytes) throw new Error(`the bundle has no ${name}`);
    return bytes;
  };
  const readNow = async (lang: string): Promise<LanguageFiles> => {
    const names = FILES(lang);
    const [header, data, words, texts] = await Promise.all(names.map((n) => reader.read(n)));
    return { header: need(names[0], header), data: need(names[1], data), words: need(names[2], words), texts: need(names[3], texts) };
  };
  const readLater = (lang: string): LanguageFiles => {
    const [h, d, w] = FILES(lang).map((n) => need(n, reader.readSync!(n)));
    return { header: h!, data: d!, words: w! };
  };
  const preread = reader.readSync ? undefined : new Map(await Promise.all(LANGUAGE_CODES.map(async (l) => [l, await readNow(l)] as const)));
  // A bundle without search indexes fails at start, not at a first search (only the small headers are read).
  if (reader.readSync) for (const lang of LANGUAGE_CODES) need(FILES(lang)[0], reader.readSync(FILES(lang)[0]));

  const loaded = new Map<string, { search: LanguageSearch; texts?: Record<string, string> }>();
  const loadMs = new Map<string, number>();
  function language(lang: string) {
    let hit = loaded.get(lang);
    if (hit) return hit;
    const started = performance.now();
    const files = preread?.get(lang) ?? readLater(lang);
    const vocabulary = decodeJson<string[]>(files.words);
    const index = importIndex(decodeIndex(decodeJson<IndexHeader>(files.header), files.data, vocabulary));
    hit = { search: { lang, index, vocabulary }, texts: files.texts && decodeJson(files.texts) };
    preread?.delete(lang);
    loaded.set(lang, hit);
    loadMs.set(lang, performance.now() - started);
    return hit;
  }
  function textsOf(lang: string): Record<string, string> {
    const l = language(lang);
    if (l.texts) return l.texts;
    const started = performance.now();
    const texts = decodeJson<Record<string, string>>(need(FILES(lang)[3], reader.readSync!(FILES(lang)[3])));
    loadMs.set(lang, loadMs.get(lang)! + performance.now() - started);
    return (l.texts = texts);
  }
  const loadAll = () => {
    for (const lang of LANGUAGE_CODES) textsOf(lang);
  };
  let warming = false;
  /** One language per task, so requests in between are answered (Node only: a Worker's isolate has no idle time). */
  function warmInBackground() {
    if (warming || !reader.readSync) return;
    warming = true;
    const rest = LANGUAGE_CODES.filter((l) => !loaded.get(l)?.texts);
    const next = () => {
      const lang = rest.shift();
      if (!lang) return;
      textsOf(lang);
      setTimeout(next, 0).unref?.();
    };
    setTimeout(next, 0).unref?.();
  }
  return {
    loadMs,
    loadAll,
    match(lang, text) {
      const ids = query(language(lang).search, text);
      warmInBackground();
      return ids;
    },
    text: (lang, id) => textsOf(lang)[slugs[id]!],
  };
}
