import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { termPattern } from '../../src/translate/glossary.ts';
import { apertium, isApertiumInstalled } from '../../src/translate/providers/apertium.ts';

/**
 * DeepL API v2 on 127.0.0.1, as DeepL documents it, for the tests: POST /v2/translate (form-encoded
 * or JSON bodies, `Authorization: DeepL-Auth-Key <key>`, at most 50 texts and 128 KiB, 403/413/429/
 * 456/5xx as DeepL answers them, `glossary_id` applying a glossary's entries), GET /v2/languages
 * (?type=target) and the v2 glossaries: POST /v2/glossaries (name, source_lang, target_lang,
 * entries as TSV or CSV), GET /v2/glossaries, GET and DELETE /v2/glossaries/{id}. Spanish, French and
 * Brazilian Portuguese are translated by Apertium when it is installed; every other target (and those,
 * without Apertium) by a reversible pseudo-locale: each word's letters reversed, tags, entities and
 * the content of `ignore_tags` left as they are.
 */

export interface LanguageEntry {
  language: string;
  name: string;
  supports_formality?: boolean;
}

/**
 * DeepL's documented targets before its January 2026 expansion (which added, among 81 others,
 * Hindi): a list without HI, so a test can see a language refused because the account's list lacks it.
 */
export const TARGETS_2025: LanguageEntry[] = [
  ['AR', 'Arabic', false], ['BG', 'Bulgarian', false], ['CS', 'Czech', false], ['DA', 'Danish', false], ['DE', 'German', true],
  ['EL', 'Greek', false], ['EN-GB', 'English (British)', false], ['EN-US', 'English (American)', false], ['ES', 'Spanish', true],
  ['ES-419', 'Spanish (Latin American)', true], ['ET', 'Estonian', false], ['FI', 'Finnish', false], ['FR', 'French', true],
  ['HE', 'Hebrew', false], ['HU', 'Hungarian', false], ['ID', 'Indonesian', false], ['IT', 'Italian', true], ['JA', 'Japanese', true],
  ['KO', 'Korean', false], ['LT', 'Lithuanian', false], ['LV', 'Latvian', false], ['NB', 'Norwegian Bokmål', false], ['NL', 'Dutch', true],
  ['PL', 'Polish', true], ['PT-BR', 'Portuguese (Brazilian)', true], ['PT-PT', 'Portuguese (European)', true], ['RO', 'Romanian', false],
  ['RU', 'Russian', true], ['SK', 'Slovak', false], ['SL', 'Slovenian', false], ['SV', 'Swedish', false], ['TH', 'Thai', false],
  ['TR', 'Turkish', false], ['UK', 'Ukrainian', false], ['VI', 'Vietnamese', false], ['ZH', 'Chinese (simplified)', false],
  ['ZH-HANS', 'Chinese (simplified)', false], ['ZH-HANT', 'Chinese (traditional)', false],
].map(([language, name, formality]) => ({ language: language as string, name: name as string, supports_formality: formality as boolean }));

/** What the next requests to /v2/translate meet, one fault each, in order. */
export type Fault = { status: 429; retryAfter?: number } | { status: 500 | 503 } | { drop: 'placeholder' };

export interface Logged {
  method: string;
  path: string;
  status: number;
  /** When it arrived (ms, performance.now()). */
  at: number;
  /** The texts of a translate request, and its other parameters (or a glossary's) as sent. */
  texts?: string[];
  params?: Record<string, string | string[]>;
  bytes: number;
}

/** A glossary as DeepL stores it: its info as the API shows it, and its entries. */
export interface StoredGlossary {
  glossary_id: string;
  name: string;
  ready: boolean;
  source_lang: string;
  target_lang: string;
  creation_time: string;
  entry_count: number;
  entries: [string, string][];
}

export interface DeepLServer {
  url: string;
  key: string;
  log: Logged[];
  faults: Fault[];
  /** Characters the account may still translate; past it, 456. */
  quota: number;
  /** DeepL's request size limit; lower it to see 413 without a 128 KiB essay. */
  maxBodyBytes: number;
  targets: LanguageEntry[];
  glossaries: StoredGlossary[];
  /** Texts of the translate requests that were answered 200. */
  translated(): string[];
  close(): Promise<void>;
}

const APERTIUM: Record<string, string> = { ES: 'es', FR: 'fr', 'PT-BR': 'pt-br' };

/** Each word's letters reversed outside tags and entities, and outside the ignored tags' content. */
export function pseudoLocale(text: string, ignored: ReadonlySet<string>): string {
  let depth = 0;
  return text
    .split(/(<[^>]*>|&#?\w+;)/)
    .map((part) => {
      const tag = /^<(\/?)([\w-]+)[^>]*?(\/?)>$/.exec(part);
      if (tag) {
        if (ignored.has(tag[2]!) && !tag[3]) depth += tag[1] ? -1 : 1;
        return part;
      }
      if (part.startsWith('&') || depth > 0) return part;
      return part.replace(/\p{L}+/gu, (w) => [...w].reverse().join(''));
    })
    .join('');
}

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};

/** Text with each glossary source term (a whole word, any case, outside tags) as `<x i="g<entry>"></x>`. */
function withGlossary(text: string, glossary: StoredGlossary): string {
  const terms = termPattern(glossary.entries.map(([source]) => source), 'giu')!;
  const entry = (term: string) => glossary.entries.findIndex(([source]) => source.toLowerCase() === term.toLowerCase());
  return text
    .split(/(<[^>]*>)/)
    .map((part) => (part.startsWith('<') ? part : part.replace(terms, (term) => `<x i="g${entry(term)}"></x>`)))
    .join('');
}

/** Entries as DeepL reads them: TSV (a tab between source and target) or CSV (a comma), one a line; undefined if malformed. */
function parseEntries(text: string, format: string): [string, string][] | undefined {
  const out: [string, string][] = [];
  for (const line of text.split(/\r?\n/)) {
    if (!line.trim()) continue;
    const cells = line.split(format === 'csv' ? ',' : '\t');
    if (cells.length !== 2 || !cells[0]!.trim() || !cells[1]!.trim() || out.some(([s]) => s === cells[0])) return undefined;
    out.push([cells[0]!, cells[1]!]);
  }
  return out.length ? out : undefined;
}

/** The fields of a request but its texts, as the log keeps them: one value as it is, a repeated one as a list. */
const paramsOf = (f: Record<string, string[]>) => Object.fromEntries(Object.entries(f).filter(([k]) => k !== 'text').map(([k, v]) => [k, v.length === 1 ? v[0]! : v]));

/** A form body's fields (repeated `text`) or a JSON body's, as lists. */
function fields(req: IncomingMessage, body: Buffer): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  if ((req.headers['content-type'] ?? '').startsWith('application/json')) {
    for (const [k, v] of Object.entries(JSON.parse(body.toString('utf8')) as Record<string, unknown>)) out[k] = Array.isArray(v) ? v.map(String) : [String(v)];
  } else {
    for (const [k, v] of new URLSearchParams(body.toString('utf8'))) (out[k] ??= []).push(v);
  }
  return out;
}

export async function startDeepLServer(options: { key?: string } = {}): Promise<DeepLServer> {
  const engine = isApertiumInstalled() ? apertium() : undefined;
  const state: DeepLServer = {
    url: '',
    key: options.key ?? 'folio-test-key:fx',
    log: [],
    faults: [],
    quota: Infinity,
    maxBodyBytes: 128 * 1024,
    targets: TARGETS_2025,
    glossaries: [],
    translated: () => state.log.filter((l) => l.status === 200 && l.texts).flatMap((l) => l.texts!),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };

  const translate = async (req: IncomingMessage, res: ServerResponse, body: Buffer, entry: Logged) => {
    const answer = (status: number, payload: unknown, headers?: Record<string, string>) => {
      entry.status = status;
      json(res, status, payload, headers);
    };
    if (body.length > state.maxBodyBytes) return answer(413, { message: 'Request Entity Too Large' });
    const f = fields(req, body);
    const texts = f.text ?? [];
    entry.texts = texts;
    entry.params = paramsOf(f);
    if (texts.length === 0) return answer(400, { message: "Parameter 'text' not specified." });
    if (texts.length > 50) return answer(413, { message: 'Too many texts in one request' });
    const target = (f.target_lang?.[0] ?? '').toUpperCase();
    if (!state.targets.some((t) => t.language === target)) return answer(400, { message: "Value for 'target_lang' not supported." });
    let glossary: StoredGlossary | undefined;
    if (f.glossary_id) {
      if (!f.source_lang) return answer(400, { message: 'Use of a glossary requires the source_lang parameter to be specified' });
      glossary = state.glossaries.find((g) => g.glossary_id === f.glossary_id![0]);
      if (!glossary) return answer(400, { message: 'Invalid glossary_id' });
      if (glossary.source_lang !== f.source_lang[0]!.toLowerCase() || glossary.target_lang !== target.split('-')[0]!.toLowerCase()) return answer(400, { message: "Language pair of the glossary doesn't match the language pair of the request" });
    }
    const fault = state.faults.shift();
    if (fault && 'status' in fault) return answer(fault.status, { message: ({ 429: 'Too many requests', 500: 'Internal server error', 503: 'Service unavailable' } as const)[fault.status] }, 'retryAfter' in fault && fault.retryAfter !== undefined ? { 'Retry-After': String(fault.retryAfter) } : undefined);
    const chars = texts.reduce((n, t) => n + t.length, 0);
    if (chars > state.quota) return answer(456, { message: 'Quota Exceeded' });
    state.quota -= chars;
    // JSON bodies carry lists; a form body joins tags with commas.
    const ignored = new Set((f.ignore_tags ?? []).flatMap((t) => t.split(',')).map((t) => t.trim()).filter(Boolean));
    // A glossary's source terms travel through the engine as empty ignored tags and come out as its target terms.
    const sent = glossary ? texts.map((t) => withGlossary(t, glossary)) : texts;
    let out = APERTIUM[target] && engine ? await engine.translate(sent, APERTIUM[target]!) : sent.map((t) => pseudoLocale(t, ignored));
    if (glossary) out = out.map((t) => t.replace(/<x i="g(\d+)"><\/x>/g, (_, n: string) => glossary.entries[Number(n)]![1]));
    if (fault && 'drop' in fault) out = out.map((t) => t.replace(/<x i="\d+"><\/x>|<x i="\d+"\/>/, ''));
    answer(200, { translations: out.map((text, i) => ({ detected_source_language: 'EN', text, ...(f.show_billed_characters?.[0] === '1' || f.show_billed_characters?.[0] === 'true' ? { billed_characters: texts[i]!.length } : {}) })) });
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const entry: Logged = { method: req.method ?? '', path: url.pathname, status: 0, at: performance.now(), bytes: body.length };
      state.log.push(entry);
      const answer = (status: number, payload: unknown) => {
        entry.status = status;
        json(res, status, payload);
      };
      // Only the header carries the key: DeepL refuses query and body authentication since 2026.
      if (req.headers.authorization !== `DeepL-Auth-Key ${state.key}`) return answer(403, { message: 'Forbidden' });
      if (req.method === 'POST' && url.pathname === '/v2/translate') {
        translate(req, res, body, entry).catch((e: Error) => answer(500, { message: e.message }));
        return;
      }
      if (req.method === 'GET' && url.pathname === '/v2/languages') {
        const type = url.searchParams.get('type') ?? 'source';
        const list = type === 'target' ? state.targets : [{ language: 'EN', name: 'English' }, ...state.targets.filter((t) => !t.language.includes('-')).map(({ language, name }) => ({ language, name }))];
        return answer(200, list);
      }
      if (url.pathname === '/v2/glossaries' && req.method === 'POST') {
        const f = fields(req, body);
        entry.params = paramsOf(f);
        const one = (k: string) => f[k]?.[0];
        const missing = ['name', 'source_lang', 'target_lang', 'entries'].find((k) => !one(k));
        if (missing) return answer(400, { message: `Missing or invalid argument: ${missing}` });
        const format = one('entries_format') ?? 'tsv';
        if (format !== 'tsv' && format !== 'csv') return answer(400, { message: "Value for 'entries_format' not supported." });
        const entries = parseEntries(one('entries')!, format);
        if (!entries) return answer(400, { message: 'Invalid glossary entries provided' });
        const [source, targetLang] = [one('source_lang')!.toLowerCase(), one('target_lang')!.toLowerCase()];
        if (source !== 'en' || !state.targets.some((t) => t.language.split('-')[0]!.toLowerCase() === targetLang)) return answer(400, { message: 'Unsupported glossary source and target language pair' });
        const stored: StoredGlossary = { glossary_id: randomUUID(), name: one('name')!, ready: true, source_lang: source, target_lang: targetLang, creation_time: new Date().toISOString(), entry_count: entries.length, entries };
        state.glossaries.push(stored);
        const { entries: _, ...info } = stored;
        return answer(201, info);
      }
      if (url.pathname === '/v2/glossaries' && req.method === 'GET') return answer(200, { glossaries: state.glossaries.map(({ entries: _, ...info }) => info) });
      const byId = /^\/v2\/glossaries\/([^/]+)$/.exec(url.pathname);
      if (byId) {
        const at = state.glossaries.findIndex((g) => g.glossary_id === byId[1]);
        if (at < 0) return answer(404, { message: 'Glossary not found' });
        if (req.method === 'DELETE') {
          state.glossaries.splice(at, 1);
          entry.status = 204;
          res.writeHead(204).end();
          return;
        }
        const { entries: _, ...info } = state.glossaries[at]!;
        if (req.method === 'GET') return answer(200, info);
      }
      if (req.method === 'GET' && url.pathname === '/v2/usage') return answer(200, { character_count: 0, character_limit: Number.isFinite(state.quota) ? state.quota : 500_000 });
      answer(404, { message: 'Not found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}
