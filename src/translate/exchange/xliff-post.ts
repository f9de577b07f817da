import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeWhole } from '../../fs/write-whole.ts';
import type { FolderSource, PageEnglishSource } from '../../pipeline/load/posts.ts';
import { sourceHash } from '../../pipeline/derive/source-hash.ts';
import type { Glossary } from '../glossary.ts';
import { MEMORY_FILE, TranslationMemory } from '../memory.ts';
import { documentText } from '../segments.ts';
import { adoptTranslation, segmentTexts } from '../translate-post.ts';
import { translationFile } from '../translation-file.ts';
import { ExchangeError, exportXliff, parseXliff, planImport, type ParsedXliff } from './xliff.ts';

/** A post or a standalone page: what has translations to exchange. */
type Translatable = FolderSource<PageEnglishSource>;

/** One translation as an XLIFF 2.1 file (see xliff.ts); `aligned` false: the current translation's blocks do not line up, so no targets. */
export async function exportPost(post: Translatable, lang: string, glossary: Glossary | undefined): Promise<{ xml: string; aligned: boolean }> {
  const t = post.translations.find((x) => x.lang === lang && x.format === 'md');
  return exportXliff({
    slug: post.slug,
    lang,
    original: post.english.file,
    englishRaw: await readFile(post.english.file, 'utf8'),
    english: documentText(post.english, post.english.body),
    ...(t ? { translation: { doc: documentText(t, t.body), verified: t.verified } } : {}),
    options: { protect: glossary?.protect },
  });
}

/**
 * Writes the translation an XLIFF file holds, as a person's work: the file through the usual
 * writer (`automated: false`), then the memory, where the segments it changed become a person's
 * corrections (TranslationMemory.recordHumanEdits), or the whole file is adopted when Folio never
 * wrote it. Nothing changed: nothing is written. Returns the file and the number of segments changed.
 */
export async function importPost(all: readonly Translatable[], file: string, glossary: Glossary | undefined): Promise<{ file: string; changed: number }> {
  const parsed = parseXliff(await readFile(file, 'utf8'), file);
  const post = all.find((p) => p.slug === parsed.slug);
  if (!post) throw new ExchangeError(`${file}: its <file id="${parsed.slug}"> names no post or page here`);
  return importUnits(post, parsed, file, glossary);
}

/**
 * Writes what an exchange file holds for one translation (units in the English's segment order,
 * each with its target, if any: see planImport), as a person's work.
 */
export async function importUnits(post: Translatable, parsed: ParsedXliff, file: string, glossary: Glossary | undefined): Promise<{ file: string; changed: number }> {
  if (post.english.format !== 'md') throw new ExchangeError(`${file}: ${post.slug} is not written in Markdown`);
  const existing = post.translations.find((t) => t.lang === parsed.lang);
  if (existing && existing.format !== 'md') throw new ExchangeError(`${file}: the ${parsed.lang} translation of ${post.slug} is not Markdown`);
  const english = documentText(post.english, post.english.body);
  const current = existing ? documentText(existing, existing.body) : undefined;
  const options = { protect: glossary?.protect };
  const plan = planImport(parsed, file, english, current, options);
  const target = existing?.file ?? join(post.dir, `${parsed.lang}.md`);
  if (!plan.result) return { file: target, changed: 0 };

  await writeWhole(
    target,
    translationFile(plan.result, { provider: existing?.provider ?? null, automated: false, sourceHash: sourceHash(post.english.title, post.english.body), modified: existing?.modified }),
  );
  const memory = await TranslationMemory.open(join(post.dir, MEMORY_FILE));
  const edits = memory.hasRecord(parsed.lang) ? memory.recordHumanEdits(parsed.lang, segmentTexts(plan.result, options)) : undefined;
  if (edits === undefined) adoptTranslation(memory, parsed.lang, english, plan.result, glossary);
  await memory.save();
  return { file: target, changed: plan.changed.length };
}
