import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { availableLanguages } from '../core/availability.ts';
import { LANGUAGE_CODES } from '../core/languages.ts';
import type { Catalog } from '../core/types.ts';
import { createIndex, exportIndex, indexText } from '../search/search-index.ts';
import { encodeIndex } from '../search/index-codec.ts';
import { encodeTexts } from '../search/texts-codec.ts';

/**
 * One exported FlexSearch index per language over the posts available in it (by the site's
 * stale policy) in the compact form of index-codec.ts, its sorted vocabulary, and each entry's plain text for
 * snippets (texts-codec.ts).
 */
export async function writeSearchIndexes(catalog: Catalog, texts: Map<string, Map<string, string>>, dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  const policy = { serveStale: catalog.site.serve_stale };
  for (const lang of LANGUAGE_CODES) {
    const index = createIndex();
    const bodies: (string | undefined)[] = [];
    const vocabulary = new Set<string>();
    for (const [id, post] of catalog.posts.entries()) {
      if (!availableLanguages(post, policy).includes(lang)) continue;
      const entry = post.entries[lang]!;
      const body = texts.get(post.slug)?.get(lang) ?? '';
      const terms = [...post.categories, ...post.tags].map((t) => t.name).join(' ');
      const head = [entry.title, entry.summary ?? '', terms].join(' \n ');
      const all = indexText(lang, `${head} \n ${body}`);
      for (const word of all.split(' ')) if (word) vocabulary.add(word);
      index.add({ id, head: indexText(lang, head), all });
      bodies[id] = body;
    }
    const words = [...vocabulary].sort();
    const { header, data } = encodeIndex(await exportIndex(index), words);
    await writeFile(join(dir, `${lang}.index.json`), JSON.stringify(header));
    await writeFile(join(dir, `${lang}.index.bin`), data);
    await writeFile(join(dir, `${lang}.texts.bin`), encodeTexts(Array.from({ length: catalog.posts.length }, (_, id) => bodies[id])));
    await writeFile(join(dir, `${lang}.vocabulary.json`), JSON.stringify(words));
  }
}
