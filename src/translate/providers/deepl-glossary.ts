import { createHash } from 'node:crypto';
import { GlossaryEntries, type DeepLClient, type GlossaryInfo, type LanguageCode } from 'deepl-node';
import type { Glossary } from '../glossary.ts';

/**
 * The glossary's fixed translations as DeepL glossaries (API v2, one per language pair, through
 * deepl-node): DeepL then uses the term as given, inflected where the language needs it, instead
 * of Folio only checking afterwards that it came out. Do-not-translate terms stay placeholders,
 * which DeepL never sees as words. A glossary's name holds a digest of its entries, so an
 * unchanged glossary is found in the account's list and reused, and an edited one is created anew.
 */

/** DeepL keys glossaries by the language without its region (pt, zh): Folio's code as DeepL's glossary language. */
const glossaryLang = (lang: string) => lang.split('-')[0]!.toLowerCase();

/** The fixed translations into `lang`, English term -> translation; empty when the glossary has none for it. */
export function entriesFor(glossary: Glossary | undefined, lang: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [term, byLang] of Object.entries(glossary?.terms ?? {})) if (byLang[lang] !== undefined) out[term] = byLang[lang];
  return out;
}

/** `folio-en-<lang>-<digest of the entries>`: the same entries give the same name on every machine. */
export function glossaryName(lang: string, entries: Record<string, string>): string {
  const canonical = JSON.stringify(Object.entries(entries).sort(([a], [b]) => (a < b ? -1 : 1)));
  return `folio-en-${glossaryLang(lang)}-${createHash('sha256').update(canonical).digest('base64url').slice(0, 12)}`;
}

/**
 * The DeepL glossary id for each language, made on the first translation into it: the account's
 * list is read once per run, and a glossary is created only when none there has the name.
 */
export function deeplGlossaries(client: DeepLClient, glossary: Glossary | undefined): (lang: string) => Promise<string | undefined> {
  let listed: Promise<GlossaryInfo[]> | undefined;
  const ids = new Map<string, string>();
  return async (lang) => {
    const entries = entriesFor(glossary, lang);
    if (Object.keys(entries).length === 0) return undefined;
    const known = ids.get(lang);
    if (known) return known;
    const name = glossaryName(lang, entries);
    // A failed listing (a 429) is asked again on the next attempt, not remembered.
    listed ??= client.listGlossaries().catch((e: unknown) => {
      listed = undefined;
      throw e;
    });
    const found = (await listed).find((g) => g.name === name && g.ready && g.sourceLang === 'en' && g.targetLang === glossaryLang(lang));
    const made = found ?? (await client.createGlossary(name, 'en', glossaryLang(lang) as LanguageCode, new GlossaryEntries({ entries })));
    ids.set(lang, made.glossaryId);
    return made.glossaryId;
  };
}
