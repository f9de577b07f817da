import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { LANGUAGE_CODES } from '../core/languages.ts';
import type { SearchSource } from '../core/types.ts';
import { importIndex, query, type LanguageSearch } from './search-index.ts';
import { decodeIndex, type IndexHeader } from './index-codec.ts';

/**
 * Imports every language's prebuilt index (no re-indexing at start-up). Snippet texts are
 * read the first time a language needs them. Index ids are positions in the catalog's post
 * list, given here as `slugs`.
 */
export async function loadSearchSource(dir: string, slugs: readonly string[]): Promise<SearchSource & { importMs: number }> {
  const started = performance.now();
  const indexes = new Map<string, LanguageSearch>();
  const texts = new Map<string, Record<string, string>>();
  await Promise.all(
    LANGUAGE_CODES.map(async (lang) => {
      const [header, data, words] = await Promise.all([
        readFile(join(dir, `${lang}.index.json`), 'utf8'),
        readFile(join(dir, `${lang}.index.bin`)),
        readFile(join(dir, `${lang}.vocabulary.json`), 'utf8'),
      ]);
      const vocabulary = JSON.parse(words) as string[];
      indexes.set(lang, { lang, index: importIndex(decodeIndex(JSON.parse(header) as IndexHeader, data, vocabulary)), vocabulary });
    }),
  );
  return {
    importMs: performance.now() - started,
    match: (lang, text) => query(indexes.get(lang)!, text).map((id) => slugs[id]!),
    text(lang, slug) {
      let t = texts.get(lang);
      if (!t) texts.set(lang, (t = JSON.parse(readFileSync(join(dir, `${lang}.texts.json`), 'utf8')) as Record<string, string>));
      return t[slug];
    },
  };
}
