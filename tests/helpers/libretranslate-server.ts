import { unescapeText } from '../../src/translate/inline-markup.ts';
import { FaultQueue, startJsonServer, type ProtocolServer } from './protocol-server.ts';
import { engineTranslate } from './translation-engine.ts';

/**
 * A LibreTranslate server as its code (libretranslate/app.py) answers: `GET /languages`,
 * `GET /frontend/settings`, `GET /spec`, and `POST /translate` with a JSON body `{q, source,
 * target, format, api_key}` -> `{translatedText}` (an array for an array q), errors as `{error}`
 * with 400 (bad request, missing key), 403 (invalid key, banned), 429 ("Slowdown: ...") and 500
 * ("Cannot translate text: ..."). Its HTML mode as the real one behaves: white space collapsed,
 * tags kept, and the result passed through html.unescape.
 */
export type LibreFault =
  | { kind: 'pass'; times?: number }
  | { kind: 'status'; status: 400 | 403 | 429 | 500; error: string; retryAfter?: number; times?: number }
  /** The first placeholder of the first segment that has one goes missing. */
  | { kind: 'drop-placeholder'; times?: number }
  /** White space beside every tag is lost, as when argos translates the runs between tags one by one. */
  | { kind: 'lose-spaces'; times?: number }
  /** Every text is answered with this one (a broken engine's "ERROR ..." as its translation), with status 200. */
  | { kind: 'answer'; text: string; times?: number }
  /** Every text comes back as it was sent (an engine that does not know the language). */
  | { kind: 'echo'; times?: number }
  /** No answer at all: the request is held open (until the server closes). */
  | { kind: 'hang'; times?: number };

export interface LibreServer extends ProtocolServer {
  faults: FaultQueue<LibreFault>;
}

/** Codes of an instance with argos's models for Folio's languages (pb: Brazilian Portuguese). */
export const LIBRE_TARGETS = ['ar', 'de', 'es', 'fr', 'hi', 'id', 'ja', 'ko', 'pb', 'pt', 'ru', 'tr', 'vi', 'zh', 'zt'];
const FOLIO_LANG: Record<string, string> = { pb: 'pt-br', pt: 'pt-br', zt: 'zh' };

export async function startLibreTranslateServer(options: { apiKeys?: string[]; targets?: string[]; charLimit?: number; version?: string } = {}): Promise<LibreServer> {
  const targets = options.targets ?? LIBRE_TARGETS;
  const charLimit = options.charLimit ?? -1;
  const faults = new FaultQueue<LibreFault>();
  const error = (status: number, message: string, headers?: Record<string, string>) => ({ status, body: { error: message }, headers });
  const server = await startJsonServer(async (req) => {
    const path = req.path.split('?')[0];
    if (req.method === 'GET' && path === '/languages') {
      return { status: 200, body: [{ code: 'en', name: 'English', targets: ['en', ...targets].sort() }, ...targets.map((code) => ({ code, name: code, targets: ['en', code] }))] };
    }
    if (req.method === 'GET' && path === '/frontend/settings') {
      return { status: 200, body: { charLimit, frontendTimeout: 500, apiKeys: !!options.apiKeys, keyRequired: false, suggestions: false, filesTranslation: false, supportedFilesFormat: [], language: { source: { code: 'en', name: 'English' }, target: { code: targets[0], name: targets[0] } } } };
    }
    if (req.method === 'GET' && path === '/spec') return { status: 200, body: { swagger: '2.0', info: { title: 'LibreTranslate', version: options.version ?? '1.6.5' }, paths: {} } };
    if (req.method !== 'POST' || path !== '/translate') return { status: 404, body: { error: 'Not Found' } };

    if (typeof req.body !== 'object' || req.body === null || Array.isArray(req.body)) return error(400, 'Invalid JSON format');
    const { q, source, target, format, api_key: key } = req.body as Record<string, unknown>;
    if (options.apiKeys) {
      if (key && !options.apiKeys.includes(String(key))) return error(403, 'Invalid API key');
      if (!key) return error(400, 'Please contact the server operator to get an API key');
    }
    if (!q || (Array.isArray(q) && q.length === 0)) return error(400, 'Invalid request: missing q parameter');
    if (!source) return error(400, 'Invalid request: missing source parameter');
    if (!target) return error(400, 'Invalid request: missing target parameter');
    const texts = (Array.isArray(q) ? q : [q]).map(String);
    const chars = texts.reduce((n, t) => n + t.length, 0);
    if (charLimit !== -1 && chars > charLimit) return error(400, `Invalid request: request (${chars}) exceeds text limit (${charLimit})`);
    if (source !== 'en') return error(400, `${String(source)} is not supported`);
    if (!targets.includes(String(target))) return error(400, `${String(target)} is not supported`);
    const mode = format ?? 'text';
    if (mode !== 'text' && mode !== 'html') return error(400, `${String(mode)} format is not supported`);

    const fault = faults.next();
    if (fault?.kind === 'hang') return new Promise<never>(() => undefined);
    if (fault?.kind === 'answer') return { status: 200, body: { translatedText: Array.isArray(q) ? texts.map(() => fault.text) : fault.text } };
    if (fault?.kind === 'echo') return { status: 200, body: { translatedText: Array.isArray(q) ? texts : texts[0] } };
    if (fault?.kind === 'status') return error(fault.status, fault.error, fault.retryAfter === undefined ? undefined : { 'Retry-After': String(fault.retryAfter) });
    // translate_html minifies first: ' '.join(html.split()).
    const minified = texts.map((t) => t.split(/\s+/).filter(Boolean).join(' '));
    let out = await engineTranslate(minified, FOLIO_LANG[String(target)] ?? String(target));
    if (fault?.kind === 'lose-spaces') out = out.map((t) => t.replace(/\s*(<[^>]+>)\s*/g, '$1'));
    if (fault?.kind === 'drop-placeholder') {
      const at = out.findIndex((t) => /<x i="\d+"><\/x>/.test(t));
      if (at >= 0) out[at] = out[at]!.replace(/<x i="\d+"><\/x>/, '');
    }
    // app.py: results.append(unescape(translated_text)), in both formats.
    const translated = out.map(unescapeText);
    return { status: 200, body: { translatedText: Array.isArray(q) ? translated : translated[0] } };
  });
  return { ...server, faults };
}
