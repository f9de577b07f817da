import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { LANGUAGE_CODES } from '../core/languages.ts';
import type { SearchSource } from '../core/types.ts';
import { importIndex, query, type LanguageSearch } from './search-index.ts';

/**
 * Imports every language's prebuilt index (no re-indexing at start-up) and its snippet texts.
 * Index ids are positions in the catalog's post list, given here as `slugs`.
 */
export async function loadSearchSource(dir: string, slugs: readonly string[]): Promise<SearchSource & { importMs: number }> {
  const started = performance.now();
  const indexes = new Map<string, LanguageSearch>();
  const texts = new Map<string, Record<string, string>>();
  await Promise.all(
    LANGUAGE_CODES.map(async (lang) => {
      const [index, text, vocabulary] = await Promise.all(
        ['index', 'texts', 'vocabulary'].map((kind) => readFile(join(dir, `${lang}.${kind}.json`), 'utf8')),
      );
      indexes.set(lang, { lang, index: importIndex(JSON.parse(index!) as Record<string, string>), vocabulary: JSON.parse(vocabulary!) as string[] });
      texts.set(lang, JSON.parse(text!) as Record<string, string>);
    }),
  );
  return {
    importMs: performance.now() - started,
    match: (lang, text) => query(indexes.get(lang)!, text).map((id) => slugs[id]!),
    text: (lang, slug) => texts.get(lang)?.[slug],
  };
}
