import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import matter from 'gray-matter';
import { loadAll, status } from '../../src/translate/translation-status.ts';
import { documentText, segmentDocument } from '../../src/translate/segments.ts';
import { markdownShape } from './markdown-shape.ts';

/**
 * What `npm run translate` must leave for every post of `root` in each of `langs`: an available
 * translation stamped by the engine (`provider` matching), automated and unverified, with the
 * English structure exactly and its words in another language (never judged for quality).
 */
export async function assertMachineTranslations(root: string, langs: readonly string[], provider: RegExp): Promise<void> {
  for (const post of await loadAll(root)) {
    const sources = segmentDocument(documentText(post.english, post.english.body)).segments;
    for (const lang of langs) {
      assert.equal(status(post).states[lang], 'available', `${post.slug} ${lang}`);
      const { data, content } = matter(await readFile(join(post.dir, `${lang}.md`), 'utf8'));
      assert.match(String(data.provider), provider, 'the engine that made it, with its version');
      assert.equal(data.automated, true);
      assert.equal(data.verified, false);
      assert.equal(markdownShape(content), markdownShape(post.english.body), `${post.slug} ${lang}: the English structure`);
      const translated = segmentDocument(documentText(data, content)).segments;
      assert.equal(translated.length, sources.length);
      const changed = translated.filter((s, i) => s.text !== sources[i]!.text).length;
      assert.ok(changed / sources.length > 0.9, `${post.slug} ${lang}: ${changed} of ${sources.length} segments in another language`);
    }
  }
}
