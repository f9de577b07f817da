import { LANGUAGE_CODES } from '../core/languages.ts';
import type { SearchSource, SearchView } from '../core/types.ts';
import { languageSearch, otherFormsOf, query, suggestion, unitsIn, type LanguageSearch } from './search-index.ts';
import type { StemTable } from './stem-groups.ts';
import { openParts, readPart, type IndexHeader, type RunPart } from './index-codec.ts';
import { openingBytes, type OpeningFile } from './opening-files.ts';
import { openTextPart, textPartFile, textPartOf, textsFile, type TextsIndex } from './texts-codec.ts';
import { decodeJson, type BundleReader } from '../bundle/reader.ts';
import { ARTEFACT_CACHE_MB, cachedStore } from '../artefact/storage.ts';

export interface LoadedSearchSource extends SearchSource {
  /** Milliseconds each language took to open on its first use (its word list, table and stems). */
  readonly loadMs: ReadonlyMap<string, number>;
  /** Every language open and every part of its runs and texts read and held by one view (benches: the whole index in memory). */
  whole(): Promise<SearchView>;
}

export interface SourceOptions {
  /** Open the other languages in the background after a first search (a server); a build searches once for an example. */
  warm?: boolean;
  /**
   * Whether the search files must be there now (a server fails at start without them). The build's
   * pages never search and start while the bundle step still writes them: false.
   */
  present?: boolean;
  /** Bytes of parts kept in memory when the reader has no cache of its own (ARTEFACT_CACHE_MB; default 128 MB). */
  cacheBytes?: number;
}

/** What opens a language: its header, table and lengths, word list, stems (these three whole or in pieces: opening-files.ts) and where its snippet texts' parts begin. */
const FILES = (lang: string) => [`search/${lang}.index.json`, `search/${lang}.words.bin`, `search/${lang}.vocabulary.json`, `search/${textsFile(lang)}`, `search/${lang}.stems.json`];
/** A part of a language's runs (index-codec.ts, splitIndex). */
const PART = (lang: string, k: number) => `search/${lang}.runs.${k}.bin`;
/** A part of a language's snippet texts (texts-codec.ts). */
const TEXT_PART = (lang: string, k: number) => `search/${textPartFile(lang, k)}`;

interface Language {
  header: IndexHeader;
  search: LanguageSearch;
  texts: TextsIndex;
}

/** Parts read in place, by their bytes: a part the cache still holds is not read again. */
const opened = new WeakMap<Uint8Array, RunPart>();
const openedTexts = new WeakMap<Uint8Array, (id: number) => string | undefined>();
const textPart = (bytes: Uint8Array) => {
  let part = openedTexts.get(bytes);
  if (!part) openedTexts.set(bytes, (part = openTextPart(bytes)));
  return part;
};

/** A reader without a cache of its own (a disk), read through one for the parts. */
function withCache(reader: BundleReader, bytes: number): Required<Pick<BundleReader, 'peek'>> & BundleReader {
  const store = cachedStore({ get: async (name) => (await reader.read(name)) ?? null }, bytes);
  return { read: async (name) => (await store.get(name)) ?? undefined, peek: (name) => store.peek(name) };
}

/**
 * The prebuilt indexes (no re-indexing at start-up), each language opened on its first search, so
 * a server is ready before any is read; after the first search the others open in the background,
 * one per task. Opening reads a language's word list, table and lengths, stems and where its texts'
 * parts begin; the posts of its words (the runs) are read in parts by term range, each when a
 * query first needs it, and the snippet texts in parts by id range, each when an answer first needs
 * a text of it; both are kept in one bounded cache (the host's, else one of its own of
 * `cacheBytes`): memory for runs and texts stays within the cache whatever the corpus. Index ids
 * are positions in the catalog's posts (`ids` of them).
 */
export async function loadSearchSource(reader: BundleReader, ids: number, { warm = true, present = true, cacheBytes = ARTEFACT_CACHE_MB * 1024 * 1024 }: SourceOptions = {}): Promise<LoadedSearchSource> {
  const need = (name: string, bytes: Uint8Array | null | undefined) => {
    if (!bytes) throw new Error(`the bundle has no ${name}`);
    return bytes;
  };
  const parts = reader.peek ? (reader as Required<Pick<BundleReader, 'peek'>> & BundleReader) : withCache(reader, cacheBytes);
  // A bundle without search files fails at start, not at a first search (only the small headers are read).
  if (reader.readSync && present) for (const lang of LANGUAGE_CODES) need(FILES(lang)[0]!, reader.readSync(FILES(lang)[0]!));

  const loaded = new Map<string, Language>();
  const opening = new Map<string, Promise<Language>>();
  const loadMs = new Map<string, number>();
  function open(lang: string): Promise<Language> {
    let pending = opening.get(lang);
    if (!pending) {
      pending = (async () => {
        // A disk's files are read as they are, outside the cache: it is for the parts. All at once; an
        // opening file the header says is in pieces (absent whole: opening-files.ts) then by its pieces.
        const readOne = async (n: string) => (reader.readSync ? reader.readSync(n) : await reader.read(n));
        const [headerBytes, ...rest] = await Promise.all(FILES(lang).map(readOne));
        const header = decodeJson<IndexHeader>(need(FILES(lang)[0]!, headerBytes));
        const whole = (at: number, file: OpeningFile) => openingBytes(lang, file, rest[at], header.pieces, (piece) => readOne(`search/${piece}`)).then((b) => need(FILES(lang)[at + 1]!, b));
        const [words, vocabularyBytes, texts, stems] = await Promise.all([whole(0, 'words.bin'), whole(1, 'vocabulary.json'), Promise.resolve(need(FILES(lang)[3]!, rest[2])), whole(3, 'stems.json')]);
        const started = performance.now();
        const vocabulary = decodeJson<string[]>(vocabularyBytes!);
        // The view searching sets which parts it reads (view below), runs and texts.
        const runs = openParts(header, words!, vocabulary.length, () => undefined);
        const language = { header, search: languageSearch(lang, runs, vocabulary, ids, decodeJson<StemTable>(stems!), () => null), texts: decodeJson<TextsIndex>(texts!) };
        loaded.set(lang, language);
        loadMs.set(lang, performance.now() - started);
        return language;
      })();
      // A failed read is tried again by the next search.
      pending.catch(() => opening.delete(lang));
      opening.set(lang, pending);
    }
    return pending;
  }
  const languageOf = (lang: string) => {
    const hit = loaded.get(lang);
    if (!hit) throw new Error(`search: ${lang} was not loaded before its first use`);
    return hit;
  };

  let warming = false;
  /** One language per task, so requests in between are answered; only where files are at hand (a disk: a worker or function reads a language when a search needs it). */
  function warmInBackground() {
    if (!warm || warming || !reader.readSync) return;
    warming = true;
    const rest = LANGUAGE_CODES.filter((l) => !loaded.has(l));
    const next = () => {
      const lang = rest.shift();
      if (!lang) return;
      open(lang).then(
        () => setTimeout(next, 0).unref?.(),
        () => setTimeout(next, 0).unref?.(),
      );
    };
    setTimeout(next, 0).unref?.();
  }

  /**
   * One answer's view: the parts it read are held by it (the cache may drop them meanwhile), a part
   * neither it nor the cache holds is noted and read by `readMissing`.
   */
  function view(): SearchView & { readAll(lang: string): void } {
    const held = new Map<string, RunPart>();
    const heldTexts = new Map<string, (id: number) => string | undefined>();
    const missing = new Map<string, [lang: string, k: number, texts: boolean]>();
    const partOf = (lang: string, language: Language) => (k: number) => {
      const name = PART(lang, k);
      let part = held.get(name);
      if (part) return part;
      const bytes = parts.peek(name);
      if (!bytes) {
        missing.set(name, [lang, k, false]);
        return undefined;
      }
      held.set(name, (part = partFrom(language, k, bytes)));
      return part;
    };
    /** A post's text, or null while its part is not at hand (noted: read, then the answer is made again). */
    const textOf = (lang: string, language: Language) => (id: number) => {
      const k = textPartOf(language.texts, id);
      if (k === undefined) return undefined;
      const name = TEXT_PART(lang, k);
      let part = heldTexts.get(name);
      if (!part) {
        const bytes = parts.peek(name);
        if (!bytes) {
          missing.set(name, [lang, k, true]);
          return null;
        }
        heldTexts.set(name, (part = textPart(bytes)));
      }
      return part(id);
    };
    /** The language, its runs and texts reading this view's parts (the search is synchronous: no other view reads it meanwhile). */
    const use = (lang: string) => {
      const language = languageOf(lang);
      language.search.runs.part = partOf(lang, language);
      language.search.text = textOf(lang, language);
      return language;
    };
    return {
      match(lang, text) {
        const { ids, units, missing: lacks, words, written } = query(use(lang).search, text);
        warmInBackground();
        return { ids, missing: (id) => unitsIn(units, lacks.get(id) ?? 0), terms: (id) => unitsIn(words, written(id)) };
      },
      text: (lang, id) => use(lang).search.text!(id) ?? undefined,
      forms: (lang, text) => otherFormsOf(use(lang).search, text),
      suggest(lang, text) {
        const search = use(lang).search;
        const suggested = suggestion(search, text);
        if (suggested === undefined) return undefined;
        // The suggestion must find a post holding all its words (those rank first).
        const { ids, missing: lacks } = query(search, suggested);
        return ids.length > 0 && !lacks.has(ids[0]!) ? suggested : undefined;
      },
      /** Notes every part of `lang` it does not hold, runs and texts (read by readMissing). */
      readAll(lang) {
        const { search, texts } = use(lang);
        for (let k = 0; k < search.runs.parts.length; k++) search.runs.part(k);
        for (const first of texts.parts) search.text!(first);
      },
      async readMissing() {
        if (missing.size === 0) return false;
        const wanted = [...missing];
        missing.clear();
        await Promise.all(
          wanted.map(async ([name, [lang, k, texts]]) => {
            const bytes = need(name, await parts.read(name));
            if (texts) heldTexts.set(name, textPart(bytes));
            else held.set(name, partFrom(languageOf(lang), k, bytes));
          }),
        );
        return true;
      },
    };
  }
  const partFrom = (language: Language, k: number, bytes: Uint8Array) => {
    let part = opened.get(bytes);
    if (!part) opened.set(bytes, (part = readPart(language.header, language.search.runs.table, k, bytes)));
    return part;
  };

  return {
    loadMs,
    async load(langs) {
      await Promise.all(langs.filter((l) => LANGUAGE_CODES.includes(l)).map(open));
      return view();
    },
    async whole() {
      const all = view();
      await Promise.all(LANGUAGE_CODES.map(open));
      for (const lang of LANGUAGE_CODES) all.readAll(lang);
      await all.readMissing();
      return all;
    },
  };
}
