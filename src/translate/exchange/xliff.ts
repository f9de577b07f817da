import type { PhrasingContent } from 'mdast';
import { XMLParser } from 'fast-xml-parser';
import { escapeText, inlineMarkdown, renumber } from '../inline-markup.ts';
import { segmentDocument, type DocumentText, type SegmentedDocument, type SegmentOptions } from '../segments.ts';

/**
 * XLIFF 2.1 exchange of one translation with the tools translators use (CAT tools, agencies).
 * One <unit> per segment as `segmentDocument` cuts it; the tagged text's placeholders become
 * protected inline codes: `<x i="n">` a <ph>, a link a <pc type="link">, emphasis a <pc
 * type="fmt">, each with the Markdown it stands for in <originalData>, and the English file kept
 * whole in <skeleton>, so the file is self-contained. Import reads the same shapes back to tagged
 * text, which the translation's own segmentation rebuilds: blocks left alone keep their bytes.
 */
export const XLIFF_NS = 'urn:oasis:names:tc:xliff:document:2.0';

export class ExchangeError extends Error {}

export interface XliffExport {
  slug: string;
  lang: string;
  /** The English file's path, for `original` (e.g. content/posts/<slug>/en.md). */
  original: string;
  /** The English file as it is on disk, kept as the skeleton. */
  englishRaw: string;
  english: DocumentText;
  /** The current translation, if there is one, and whether a person verified it (state final). */
  translation?: { doc: DocumentText; verified: boolean };
  options: SegmentOptions;
}

const FORMAT = { em: 'xlf:i', strong: 'xlf:b', del: 'folio:del' } as const;
const BY_SUBTYPE: Record<string, string> = { 'xlf:i': 'em', 'xlf:b': 'strong', 'folio:del': 'del' };
const TAG = /<(\/?)(em|strong|del|a|x)(?:\s+i="(\d+)")?\s*>/g;

const escapeAttr = (s: string) => escapeText(s).replace(/"/g, '&quot;');
/** Characters XML 1.0 cannot carry at all (control characters), written as a visible mark rather than an invalid file. */
const xmlSafe = (s: string) => s.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/g, '\ufffd');

/** The Markdown a slot stands for: a link as the text before and after its words, anything else whole. */
function slotMarkdown(node: PhrasingContent): string[] {
  if (node.type === 'link' || node.type === 'linkReference') {
    const marked = inlineMarkdown([{ ...node, children: [{ type: 'text', value: 'FOLIOSLOT' }] } as PhrasingContent]);
    const at = marked.indexOf('FOLIOSLOT');
    return [marked.slice(0, at), marked.slice(at + 'FOLIOSLOT'.length)];
  }
  return [inlineMarkdown([node])];
}

/**
 * Which English placeholder each of the translation's stands for: the translation numbers its
 * placeholders in its own order, XLIFF by the source's. Matched by the Markdown they hold, then in order.
 */
export function alignSlots(english: readonly PhrasingContent[], translation: readonly PhrasingContent[]): number[] {
  const en = english.map((n) => slotMarkdown(n).join(''));
  const used = new Set<number>();
  const map = translation.map((node) => {
    const md = slotMarkdown(node).join('');
    const k = en.findIndex((m, i) => !used.has(i) && m === md);
    if (k >= 0) used.add(k);
    return k >= 0 ? k + 1 : 0;
  });
  return map.map((id, k) => {
    if (id) return id;
    const free = en.findIndex((_, i) => !used.has(i));
    if (free < 0) return english.length + k + 1;
    used.add(free);
    return free + 1;
  });
}

/** Tagged text with its placeholder numbers changed through `to` (see alignSlots). */

/** Tagged text as XLIFF inline content. */
function inlineXliff(tagged: string, dataIds: Set<number>): string {
  let out = '';
  let at = 0;
  let fmt = 0;
  const open: string[] = [];
  for (const m of tagged.matchAll(TAG)) {
    out += tagged.slice(at, m.index);
    at = m.index + m[0].length;
    const [, closing, tag, id] = m;
    if (tag === 'x') {
      if (!closing) out += `<ph id="${id}"${dataIds.has(Number(id)) ? ` dataRef="d${id}"` : ''} canCopy="no" canDelete="no"/>`;
      continue;
    }
    if (closing) {
      open.pop();
      out += '</pc>';
    } else if (tag === 'a') {
      open.push(tag);
      const refs = dataIds.has(Number(id)) ? ` dataRefStart="d${id}s" dataRefEnd="d${id}e"` : '';
      out += `<pc id="${id}" type="link"${refs} canCopy="no" canDelete="no">`;
    } else {
      open.push(tag!);
      out += `<pc id="f${++fmt}" type="fmt" subType="${FORMAT[tag as keyof typeof FORMAT]}">`;
    }
  }
  return xmlSafe(out + tagged.slice(at));
}

/** The current translation's segments in the English's placeholder numbering, or undefined when its blocks do not line up. */
export function currentTargets(english: SegmentedDocument, translation: SegmentedDocument): string[] | undefined {
  if (translation.segments.length !== english.segments.length) return undefined;
  return translation.segments.map((s, i) => {
    const map = alignSlots(english.slots(i), translation.slots(i));
    return renumber(s.text, (n) => map[n - 1] ?? n);
  });
}

export function exportXliff(input: XliffExport): { xml: string; aligned: boolean } {
  const english = segmentDocument(input.english, input.options);
  const targets = input.translation ? currentTargets(english, segmentDocument(input.translation.doc, input.options)) : undefined;
  const state = input.translation?.verified ? 'final' : 'translated';
  const units = english.segments.map((segment, i) => {
    const slots = english.slots(i);
    const data = slots.flatMap((node, k) => {
      const md = slotMarkdown(node).map((m) => escapeText(xmlSafe(m)));
      return md.length === 2 ? [`<data id="d${k + 1}s" xml:space="preserve">${md[0]}</data>`, `<data id="d${k + 1}e" xml:space="preserve">${md[1]}</data>`] : [`<data id="d${k + 1}" xml:space="preserve">${md[0]}</data>`];
    });
    const ids = new Set(slots.map((_, k) => k + 1));
    const target = targets?.[i];
    return [
      `  <unit id="u${i + 1}" name="${escapeAttr(segment.where)}">`,
      ...(data.length ? ['   <originalData>', ...data.map((d) => `    ${d}`), '   </originalData>'] : []),
      `   <segment state="${target === undefined ? 'initial' : state}">`,
      `    <source xml:space="preserve">${inlineXliff(segment.text, ids)}</source>`,
      ...(target === undefined ? [] : [`    <target xml:space="preserve">${inlineXliff(target, ids)}</target>`]),
      '   </segment>',
      '  </unit>',
    ].join('\n');
  });
  const xml = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<xliff xmlns="${XLIFF_NS}" version="2.1" srcLang="en" trgLang="${escapeAttr(input.lang)}">`,
    ` <file id="${escapeAttr(input.slug)}" original="${escapeAttr(input.original)}">`,
    `  <skeleton>${escapeText(xmlSafe(input.englishRaw))}</skeleton>`,
    ...units,
    ' </file>',
    '</xliff>',
    '',
  ].join('\n');
  return { xml, aligned: !input.translation || targets !== undefined };
}

export interface XliffUnit {
  id: string;
  /** Tagged text, in the English's placeholder numbering. */
  source: string;
  target?: string;
}

export interface ParsedXliff {
  slug: string;
  lang: string;
  units: XliffUnit[];
}

/** A node as fast-xml-parser reads it with preserveOrder: its name's key, its attributes under ':@'. */
export type XmlNode = Record<string, unknown> & { ':@'?: Record<string, string> };
const parser = new XMLParser({ preserveOrder: true, ignoreAttributes: false, attributeNamePrefix: '', trimValues: false, parseTagValue: false, parseAttributeValue: false, processEntities: true, htmlEntities: true });

export const nameOf = (node: XmlNode) => Object.keys(node).find((k) => k !== ':@')!;
export const childrenOf = (node: XmlNode) => (node[nameOf(node)] as XmlNode[]) ?? [];
export const localName = (name: string) => name.replace(/^.*:/, '');

/** Inline XML content as tagged text: its words escaped, each element as `element` makes it (refusing what it does not know). */
export const inlineTagged = (nodes: XmlNode[], element: (tag: string, attrs: Record<string, string>, node: XmlNode) => string): string =>
  nodes.map((node) => (nameOf(node) === '#text' ? escapeText(String(node['#text'])) : element(localName(nameOf(node)), node[':@'] ?? {}, node))).join('');

/** An exchange file's XML tree; what is not XML is refused in one line. */
export function parseXml(xml: string, file: string): XmlNode[] {
  try {
    return parser.parse(xml) as XmlNode[];
  } catch (e) {
    throw new ExchangeError(`${file}: not XML (${(e as Error).message.split('\n')[0]})`);
  }
}

/** XLIFF inline content back to tagged text; anything Folio did not write there is refused, naming the unit. */
function taggedText(nodes: XmlNode[], unit: string): string {
  return inlineTagged(nodes, (tag, attrs, node) => {
    const id = attrs.id ?? '';
    if (tag === 'ph') {
      if (!/^\d+$/.test(id)) throw new ExchangeError(`unit ${unit}: a <ph> with id "${id}" that no source placeholder has`);
      return `<x i="${id}"></x>`;
    }
    if (tag === 'pc' && attrs.type === 'link') {
      if (!/^\d+$/.test(id)) throw new ExchangeError(`unit ${unit}: a link <pc> with id "${id}" that no source link has`);
      return `<a i="${id}">${taggedText(childrenOf(node), unit)}</a>`;
    }
    const format = tag === 'pc' ? BY_SUBTYPE[attrs.subType ?? ''] : undefined;
    if (format) return `<${format}>${taggedText(childrenOf(node), unit)}</${format}>`;
    throw new ExchangeError(`unit ${unit}: <${tag}> is not an inline element Folio writes (ph, pc)`);
  });
}

export function parseXliff(xml: string, file: string): ParsedXliff {
  const root = parseXml(xml, file).find((n) => localName(nameOf(n)) === 'xliff');
  if (!root || !String(root[':@']?.version ?? '').startsWith('2.')) throw new ExchangeError(`${file}: not an XLIFF 2 file (an <xliff version="2.x"> root)`);
  const files = childrenOf(root).filter((n) => localName(nameOf(n)) === 'file');
  if (files.length !== 1) throw new ExchangeError(`${file}: holds ${files.length} <file> elements; Folio writes one per translation`);
  const lang = root[':@']?.trgLang;
  if (!lang) throw new ExchangeError(`${file}: no trgLang on <xliff>: which language is it?`);
  const units = childrenOf(files[0]!)
    .filter((n) => localName(nameOf(n)) === 'unit')
    .map((unit): XliffUnit => {
      const id = unit[':@']?.id ?? '?';
      const segments = childrenOf(unit).filter((n) => localName(nameOf(n)) === 'segment');
      if (segments.length !== 1) throw new ExchangeError(`${file}: unit ${id} has ${segments.length} segments; Folio writes one (do not split or join its segments)`);
      const part = (name: string) => childrenOf(segments[0]!).find((n) => localName(nameOf(n)) === name);
      const source = part('source');
      if (!source) throw new ExchangeError(`${file}: unit ${id} has no <source>`);
      const target = part('target');
      return { id, source: taggedText(childrenOf(source), id), ...(target ? { target: taggedText(childrenOf(target), id) } : {}) };
    });
  return { slug: String(files[0]![':@']?.id ?? ''), lang, units };
}

export interface ImportPlan {
  /** The translation to write, or undefined when nothing changed. */
  result?: DocumentText;
  /** Indexes of the segments the file changes. */
  changed: number[];
}

/**
 * The translation an imported file makes. Every unit's source must be the current English
 * segment (else the English changed since export: refused, naming the unit). With a current
 * translation that lines up, only the segments whose target differs are rebuilt, through the
 * translation's own segmentation, so every other byte stays; without one, every unit needs a target.
 */
export function planImport(parsed: ParsedXliff, file: string, english: DocumentText, translation: DocumentText | undefined, options: SegmentOptions): ImportPlan {
  const en = segmentDocument(english, options);
  const stale = (id: string) => new ExchangeError(`${file}: unit ${id} does not match the current English (it changed since export): export again and carry the work over`);
  for (const [i, segment] of en.segments.entries()) {
    const unit = parsed.units[i];
    if (!unit || unit.id !== `u${i + 1}` || unit.source !== segment.text) throw stale(unit?.id ?? `u${i + 1}`);
  }
  if (parsed.units.length > en.segments.length) throw stale(parsed.units[en.segments.length]!.id);

  const tr = translation ? segmentDocument(translation, options) : undefined;
  const current = tr ? currentTargets(en, tr) : undefined;
  const changed: number[] = [];
  if (tr && current) {
    const texts = parsed.units.map((unit, i) => {
      if (unit.target === undefined || unit.target === current[i]) return undefined;
      // Back to the translation's own numbering, where its placeholders are.
      const map = alignSlots(en.slots(i), tr.slots(i));
      const back = new Map(map.map((id, k) => [id, k + 1]));
      const text = renumber(unit.target, (n) => back.get(n) ?? n);
      const problem = tr.problem(i, text);
      if (problem) throw new ExchangeError(`${file}: unit ${unit.id} (${en.segments[i]!.where}): ${problem}`);
      changed.push(i);
      return text;
    });
    return changed.length ? { result: tr.rebuild(texts), changed } : { changed };
  }
  const texts = parsed.units.map((unit, i) => {
    if (unit.target === undefined) throw new ExchangeError(`${file}: unit ${unit.id} (${en.segments[i]!.where}) has no <target>, and there is no translation lining up with the English to keep it from`);
    const problem = en.problem(i, unit.target);
    if (problem) throw new ExchangeError(`${file}: unit ${unit.id} (${en.segments[i]!.where}): ${problem}`);
    changed.push(i);
    return unit.target;
  });
  return { result: en.rebuild(texts), changed };
}
