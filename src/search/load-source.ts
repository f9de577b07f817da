import { LANGUAGE_CODES } from '../core/languages.ts';
import type { SearchSource } from '../core/types.ts';
import { importIndex, query, type LanguageSearch } from './search-index.ts';
import { decodeIndex, type IndexHeader } from './index-codec.ts';
import { decodeJson, type BundleReader } from '../bundle/reader.ts';

/**
 * Imports every language's prebuilt index (no re-indexing at start-up). Snippet texts are
 * read the first time a language needs them. Index ids are positions in the catalog's post
 * list, given here as `slugs`.
 */
export async function loadSearchSource(reader: BundleReader, slugs: readonly string[]): Promise<SearchSource & { importMs: number }> {
  const started = performance.now();
  const indexes = new Map<string, LanguageSearch>();
  const texts = new Map<string, Record<string, string>>();
  const need = async (name: string) => {
    const bytes = await reader.read(`search/${name}`);
    if (!bytes) throw new Error(`the bundle has no search/${name}`);
    return bytes;
  };
  const textsFile = (lang: string) => `search/${lang}.texts.json`;
  await Promise.all(
    LANGUAGE_CODES.map(async (lang) => {
      const [header, data, words, preloaded] = await Promise.all([
        need(`${lang}.index.json`),
        need(`${lang}.index.bin`),
        need(`${lang}.vocabulary.json`),
        // A host that cannot read later without waiting reads the snippet texts now.
        reader.readSync ? undefined : reader.read(textsFile(lang)),
      ]);
      const vocabulary = decodeJson<string[]>(words);
      indexes.set(lang, { lang, index: importIndex(decodeIndex(decodeJson<IndexHeader>(header), data, vocabulary)), vocabulary });
      if (preloaded) texts.set(lang, decodeJson(preloaded));
    }),
  );
  return {
    importMs: performance.now() - started,
    match: (lang, text) => query(indexes.get(lang)!, text).map((id) => slugs[id]!),
    text(lang, slug) {
      let t = texts.get(lang);
      if (!t) {
        const bytes = reader.readSync?.(textsFile(lang));
        texts.set(lang, (t = bytes ? decodeJson<Record<string, string>>(bytes) : {}));
      }
      return t[slug];
    },
  };
}
