import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { XMLParser } from 'fast-xml-parser';
import { TRANSLATED_CODES } from '../../core/languages.ts';
import { writeWhole } from '../../fs/write-whole.ts';
import { escapeText } from '../inline-markup.ts';
import { GLOSSARY_FILE, loadGlossary } from '../glossary.ts';
import { ExchangeError } from './xliff.ts';

/**
 * The glossary (content/glossary.yaml, see glossary.ts) as terminology tools exchange it: TBX v3
 * (TBX-Core dialect, ISO 30042:2019) and CSV. A do-not-translate term is an English term whose
 * entry carries the note `do-not-translate` (TBX) or `yes` in the `do_not_translate` column (CSV).
 * Import replaces the glossary's lists and checks them as `translate` does; a file that says what
 * the glossary already says writes nothing, so its comments stay.
 */
export interface GlossaryLists {
  doNotTranslate: string[];
  /** English term -> language -> its translation. */
  terms: Record<string, Record<string, string>>;
}

const DNT_NOTE = 'do-not-translate';
const TBX_NS = 'urn:iso:std:iso:30042:ed-2';

export async function glossaryLists(root: string): Promise<GlossaryLists> {
  const g = await loadGlossary(root);
  return { doNotTranslate: g?.doNotTranslate ?? [], terms: g?.terms ?? {} };
}

export function toTbx(lists: GlossaryLists): string {
  const term = (lang: string, text: string, note?: string) =>
    `    <langSec xml:lang="${lang}"><termSec><term>${escapeText(text)}</term>${note ? `<note>${note}</note>` : ''}</termSec></langSec>`;
  const entries = [
    ...lists.doNotTranslate.map((t) => [term('en', t, DNT_NOTE)]),
    ...Object.entries(lists.terms).map(([t, byLang]) => [term('en', t), ...Object.entries(byLang).map(([lang, tr]) => term(lang, tr))]),
  ].map((langSecs, i) => [`   <conceptEntry id="c${i + 1}">`, ...langSecs, '   </conceptEntry>'].join('\n'));
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<tbx type="TBX-Core" style="dca" xml:lang="en" xmlns="${TBX_NS}">`,
    ' <tbxHeader><fileDesc><sourceDesc><p>Folio glossary (content/glossary.yaml)</p></sourceDesc></fileDesc></tbxHeader>',
    ' <text>',
    '  <body>',
    ...entries,
    '  </body>',
    ' </text>',
    '</tbx>',
    '',
  ].join('\n');
}

const asArray = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
const tbxParser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', removeNSPrefix: true, parseTagValue: false, trimValues: true, isArray: (name) => ['conceptEntry', 'langSec', 'termSec', 'note'].includes(name) });

export function fromTbx(xml: string, file: string): GlossaryLists {
  let doc: Record<string, any>;
  try {
    doc = tbxParser.parse(xml);
  } catch (e) {
    throw new ExchangeError(`${file}: not XML (${(e as Error).message.split('\n')[0]})`);
  }
  if (!doc.tbx) throw new ExchangeError(`${file}: not a TBX file (no <tbx> root)`);
  const lists: GlossaryLists = { doNotTranslate: [], terms: {} };
  for (const [i, entry] of asArray<any>(doc.tbx.text?.body?.conceptEntry).entries()) {
    const secs = asArray<any>(entry.langSec).map((s) => ({ lang: String(s['@lang'] ?? ''), sec: asArray<any>(s.termSec)[0] }));
    const en = secs.find((s) => s.lang === 'en');
    const text = (sec: any) => String(sec?.term?.['#text'] ?? sec?.term ?? '');
    if (!en) throw new ExchangeError(`${file}: concept entry ${entry['@id'] ?? i + 1} has no English (xml:lang="en") term`);
    const notes = asArray<any>(en.sec?.note).map(String);
    if (notes.includes(DNT_NOTE)) lists.doNotTranslate.push(text(en.sec));
    else lists.terms[text(en.sec)] = Object.fromEntries(secs.filter((s) => s !== en).map((s) => [s.lang, text(s.sec)]));
  }
  return lists;
}

const csvField = (s: string) => (/[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);

export function toCsv(lists: GlossaryLists): string {
  const header = ['term', 'do_not_translate', ...TRANSLATED_CODES];
  const rows = [
    ...lists.doNotTranslate.map((t) => [t, 'yes', ...TRANSLATED_CODES.map(() => '')]),
    ...Object.entries(lists.terms).map(([t, byLang]) => [t, '', ...TRANSLATED_CODES.map((c) => byLang[c] ?? '')]),
  ];
  return [header, ...rows].map((r) => r.map(csvField).join(',')).join('\r\n') + '\r\n';
}

/** RFC 4180: quoted fields may hold commas, quotes (doubled) and line breaks. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') (field += '"'), i++;
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === ',') row.push(field), (field = '');
    else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field), rows.push(row), (row = []), (field = '');
    } else field += c;
  }
  if (field !== '' || row.length) row.push(field), rows.push(row);
  return rows.filter((r) => r.some((f) => f !== ''));
}

export function fromCsv(text: string, file: string): GlossaryLists {
  const [header, ...rows] = parseCsv(text.replace(/^\ufeff/, ''));
  if (!header || header[0] !== 'term') throw new ExchangeError(`${file}: its first line must name the columns: term, do_not_translate, then language codes`);
  const lists: GlossaryLists = { doNotTranslate: [], terms: {} };
  for (const [n, row] of rows.entries()) {
    const at = (name: string) => row[header.indexOf(name)] ?? '';
    const term = at('term');
    if (/^(yes|true|1)$/i.test(at('do_not_translate').trim())) lists.doNotTranslate.push(term);
    else if (term) {
      const byLang = Object.fromEntries(header.slice(1).flatMap((lang, k) => (lang !== 'do_not_translate' && row[k + 1] ? [[lang, row[k + 1]!]] : [])));
      if (Object.keys(byLang).length === 0) throw new ExchangeError(`${file}: line ${n + 2}: "${term}" is neither kept (do_not_translate yes) nor translated into any language`);
      lists.terms[term] = byLang;
    }
  }
  return lists;
}

const canonical = (l: GlossaryLists) => JSON.stringify([[...l.doNotTranslate].sort(), Object.entries(l.terms).sort(([a], [b]) => (a < b ? -1 : 1)).map(([t, b]) => [t, Object.entries(b).sort(([x], [y]) => (x < y ? -1 : 1))])]);

/**
 * Writes imported lists as the glossary, checked by the loader `translate` uses (every problem
 * thrown, the file as it was); the same lists as now: nothing written. Returns whether it wrote.
 */
export async function importGlossary(root: string, lists: GlossaryLists): Promise<boolean> {
  if (canonical(lists) === canonical(await glossaryLists(root))) return false;
  const file = join(root, GLOSSARY_FILE);
  let before: string | undefined;
  try {
    before = await readFile(file, 'utf8');
  } catch {}
  const body = yaml.dump({ do_not_translate: lists.doNotTranslate, terms: lists.terms }, { lineWidth: -1 });
  await writeWhole(file, `# Imported by npm run translations -- import (docs/translation.md).\n${body}`);
  try {
    await loadGlossary(root);
  } catch (e) {
    if (before === undefined) await rm(file, { force: true });
    else await writeWhole(file, before);
    throw new ExchangeError((e as Error).message);
  }
  return true;
}
