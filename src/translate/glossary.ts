import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { TRANSLATED_CODES } from '../core/languages.ts';
import type { WrittenGlossary } from './memory.ts';
import { wordsOf } from './inline-markup.ts';

/**
 * `content/glossary.yaml` (optional): terms no engine may translate (product names, code words),
 * sent as placeholders holding the term, and terms with a fixed translation per language, checked
 * in every translated segment (checks.ts). Its digest is part of every memory key, so an edited
 * glossary translates again.
 */
export interface Glossary {
  doNotTranslate: string[];
  /** English term -> language -> its translation. */
  terms: Record<string, Record<string, string>>;
  /** Of both lists, for the memory key (`<provider>:<version>+g<digest>`). */
  digest: string;
  /** Matches a do-not-translate term as a whole word, case as written, in its one capturing group. */
  protect?: RegExp;
}

export const GLOSSARY_FILE = 'glossary.yaml';

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Whole words: no letter, digit or underscore just before or after. Longer terms first, so "Folio CLI" wins over "Folio". */
export function termPattern(terms: readonly string[], flags = 'u'): RegExp | undefined {
  if (terms.length === 0) return undefined;
  const alternatives = [...terms].sort((a, b) => b.length - a.length).map(escapeRegExp);
  return new RegExp(`(?<![\\p{L}\\p{N}_])(${alternatives.join('|')})(?![\\p{L}\\p{N}_])`, flags);
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Undefined without a file, or with one that lists nothing; every problem of the file as one line each, thrown together. */
export async function loadGlossary(contentDir: string): Promise<Glossary | undefined> {
  const file = join(contentDir, GLOSSARY_FILE);
  let data: unknown;
  try {
    data = yaml.load(await readFile(file, 'utf8')) ?? {};
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new Error(`${file}: not YAML (${(e as Error).message.split('\n')[0]})`);
  }
  const problems: string[] = [];
  if (!isRecord(data)) throw new Error(`${file}: must be a mapping with do_not_translate and terms`);
  for (const key of Object.keys(data)) if (!['do_not_translate', 'terms'].includes(key)) problems.push(`${key}: not a known setting (do_not_translate, terms)`);

  const termProblem = (term: string) => (term.trim() === '' ? 'must not be empty' : term.trim() !== term ? 'must not begin or end with a space' : undefined);
  const doNotTranslate: string[] = [];
  const dnt = data.do_not_translate ?? [];
  if (!Array.isArray(dnt)) problems.push('do_not_translate: must be a list of terms, e.g. do_not_translate: [Folio, Markdown]');
  else
    for (const [i, term] of dnt.entries()) {
      const why = typeof term !== 'string' ? 'must be a term (a string)' : termProblem(term) ?? (doNotTranslate.includes(term) ? `"${term}" is listed twice` : undefined);
      if (why) problems.push(`do_not_translate[${i}]: ${why}`);
      else doNotTranslate.push(term as string);
    }

  const terms: Record<string, Record<string, string>> = {};
  const keep = termPattern(doNotTranslate);
  const fixed = data.terms ?? {};
  if (!isRecord(fixed)) problems.push('terms: must map an English term to its translations, e.g. terms: {"translation memory": {fr: "mémoire de traduction"}}');
  else
    for (const [term, byLang] of Object.entries(fixed)) {
      const why =
        termProblem(term) ??
        (doNotTranslate.includes(term) ? 'also in do_not_translate: a term is either kept as it is or translated' : undefined) ??
        (keep?.test(term) ? `holds the do-not-translate term "${keep.exec(term)![1]}", which is never sent: the check could not see it` : undefined) ??
        (!isRecord(byLang) || Object.keys(byLang).length === 0 ? 'must map languages to translations, e.g. {fr: "...", de: "..."}' : undefined);
      if (why) {
        problems.push(`terms.${term}: ${why}`);
        continue;
      }
      terms[term] = {};
      for (const [lang, translation] of Object.entries(byLang as Record<string, unknown>)) {
        if (!TRANSLATED_CODES.includes(lang)) problems.push(`terms.${term}.${lang}: not one of the 13 translated languages (${TRANSLATED_CODES.join(', ')})`);
        else if (typeof translation !== 'string' || termProblem(translation)) problems.push(`terms.${term}.${lang}: must be the translation (a string, not empty, no space around it)`);
        else terms[term]![lang] = translation;
      }
    }
  if (problems.length) throw new Error(problems.map((p) => `${file}: ${p}`).join('\n'));
  if (doNotTranslate.length === 0 && Object.keys(terms).length === 0) return undefined;
  const canonical = JSON.stringify([
    [...doNotTranslate].sort(),
    Object.entries(terms)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([t, l]) => [t, Object.entries(l).sort(([a], [b]) => (a < b ? -1 : 1))]),
  ]);
  return { doNotTranslate, terms, digest: createHash('sha256').update(canonical).digest('base64url').slice(0, 10), protect: keep };
}

/**
 * The memory key of the whole glossary (`<provider>:<version>+g<digest>`): what every segment was
 * keyed by before keys named only the entries a segment holds (segmentEngineKey). Still read, so a
 * memory made then is used, and moved to the new key, as long as the glossary is the same.
 */
export const engineKey = (label: string, glossary: Glossary | undefined) => (glossary ? `${label}+g${glossary.digest}` : label);

const matchers = new Map<string, RegExp>();
/** A fixed term as the check finds it: a whole word, in any case. */
export const fixedTermMatcher = (term: string) => matchers.get(term) ?? matchers.set(term, termPattern([term], 'iu')!).get(term)!;

/** The fixed terms a segment holds (by its words, as the check reads them) with their translation into the language. */
export function fixedTermsIn(glossary: Glossary | undefined, text: string, lang: string): [string, string][] {
  if (!glossary) return [];
  const read = wordsOf(text);
  return Object.entries(glossary.terms).flatMap(([term, byLang]) => (byLang[lang] !== undefined && fixedTermMatcher(term).test(read) ? [[term, byLang[lang]] as [string, string]] : []));
}

/**
 * A segment's memory key in a language: the engine's label and, when the segment holds fixed
 * terms, the digest of their entries into that language (`<provider>:<version>+g<digest>`). An
 * edited entry changes the key of the segments holding its term alone, so only they are sent
 * again; a kept term (do_not_translate) is a placeholder in the segment's text, which is the key's other half.
 */
export function segmentEngineKey(label: string, glossary: Glossary | undefined, lang: string, text: string): string {
  const held = fixedTermsIn(glossary, text, lang).sort(([a], [b]) => (a < b ? -1 : 1));
  return held.length ? `${label}+g${createHash('sha256').update(JSON.stringify(held)).digest('base64url').slice(0, 10)}` : label;
}

/** What a written file records of the glossary it was made with (memory.ts): its digest, the kept terms, and the fixed translations into its language. */
export const writtenRecord = (glossary: Glossary | undefined, lang?: string): WrittenGlossary | undefined =>
  glossary
    ? {
        digest: glossary.digest,
        keep: glossary.doNotTranslate,
        ...(lang === undefined ? {} : { terms: Object.fromEntries(Object.entries(glossary.terms).flatMap(([term, byLang]) => (byLang[lang] === undefined ? [] : [[term, byLang[lang]]]))) }),
      }
    : undefined;

/**
 * A file Folio wrote with another glossary than the current one (or without one): the command
 * translates it again, so an edited glossary reaches every translation. With the file's English
 * (`english`: its words, as raw text) and language, only an edit that touches it counts: a kept
 * term added or removed that the English holds (as written), or a fixed translation into the
 * language added, changed or removed whose term it holds (in any case). A record without its
 * fixed translations (written before they were kept) counts any edit.
 */
export function glossaryChanged(written: WrittenGlossary | undefined, glossary: Glossary | undefined, english?: { text: string; lang: string }): boolean {
  if (written === undefined || written.digest === (glossary?.digest ?? '')) return false;
  if (!english || !written.terms) return true;
  const now = writtenRecord(glossary, english.lang) ?? { digest: '', keep: [], terms: {} };
  const keep = [...written.keep.filter((t) => !now.keep.includes(t)), ...now.keep.filter((t) => !written.keep.includes(t))];
  const before = written.terms;
  const after = now.terms ?? {};
  const fixed = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((t) => before[t] !== after[t]);
  return termPattern(keep)?.test(english.text) === true || fixed.some((t) => fixedTermMatcher(t).test(english.text));
}
