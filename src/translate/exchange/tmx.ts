import { join } from 'node:path';
import type { FolderSource, PageEnglishSource } from '../../pipeline/load/posts.ts';
import type { Glossary } from '../glossary.ts';
import { MEMORY_FILE, TranslationMemory } from '../memory.ts';
import { documentText, segmentDocument } from '../segments.ts';
import { TRANSLATED_CODES } from '../../core/languages.ts';
import { childrenOf, currentTargets, ExchangeError, inlineTagged, nameOf, parseXml, type XmlNode } from './xliff.ts';
import { importUnits } from './xliff-post.ts';

/**
 * The translation memory as TMX 1.4b, for any CAT tool. The memory keys segments by a digest of
 * their English, so what can be shared is what the translations hold now: every English segment of
 * every post and page with its text in each translation that lines up with the English, one <tu>
 * per English segment, its translations side by side. A segment a person wrote (the memory's
 * human corrections) carries `<prop type="x-folio-author">person</prop>` in its <tuv>.
 * Inline markup as TMX codes: a placeholder an empty <ph x="n"/>, a link a <bpt type="link"
 * x="n"/>…<ept/> pair, emphasis a bold/italic/strike pair. Import (importTmx) reads them back.
 */
type Translatable = FolderSource<PageEnglishSource>;

const TAG = /<(\/?)(em|strong|del|a|x)(?:\s+i="(\d+)")?\s*>/g;
const TYPE = { em: 'italic', strong: 'bold', del: 'strike', a: 'link' } as const;

function tmxInline(tagged: string): string {
  let out = '';
  let at = 0;
  let pair = 0;
  const open: number[] = [];
  for (const m of tagged.matchAll(TAG)) {
    out += tagged.slice(at, m.index);
    at = m.index + m[0].length;
    const [, closing, tag, id] = m;
    if (tag === 'x') {
      if (!closing) out += `<ph x="${id}"/>`;
    } else if (closing) out += `<ept i="${open.pop()}"/>`;
    else {
      open.push(++pair);
      out += `<bpt i="${pair}"${id ? ` x="${id}"` : ''} type="${TYPE[tag as keyof typeof TYPE]}"/>`;
    }
  }
  return out + tagged.slice(at);
}

export async function exportTmx(all: readonly Translatable[], glossary: Glossary | undefined): Promise<{ xml: string; units: number }> {
  const options = { protect: glossary?.protect };
  /** English segment -> its units: language -> [text, by a person]. One English translated two ways (in two posts) is two units. */
  const units = new Map<string, Map<string, [string, boolean]>[]>();
  for (const post of all) {
    if (post.english.format !== 'md') continue;
    const english = segmentDocument(documentText(post.english, post.english.body), options);
    const memory = await TranslationMemory.open(join(post.dir, MEMORY_FILE));
    for (const t of post.translations) {
      if (t.format !== 'md') continue;
      const targets = currentTargets(english, segmentDocument(documentText(t, t.body), options));
      if (!targets) continue;
      for (const [i, segment] of english.segments.entries()) {
        const list = units.get(segment.text) ?? [];
        units.set(segment.text, list);
        if (list.some((byLang) => byLang.get(t.lang)?.[0] === targets[i])) continue;
        const free = list.find((byLang) => !byLang.has(t.lang)) ?? list[list.push(new Map()) - 1]!;
        free.set(t.lang, [targets[i]!, memory.lookup(segment.text, t.lang, '')?.human === true]);
      }
    }
  }
  const tus = [...units].flatMap(([source, list]) => list.map((byLang) => [source, byLang] as const)).map(([source, byLang]) =>
    [
      '  <tu>',
      `   <tuv xml:lang="en"><seg>${tmxInline(source)}</seg></tuv>`,
      ...[...byLang].map(([lang, [text, human]]) => `   <tuv xml:lang="${lang}">${human ? '<prop type="x-folio-author">person</prop>' : ''}<seg>${tmxInline(text)}</seg></tuv>`),
      '  </tu>',
    ].join('\n'),
  );
  const xml = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<tmx version="1.4">',
    ' <header creationtool="Folio" creationtoolversion="2" segtype="block" o-tmf="folio-memory" adminlang="en" srclang="en" datatype="html"/>',
    ' <body>',
    ...tus,
    ' </body>',
    '</tmx>',
    '',
  ].join('\n');
  return { xml, units: tus.length };
}

const BY_TYPE: Record<string, string> = { italic: 'em', bold: 'strong', strike: 'del' };

/** TMX inline content back to tagged text; a code Folio does not write is refused, naming the unit. */
function taggedText(nodes: XmlNode[], unit: string): string {
  const open = new Map<string, string>();
  return inlineTagged(nodes, (tag, attrs) => {
    if (tag === 'ph' && /^\d+$/.test(attrs.x ?? '')) return `<x i="${attrs.x}"></x>`;
    if (tag === 'bpt') {
      const html = attrs.type === 'link' && /^\d+$/.test(attrs.x ?? '') ? `a i="${attrs.x}"` : BY_TYPE[attrs.type ?? ''];
      if (!html) throw new ExchangeError(`${unit}: a <bpt type="${attrs.type ?? ''}"> Folio does not write (link with x, italic, bold, strike)`);
      open.set(attrs.i ?? '', html.split(' ')[0]!);
      return `<${html}>`;
    }
    if (tag === 'ept' && open.has(attrs.i ?? '')) return `</${open.get(attrs.i ?? '')}>`;
    throw new ExchangeError(`${unit}: <${tag}> is not an inline code Folio writes (ph with x, bpt, ept)`);
  });
}

/** A TMX file's units: English segment (tagged text) -> language -> its texts (more than one where units share an English). */
export function parseTmx(xml: string, file: string): Map<string, Map<string, string[]>> {
  const root = parseXml(xml, file).find((n) => nameOf(n) === 'tmx');
  const body = root && childrenOf(root).find((n) => nameOf(n) === 'body');
  if (!body) throw new ExchangeError(`${file}: not a TMX file (a <tmx> root with a <body>)`);
  const units = new Map<string, Map<string, string[]>>();
  for (const [k, tu] of childrenOf(body).filter((n) => nameOf(n) === 'tu').entries()) {
    const where = `${file}: translation unit ${k + 1}`;
    const texts = new Map<string, string>();
    for (const tuv of childrenOf(tu).filter((n) => nameOf(n) === 'tuv')) {
      const lang = (tuv[':@']?.['xml:lang'] ?? tuv[':@']?.lang ?? '').toLowerCase();
      const seg = childrenOf(tuv).find((n) => nameOf(n) === 'seg');
      if (!seg) continue;
      if (lang !== 'en' && !TRANSLATED_CODES.includes(lang)) throw new ExchangeError(`${where}: xml:lang "${lang}" is not English nor one of the 13 translated languages (${TRANSLATED_CODES.join(', ')})`);
      texts.set(lang, taggedText(childrenOf(seg), where));
    }
    const english = texts.get('en');
    if (english === undefined) throw new ExchangeError(`${where}: has no English (xml:lang="en") <tuv>`);
    texts.delete('en');
    const byLang = units.get(english) ?? new Map<string, string[]>();
    units.set(english, byLang);
    for (const [lang, text] of texts) byLang.set(lang, [...(byLang.get(lang) ?? []), text]);
  }
  return units;
}

/**
 * Takes a TMX file's translations into the posts and pages whose English segments it holds (the
 * source must be the current English segment, as written), as a person's work, through the same
 * writer as an XLIFF import (importUnits): only segments whose text differs from the file's are
 * rebuilt, so a TMX exported and imported unchanged writes nothing. A translation the TMX does not
 * cover whole, with no file lining up with the English to keep the rest from, is left as it is and named.
 */
export async function importTmx(all: readonly Translatable[], file: string, xml: string, glossary: Glossary | undefined): Promise<{ changed: number; files: string[]; skipped: string[] }> {
  const units = parseTmx(xml, file);
  const langs = [...new Set([...units.values()].flatMap((byLang) => [...byLang.keys()]))];
  const options = { protect: glossary?.protect };
  const out = { changed: 0, files: [] as string[], skipped: [] as string[] };
  for (const post of all) {
    if (post.english.format !== 'md') continue;
    const english = segmentDocument(documentText(post.english, post.english.body), options);
    for (const lang of langs) {
      const existing = post.translations.find((t) => t.lang === lang && t.format === 'md');
      const current = existing ? currentTargets(english, segmentDocument(documentText(existing, existing.body), options)) : undefined;
      // Of several texts for one English, the one the translation holds is no change; else the first.
      const targets = english.segments.map((s, i) => {
        const texts = units.get(s.text)?.get(lang);
        return texts?.includes(current?.[i] ?? '\0') ? current![i] : texts?.[0];
      });
      if (targets.every((t) => t === undefined)) continue;
      const parsed = { slug: post.slug, lang, units: english.segments.map((s, i) => ({ id: `u${i + 1}`, source: s.text, ...(targets[i] === undefined ? {} : { target: targets[i] }) })) };
      try {
        const done = await importUnits(post, parsed, file, glossary);
        if (done.changed) out.files.push(done.file);
        out.changed += done.changed;
      } catch (e) {
        // Not covered whole, and no file to keep the rest from: the others are still taken.
        if (!(e instanceof ExchangeError) || !/has no <target>/.test(e.message)) throw e;
        out.skipped.push(`${post.slug} ${lang}: the TMX has ${targets.filter((t) => t !== undefined).length} of its ${targets.length} segments and there is no ${lang} file lining up with the English to keep the rest from`);
      }
    }
  }
  return out;
}
