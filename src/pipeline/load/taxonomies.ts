import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { ContentErrors, FileError } from './file-error.ts';
import { slugify } from './slugify.ts';
import { TRANSLATED_CODES } from '../../core/languages.ts';
import type { TaxonomyKind, TermNames } from '../../core/types.ts';

export const TAXONOMIES_FILE = 'taxonomies.yaml';

export const KINDS: readonly TaxonomyKind[] = ['categories', 'tags'];
const NOUN: Record<TaxonomyKind, string> = { categories: 'category', tags: 'tag' };

/** The slugs each taxonomy's terms have in the posts: what the file may name. */
export type UsedTerms = Record<TaxonomyKind, ReadonlySet<string>>;

/** The terms in use, from each taxonomy's slugs (with repeats). */
export const usedTerms = (slugs: (kind: TaxonomyKind) => readonly string[]): UsedTerms => ({ categories: new Set(slugs('categories')), tags: new Set(slugs('tags')) });

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The line (1-based) of `key:` at or after line `from` (0-based), quoted or not: js-yaml keeps no
 * positions, and an author needs the line to fix the entry.
 */
function keyLine(lines: readonly string[], key: string, from: number): number {
  const pattern = new RegExp(`^\\s*(["']?)${escape(key)}\\1\\s*:`);
  const at = lines.findIndex((line, i) => i >= from && pattern.test(line));
  return at < 0 ? from + 1 : at + 1;
}

/**
 * `taxonomies.yaml` of a content root: each category's and tag's name per language, keyed by its
 * English name (or slug) as the posts write it. Optional: without it every term reads its English
 * name. Every error of the file is reported at once, `file:line: field: what is wrong`.
 */
export async function loadTermNames(root: string, used: UsedTerms): Promise<TermNames> {
  const names: TermNames = { categories: {}, tags: {} };
  const file = join(root, TAXONOMIES_FILE);
  const raw = await readFile(file, 'utf8').catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return undefined;
    throw e;
  });
  if (raw === undefined) return names;
  let data: unknown;
  try {
    data = yaml.load(raw, { schema: yaml.CORE_SCHEMA });
  } catch (e) {
    const mark = (e as { mark?: { line: number } }).mark;
    throw new FileError(file, '', `is not valid YAML: ${((e as { reason?: string }).reason ?? (e as Error).message).split('\n')[0]}`, mark ? mark.line + 1 : undefined);
  }
  if (data === null || data === undefined) return names;
  const isMapping = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (!isMapping(data)) throw new FileError(file, '', 'must be a mapping with `categories:` and `tags:`', 1);
  const lines = raw.split(/\r?\n/);
  const errors: FileError[] = [];
  const fail = (field: string, expected: string, line: number) => errors.push(new FileError(file, field, expected, line));
  for (const key of Object.keys(data)) {
    if (!(KINDS as readonly string[]).includes(key)) fail(key, 'is not a taxonomy: use `categories:` or `tags:`', keyLine(lines, key, 0));
  }
  for (const kind of KINDS) {
    const section = data[kind];
    if (section === undefined || section === null) continue;
    const kindLine = keyLine(lines, kind, 0);
    if (!isMapping(section)) {
      fail(kind, `must map each ${NOUN[kind]}'s English name to its names by language code`, kindLine);
      continue;
    }
    for (const [term, byLang] of Object.entries(section)) {
      const field = `${kind}.${term}`;
      const termLine = keyLine(lines, term, kindLine);
      const slug = slugify(term);
      if (!used[kind].has(slug)) {
        fail(field, `is not a ${NOUN[kind]} of any post (the posts' ${kind}: ${[...used[kind]].sort().join(', ') || 'none'})`, termLine);
        continue;
      }
      if (names[kind][slug]) {
        fail(field, `names the ${NOUN[kind]} "${slug}" a second time`, termLine);
        continue;
      }
      if (!isMapping(byLang)) {
        fail(field, 'must map language codes to names, e.g. `fr: Technique`', termLine);
        continue;
      }
      const own: Record<string, string> = {};
      for (const [code, name] of Object.entries(byLang)) {
        const line = keyLine(lines, code, termLine);
        if (!TRANSLATED_CODES.includes(code)) fail(`${field}.${code}`, `is not a translated language code (one of ${TRANSLATED_CODES.join(', ')}; the English name is the posts' own)`, line);
        else if (typeof name !== 'string' || name.trim() === '') fail(`${field}.${code}`, 'must be a non-empty name', line);
        else own[code] = name.trim();
      }
      names[kind][slug] = own;
    }
  }
  if (errors.length > 0) throw new ContentErrors(errors);
  return names;
}

/** How many of the terms in use have no name of their own in each translated language. */
export function missingTermNames(names: TermNames, used: UsedTerms): Record<string, number> {
  return Object.fromEntries(TRANSLATED_CODES.map((code) => [code, KINDS.reduce((n, kind) => n + [...used[kind]].filter((slug) => !names[kind][slug]?.[code]).length, 0)]));
}
