import { createHash } from 'node:crypto';
import type { FileDigests } from '../reuse/file-digests.ts';
import { readdirSync, readFileSync } from 'node:fs';
import { isTempFile } from '../../fs/leftover-temps.ts';
import { readdir } from 'node:fs/promises';
import { extname, join } from 'node:path';
import matter from 'gray-matter';
import yaml from 'js-yaml';
import { ContentErrors, FileError } from './file-error.ts';
import { DEFAULT_LANGUAGE, LANGUAGE_CODES } from '../../core/languages.ts';
import { SLUG_PATTERN } from '../../core/params.ts';
import { Fields } from './front-matter.ts';
import { RESERVED_SLUGS } from './reserved.ts';

/** A post folder as read from disk: front matter validated, bodies untouched. */
export interface SourceFile {
  file: string;
  lang: string;
  format: 'md' | 'html';
  raw: string;
  body: string;
}

export interface EnglishSource extends SourceFile {
  title: string;
  date: string;
  modified?: string;
  author?: string;
  summary?: string;
  categories: string[];
  tags: string[];
  featured_image?: string;
  /** The featured image's alt text (a translation may give its own). */
  featured_image_alt?: string;
  /** Left out of published builds (the whole post): visibility.ts. */
  draft: boolean;
}

export interface TranslationSource extends SourceFile {
  title: string;
  summary?: string;
  modified?: string;
  provider: string | null;
  automated: boolean;
  verified: boolean;
  /** Who reviewed it and on what date (`translations verify`): in the file only, the API's translation object is closed. */
  verified_by?: string;
  verified_at?: string;
  source_hash?: string;
  /** The featured image's alt text in this language; the English one when absent. */
  featured_image_alt?: string;
  /** Left out of published builds (this translation only). */
  draft: boolean;
  /** Where a person's text is kept although the English under it changed (`npm run translate` writes it): published as stale until reviewed. */
  needs_review: string[];
}

/** The English source of a standalone page: a title, an optional summary and modified date, no terms. */
export interface PageEnglishSource extends SourceFile {
  title: string;
  summary?: string;
  modified?: string;
}

/** The source files of a post or page folder. */
export interface FolderSource<E extends PageEnglishSource = EnglishSource> {
  slug: string;
  dir: string;
  english: E;
  translations: TranslationSource[];
  /** Other files in the folder (images, video), by name. */
  assets: string[];
  /** Its language files over LARGE_SOURCE_BYTES: they build slowly, and the build says so. */
  large: { file: string; bytes: number }[];
}

/**
 * A language file above this many bytes gets a warning at build time: rendering, the link check and
 * the search index grow with it (a 6.9 MB post with 40,000 headings took 520 s), and no essay needs it.
 */
export const LARGE_SOURCE_BYTES = 1_000_000;

export type PostSource = FolderSource<EnglishSource>;
export type PageSource = FolderSource<PageEnglishSource>;

const ENGLISH_FIELDS = ['title', 'date', 'modified', 'author', 'summary', 'categories', 'tags', 'featured_image', 'featured_image_alt', 'draft'];
const PAGE_FIELDS = ['title', 'summary', 'modified'];
const TRANSLATION_FIELDS = ['title', 'summary', 'modified', 'provider', 'automated', 'verified', 'verified_by', 'verified_at', 'source_hash', 'featured_image_alt', 'draft', 'needs_review'];

function parse(file: string, raw: string): { data: Record<string, unknown>; body: string } {
  const lines = raw.split(/\r?\n/);
  // gray-matter would read the whole file as front matter and blame a line of the body.
  if (lines[0]?.trimEnd() === '---' && !lines.slice(1).some((line) => line.trimEnd() === '---')) {
    throw new FileError(file, '', 'front matter has no closing --- line: add one after its last field', 1);
  }
  try {
    // No YAML timestamp type: an unquoted date stays the text written, for the calendar check.
    const parsed = matter(raw, { engines: { yaml: (text: string) => yaml.load(text, { schema: yaml.CORE_SCHEMA }) as object } });
    return { data: parsed.data, body: parsed.content.replace(/^\r?\n/, '') };
  } catch (e) {
    const mark = (e as { mark?: { line: number } }).mark;
    throw new FileError(file, '', `front matter is not valid YAML: ${((e as { reason?: string }).reason ?? (e as Error).message).split('\n')[0]}`, mark ? Math.min(mark.line + 2, lines.length) : 1);
  }
}

function readEnglish(file: string, format: 'md' | 'html', raw: string, assets: string[]): EnglishSource {
  const { data, body } = parse(file, raw);
  const f = new Fields(file, data, ENGLISH_FIELDS, raw);
  const c = <T>(read: () => T, fallback: T) => f.collect(read, fallback);
  const featured = c(() => f.optionalString('featured_image'), undefined);
  if (featured !== undefined && !assets.includes(featured)) {
    c(() => f.fail('featured_image', `must name an image file in the post folder (found: ${assets.join(', ') || 'none'})`), undefined);
  }
  const featuredAlt = c(() => f.optionalString('featured_image_alt'), undefined);
  if (featuredAlt !== undefined && featured === undefined) c(() => f.fail('featured_image_alt', 'describes the featured image, but there is no featured_image'), undefined);
  if (body.trim() === '') c(() => f.fail('', 'has an empty body'), undefined);
  const english: EnglishSource = {
    file, lang: DEFAULT_LANGUAGE, format, raw, body,
    title: c(() => f.string('title'), ''),
    date: c(() => f.timestamp('date'), ''),
    modified: c(() => f.optionalTimestamp('modified'), undefined),
    author: c(() => f.optionalString('author'), undefined),
    summary: c(() => f.optionalString('summary'), undefined),
    categories: c(() => f.stringList('categories'), []),
    tags: c(() => f.stringList('tags'), []),
    featured_image: featured,
    featured_image_alt: featuredAlt,
    draft: c(() => f.boolean('draft', false), false),
  };
  f.check();
  return english;
}

function readPageEnglish(file: string, format: 'md' | 'html', raw: string): PageEnglishSource {
  const { data, body } = parse(file, raw);
  const f = new Fields(file, data, PAGE_FIELDS, raw);
  const c = <T>(read: () => T, fallback: T) => f.collect(read, fallback);
  if (body.trim() === '') c(() => f.fail('', 'has an empty body'), undefined);
  const english: PageEnglishSource = {
    file, lang: DEFAULT_LANGUAGE, format, raw, body,
    title: c(() => f.string('title'), ''),
    summary: c(() => f.optionalString('summary'), undefined),
    modified: c(() => f.optionalTimestamp('modified'), undefined),
  };
  f.check();
  return english;
}

function readTranslation(file: string, lang: string, format: 'md' | 'html', raw: string): TranslationSource {
  const { data, body } = parse(file, raw);
  const f = new Fields(file, data, TRANSLATION_FIELDS, raw);
  const c = <T>(read: () => T, fallback: T) => f.collect(read, fallback);
  const hash = c(() => f.optionalString('source_hash'), undefined);
  if (hash !== undefined && !/^sha256:[0-9a-f]{64}$/.test(hash)) c(() => f.fail('source_hash', 'must be sha256:<64 hex digits> (run `npm run translations -- stamp`)'), undefined);
  if (body.trim() === '') c(() => f.fail('', 'has an empty body'), undefined);
  const translation: TranslationSource = {
    file, lang, format, raw, body,
    title: c(() => f.string('title'), ''),
    summary: c(() => f.optionalString('summary'), undefined),
    modified: c(() => f.optionalTimestamp('modified'), undefined),
    provider: data.provider === null ? null : c(() => f.optionalString('provider'), undefined) ?? null,
    automated: c(() => f.boolean('automated', true), true),
    verified: c(() => f.boolean('verified', false), false),
    verified_by: c(() => f.optionalString('verified_by'), undefined),
    verified_at: c(() => f.optionalTimestamp('verified_at'), undefined),
    source_hash: hash,
    featured_image_alt: c(() => f.optionalString('featured_image_alt'), undefined),
    draft: c(() => f.boolean('draft', false), false),
    needs_review: c(() => f.stringList('needs_review'), []),
  };
  f.check();
  return translation;
}

const CONTENT_EXT: Record<string, 'md' | 'html'> = { '.md': 'md', '.html': 'html' };

/** The files of a post folder the build reads (its Markdown and media), by name, sorted. */
const folderFiles = (dir: string) =>
  readdirSync(dir, { withFileTypes: true })
    // A temporary file a killed write left (`<file>.<pid>.tmp`) is no asset: never published.
    .filter((d) => d.isFile() && !d.name.startsWith('.') && !isTempFile(d.name))
    .map((d) => d.name)
    .sort();

/**
 * A digest of everything a post's bundle entry is made from: `context` (what the post takes from its
 * root) and every file of its folder, by name and the digest of its bytes (`digests`: read only when
 * its stat changed since the build's fingerprint read it). Undefined when the folder cannot be read
 * (loadPost then says why).
 */
export function postSource(postsDir: string, slug: string, context: string, digests: FileDigests): { digest: string; assets: string[] } | undefined {
  const dir = join(postsDir, slug);
  try {
    const names = folderFiles(dir);
    const hash = createHash('sha256').update(`${context}\0`);
    for (const name of names) hash.update(`${name}\0${digests.of(join(dir, name))}\0`);
    return { digest: hash.digest('hex'), assets: names.filter((n) => !CONTENT_EXT[extname(n)]) };
  } catch {
    return undefined;
  }
}

export const loadPost = (postsDir: string, slug: string): Promise<PostSource> => loadFolder(postsDir, slug, readEnglish);

export const loadPage = (pagesDir: string, slug: string): Promise<PageSource> => loadFolder(pagesDir, slug, (file, format, raw) => readPageEnglish(file, format, raw));

/** A post or page folder: its English source read by `readSource`, its translations, its other files. */
async function loadFolder<E extends PageEnglishSource>(parent: string, slug: string, readSource: (file: string, format: 'md' | 'html', raw: string, assets: string[]) => E): Promise<FolderSource<E>> {
  const dir = join(parent, slug);
  if (!SLUG_PATTERN.test(slug)) throw new FileError(dir, '', 'is not a valid slug: use lower-case letters, digits and single hyphens');
  if (RESERVED_SLUGS.has(slug)) throw new FileError(dir, '', `uses the reserved slug "${slug}", which collides with a site path; rename the folder`);
  const names = folderFiles(dir);
  const contentFiles = names.filter((n) => CONTENT_EXT[extname(n)]);
  const assets = names.filter((n) => !CONTENT_EXT[extname(n)]);
  // Every file of the folder is read even after an error, so that one build names all of its problems.
  const errors: FileError[] = [];
  const attempt = <T>(work: () => T): T | undefined => {
    try {
      return work();
    } catch (e) {
      if (e instanceof ContentErrors) errors.push(...e.errors);
      else if (e instanceof FileError) errors.push(e);
      else throw e;
      return undefined;
    }
  };
  const byLang = new Map<string, string>();
  for (const name of contentFiles) {
    const lang = name.slice(0, -extname(name).length);
    const file = join(dir, name);
    if (!LANGUAGE_CODES.includes(lang)) errors.push(new FileError(file, '', `is not named for a supported language (${LANGUAGE_CODES.join(', ')})`));
    else if (byLang.has(lang)) errors.push(new FileError(file, '', `duplicates ${byLang.get(lang)} for language "${lang}"`));
    else byLang.set(lang, name);
  }
  const englishName = byLang.get(DEFAULT_LANGUAGE);
  if (!englishName) errors.push(new FileError(dir, '', 'has no English source (en.md or en.html)'));
  const large: { file: string; bytes: number }[] = [];
  // Synchronous: a source is read in microseconds, less than the four trips through libuv's pool
  // (open, stat, read, close) a promised read takes; a build reads 14 a post.
  const read = (name: string) => {
    const text = readFileSync(join(dir, name), 'utf8');
    const bytes = Buffer.byteLength(text);
    if (bytes > LARGE_SOURCE_BYTES) large.push({ file: join(dir, name), bytes });
    return text;
  };
  const formatOf = (name: string) => CONTENT_EXT[extname(name)]!;
  const englishRaw = englishName === undefined ? undefined : read(englishName);
  const english = englishName === undefined ? undefined : attempt(() => readSource(join(dir, englishName), formatOf(englishName), englishRaw!, assets));
  const translations: TranslationSource[] = [];
  for (const [lang, name] of byLang) {
    if (lang === DEFAULT_LANGUAGE) continue;
    const raw = read(name);
    const translation = attempt(() => readTranslation(join(dir, name), lang, formatOf(name), raw));
    if (translation) translations.push(translation);
  }
  if (errors.length > 0 || !english) throw new ContentErrors(errors);
  translations.sort((a, b) => LANGUAGE_CODES.indexOf(a.lang) - LANGUAGE_CODES.indexOf(b.lang));
  return { slug, dir, english, translations, assets, large };
}

/** The folders of posts/ (or pages/); none when the folder is absent and `optional`. */
export async function listPostSlugs(postsDir: string, optional = false): Promise<string[]> {
  const entries = await readdir(postsDir, { withFileTypes: true }).catch((e: NodeJS.ErrnoException) => {
    if (optional && e.code === 'ENOENT') return [];
    throw e;
  });
  return entries.filter((d) => d.isDirectory() && !d.name.startsWith('.')).map((d) => d.name).sort();
}
