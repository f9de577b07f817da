import { LANGUAGE_CODES } from '../core/languages.ts';
import type { SearchSource } from '../core/types.ts';
import { languageSearch, otherFormsOf, query, suggestion, unitsIn, type LanguageSearch } from './search-index.ts';
import type { StemTable } from './stem-groups.ts';
import { openRuns, type IndexHeader } from './index-codec.ts';
import { openTexts } from './texts-codec.ts';
import { decodeJson, type BundleReader } from '../bundle/reader.ts';

export interface LoadedSearchSource extends SearchSource {
  /** Milliseconds each language took to load on its first use (index and snippet texts). */
  readonly loadMs: ReadonlyMap<string, number>;
  /** Loads every language not loaded yet. */
  loadAll(): void;
}

export interface SourceOptions {
  /** Load the other languages in the background after a first search (a server); a build searches once for an example. */
  warm?: boolean;
  /**
   * Whether the search files must be there now (a server fails at start without them). The build's
   * pages never search and start while the bundle step still writes them: false.
   */
  present?: boolean;
}

const FILES = (lang: string) => [`search/${lang}.index.json`, `search/${lang}.index.bin`, `search/${lang}.vocabulary.json`, `search/${lang}.texts.bin`, `search/${lang}.stems.json`];

interface Language {
  search: LanguageSearch;
  text: (id: number) => string | undefined;
}

/**
 * The prebuilt indexes (no re-indexing at start-up), each language opened on its first use, so a
 * server is ready before any is read; after the first search the others load in the background,
 * one per task, so later requests seldom wait for one. A host that can read its files at any time
 * (a disk) reads a language's files then; one that cannot (a worker, a function reading the
 * artefact from its CDN) reads a language's bytes when a search first needs it (`load`) and opens
 * them on first use. Index ids are positions in the catalog's posts (`ids` of them).
 */
export async function loadSearchSource(reader: BundleReader, ids: number, { warm = true, present = true }: SourceOptions = {}): Promise<LoadedSearchSource> {
  const need = (name: string, bytes: Uint8Array | undefined) => {
    if (!bytes) throw new Error(`the bundle has no ${name}`);
    return bytes;
  };
  /** A language's files read ahead of its first use, by hosts without synchronous reads. */
  const fetched = new Map<string, Promise<Uint8Array[]>>();
  const fetchFiles = (lang: string) => {
    let files = fetched.get(lang);
    if (!files) {
      files = Promise.all(FILES(lang).map(async (n) => need(n, await reader.read(n))));
      // A failed read is tried again by the next search.
      files.catch(() => fetched.delete(lang));
      fetched.set(lang, files);
    }
    return files;
  };
  const preread = new Map<string, Uint8Array[]>();
  // A bundle without search files fails at start, not at a first search (only the small headers are read).
  if (reader.readSync && present) for (const lang of LANGUAGE_CODES) need(FILES(lang)[0]!, reader.readSync(FILES(lang)[0]!));

  const loaded = new Map<string, Language>();
  const loadMs = new Map<string, number>();
  function language(lang: string): Language {
    let hit = loaded.get(lang);
    if (hit) return hit;
    const started = performance.now();
    const files = preread.get(lang) ?? (reader.readSync ? FILES(lang).map((n) => need(n, reader.readSync!(n))) : undefined);
    if (!files) throw new Error(`search: ${lang} was not loaded before its first use`);
    const [header, data, words, texts, stems] = files;
    const vocabulary = decodeJson<string[]>(words!);
    const runs = openRuns(decodeJson<IndexHeader>(header!), data!, vocabulary.length);
    const text = openTexts(texts!);
    hit = { search: languageSearch(lang, runs, vocabulary, ids, decodeJson<StemTable>(stems!), text), text };
    preread.delete(lang);
    loaded.set(lang, hit);
    loadMs.set(lang, performance.now() - started);
    return hit;
  }
  async function load(langs: readonly string[]): Promise<void> {
    if (reader.readSync) return;
    await Promise.all(
      langs.filter((l) => !loaded.has(l) && !preread.has(l) && LANGUAGE_CODES.includes(l)).map(async (l) => {
        const files = await fetchFiles(l);
        if (!loaded.has(l)) preread.set(l, files);
      }),
    );
  }
  const loadAll = () => void LANGUAGE_CODES.forEach(language);
  let warming = false;
  /** One language per task, so requests in between are answered (Node: the others read a language when a search needs it). */
  function warmInBackground() {
    if (!warm || warming || !reader.readSync) return;
    warming = true;
    const rest = LANGUAGE_CODES.filter((l) => !loaded.has(l));
    const next = () => {
      const lang = rest.shift();
      if (!lang) return;
      language(lang);
      setTimeout(next, 0).unref?.();
    };
    setTimeout(next, 0).unref?.();
  }
  return {
    loadMs,
    loadAll,
    load,
    match(lang, text) {
      const { ids, units, missing, words, written } = query(language(lang).search, text);
      warmInBackground();
      return { ids, missing: (id) => unitsIn(units, missing.get(id) ?? 0), terms: (id) => unitsIn(words, written(id)) };
    },
    text: (lang, id) => language(lang).text(id),
    forms: (lang, text) => otherFormsOf(language(lang).search, text),
    suggest(lang, text) {
      const search = language(lang).search;
      const suggested = suggestion(search, text);
      if (suggested === undefined) return undefined;
      // The suggestion must find a post holding all its words (those rank first).
      const { ids, missing } = query(search, suggested);
      return ids.length > 0 && !missing.has(ids[0]!) ? suggested : undefined;
    },
  };
}
