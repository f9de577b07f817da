import { readFile, writeFile } from 'node:fs/promises';
import { TRANSLATED_CODES } from '../core/languages.ts';
import type { TranslationState } from '../core/types.ts';
import { sourceHash } from '../pipeline/derive/source-hash.ts';
import { listPostSlugs, loadPage, loadPost, type FolderSource, type PageEnglishSource, type PostSource } from '../pipeline/load/posts.ts';

/** A post or standalone page: what has translations to stamp. */
type Translatable = FolderSource<PageEnglishSource>;
import { loadTermNames, missingTermNames, usedTerms } from '../pipeline/load/taxonomies.ts';
import { slugify } from '../pipeline/load/slugify.ts';
import { join } from 'node:path';
import { glossaryChanged, type Glossary } from './glossary.ts';
import { MEMORY_FILE, TranslationMemory } from './memory.ts';
import { documentText } from './segments.ts';
import { segmentTexts } from './translate-post.ts';

/** The author's view of translations: state per post and language, and stamping. */
export interface StatusRow {
  slug: string;
  states: Record<string, TranslationState | 'unstamped'>;
}

export async function loadAll(contentDir: string): Promise<PostSource[]> {
  const dir = join(contentDir, 'posts');
  return Promise.all((await listPostSlugs(dir)).map((slug) => loadPost(dir, slug)));
}

/** The standalone pages of a content root (none without a pages/ folder). */
export async function loadPages(contentDir: string): Promise<FolderSource<PageEnglishSource>[]> {
  const dir = join(contentDir, 'pages');
  return Promise.all((await listPostSlugs(dir, true)).map((slug) => loadPage(dir, slug)));
}

export function status(post: Translatable): StatusRow {
  const hash = sourceHash(post.english.title, post.english.body);
  const states: StatusRow['states'] = {};
  for (const code of TRANSLATED_CODES) {
    const t = post.translations.find((x) => x.lang === code);
    states[code] = !t ? 'missing' : !t.source_hash ? 'unstamped' : t.source_hash === hash ? 'available' : 'stale';
  }
  return { slug: post.slug, states };
}

/**
 * A translation's state as `translate` takes it: an available file Folio wrote with another
 * glossary is `glossary`, and one written from segments the English no longer has (its summary or
 * cover alt text edited or added: neither is in the source hash) is stale, as is one whose English
 * changed. `sources` are the English's segments as the memory keys them; `english`, its words as
 * raw text: given, a glossary edit counts only where it touches them (glossary.ts glossaryChanged).
 */
export function translateState(state: StatusRow['states'][string], memory: TranslationMemory, lang: string, sources: readonly string[], glossary: Glossary | undefined, english?: string): StatusRow['states'][string] | 'glossary' {
  if (state !== 'available') return state;
  if (glossaryChanged(memory.writtenGlossary(lang), glossary, english === undefined ? undefined : { text: english, lang })) return 'glossary';
  return (memory.staleCount(lang, sources) ?? 0) > 0 ? 'stale' : state;
}

/** One translation as `translations status` and the review index show it. */
export interface TranslationMark {
  state: StatusRow['states'][string] | 'glossary';
  /** Segments the English changed since Folio wrote a stale file (what `translate` sends again), where it knows. */
  changed?: number;
  /** A person's texts kept under a changed English (needs_review) of an available file. */
  review: number;
}

/**
 * Each language's mark for a post or page: its state as `translate` takes it (translateState), with the
 * number of changed segments of a stale file and of texts awaiting review. Reads the post's memory.
 */
export async function translationMarks(post: Translatable, glossary: Glossary | undefined): Promise<Record<string, TranslationMark>> {
  const states = status(post).states;
  const memory = await TranslationMemory.open(join(post.dir, MEMORY_FILE));
  const sources = post.english.format === 'md' ? segmentTexts(documentText(post.english, post.english.body), { protect: glossary?.protect }) : [];
  const marks: Record<string, TranslationMark> = {};
  for (const lang of TRANSLATED_CODES) {
    const state = translateState(states[lang]!, memory, lang, sources, glossary, englishText(post));
    const review = state === 'available' ? (post.translations.find((t) => t.lang === lang)?.needs_review.length ?? 0) : 0;
    const changed = state === 'stale' ? memory.staleCount(lang, sources) : undefined;
    marks[lang] = { state, review, ...(changed === undefined ? {} : { changed }) };
  }
  return marks;
}

/** A post's English words as raw text (title, summary, cover alt text and body), where a glossary edit is looked for. */
export const englishText = (post: Translatable) => [post.english.title, post.english.summary ?? '', 'featured_image_alt' in post.english ? String(post.english.featured_image_alt ?? '') : '', post.english.body].join('\n');

/** Sets fields of a translation's front matter (each replacing where it is written) and removes `remove`, and returns the file. */
async function setFields(post: Translatable, lang: string, fields: Record<string, string>, remove: string[] = []): Promise<string> {
  const t = post.translations.find((x) => x.lang === lang);
  if (!t) throw new Error(`${post.slug} has no ${lang} translation`);
  const raw = await readFile(t.file, 'utf8');
  const end = raw.indexOf('\n---', 3);
  if (!raw.startsWith('---') || end < 0) throw new Error(`${t.file}: no front matter to change`);
  let head = raw.slice(0, end);
  for (const f of [...Object.keys(fields), ...remove]) head = head.replace(new RegExp(`\\n${f}:.*$`, 'm'), '');
  await writeFile(t.file, `${head}${Object.entries(fields).map(([f, v]) => `\n${f}: ${v}`).join('')}${raw.slice(end)}`);
  return t.file;
}

/** Writes `source_hash` into the translation's front matter, replacing an earlier one. */
export const stamp = (post: Translatable, lang: string): Promise<string> => setFields(post, lang, { source_hash: `"${sourceHash(post.english.title, post.english.body)}"` });

/** Who reviewed a translation and when (`verified_by`, `verified_at`): kept in the file only, the API's translation object being closed. */
export interface Review {
  by: string;
  /** An ISO date, YYYY-MM-DD. */
  at: string;
}

/** Why a translation may not be verified as it is (its English changed since: a review would approve outdated text), or undefined. */
export function verifyRefusal(post: Translatable, lang: string): string | undefined {
  const t = post.translations.find((x) => x.lang === lang);
  if (!t || status(post).states[lang] !== 'stale') return undefined;
  return `${t.file} is stale (its source_hash is not the current English's): bring it up to date (npm run translate -- ${post.slug} --lang ${lang}, or edit it and stamp it), then verify; --force verifies it anyway`;
}

/**
 * Records that a person has reviewed the translation (`verified: true`, which the API reports),
 * who and when (`verified_by`, `verified_at`, in the file only). A person's text kept under a
 * changed English (`needs_review`) is approved with it: the memory records it as theirs for the
 * current English (first, so a run killed between the two writes still finds it a person's), and
 * the flag goes. The caller refuses a stale file first (verifyRefusal) unless told otherwise.
 */
export async function verify(post: Translatable, lang: string, review: Review): Promise<string> {
  const memory = await TranslationMemory.open(join(post.dir, MEMORY_FILE));
  if (memory.approveReviews(lang)) await memory.save();
  return setFields(post, lang, { verified: 'true', verified_by: JSON.stringify(review.by), verified_at: `"${review.at}"` }, ['needs_review']);
}

/** Per translated language, how many categories and tags in use have no name of their own there (content/taxonomies.yaml). */
export async function termNameGaps(contentDir: string, posts: readonly PostSource[]): Promise<Record<string, number>> {
  const used = usedTerms((kind) => posts.flatMap((p) => p.english[kind].map(slugify)));
  return missingTermNames(await loadTermNames(contentDir, used), used);
}
