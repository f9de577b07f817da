import { FaultQueue, startJsonServer, type ProtocolServer } from './protocol-server.ts';
import { engineTranslate } from './translation-engine.ts';

/**
 * Google Cloud Translation v3's translateText as its REST reference describes it:
 * `POST /v3/projects/{project}/locations/{location}:translateText` with `Authorization: Bearer`,
 * `{contents, mimeType, sourceLanguageCode, targetLanguageCode}` -> `{translations:
 * [{translatedText}]}`; errors as google.rpc.Status `{error: {code, message, status, details}}`:
 * 401 UNAUTHENTICATED, 403 PERMISSION_DENIED (and a quota), 429 RESOURCE_EXHAUSTED, 5xx. In HTML
 * mode it leaves `translate="no"` elements alone, writes apostrophes and quotes as references, and
 * marks Arabic right-to-left with its own attributes.
 */
export type GoogleFault =
  | { kind: 'pass'; times?: number }
  | { kind: 'rate-limit'; retryAfter?: number; times?: number }
  | { kind: 'quota'; times?: number }
  | { kind: 'server-error'; status?: 500 | 503; times?: number }
  | { kind: 'drop-placeholder'; times?: number };

export interface GoogleServer extends ProtocolServer {
  faults: FaultQueue<GoogleFault>;
}

/** Google's codes for Folio's languages (a few of the 130 or so it has). */
const FOLIO_LANG: Record<string, string> = { es: 'es', 'zh-CN': 'zh', zh: 'zh', ar: 'ar', 'pt-BR': 'pt-br', pt: 'pt-br', fr: 'fr', ja: 'ja', de: 'de', ru: 'ru', id: 'id', hi: 'hi', ko: 'ko', tr: 'tr', vi: 'vi' };
const METHOD = 'google.cloud.translation.v3.TranslationService.TranslateText';
const SERVICE = 'translate.googleapis.com';
const PLACEHOLDER = /<span translate="no" data-folio="\d+"><\/span>/;

function status(code: number, state: string, message: string, reason?: string, metadata: Record<string, string> = {}, headers?: Record<string, string>) {
  const details = reason ? [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason, domain: 'googleapis.com', metadata: { method: METHOD, service: SERVICE, ...metadata } }] : [];
  return { status: code, body: { error: { code, message, status: state, details } }, headers };
}

/** Google's HTML: quotes as references in the words, and for Arabic its own right-to-left marks. */
function googleHtml(html: string, lang: string): string {
  const words = html.replace(/(<[^>]*>)|[^<]+/g, (part, tag: string | undefined) => (tag ? part : part.replace(/'/g, '&#39;').replace(/"/g, '&quot;')));
  if (lang !== 'ar') return words;
  return `<span dir="rtl" style="direction: rtl; text-align: right">${words.replace(/<a i=/g, '<a dir="rtl" i=')}</span>`;
}

export async function startGoogleTranslateServer(options: { project: string; token: string }): Promise<GoogleServer> {
  const faults = new FaultQueue<GoogleFault>();
  const server = await startJsonServer(async (req) => {
    const m = /^\/v3\/projects\/([^/]+)\/locations\/([^/:]+):translateText$/.exec(req.path);
    if (req.method !== 'POST' || !m) return status(404, 'NOT_FOUND', `The requested URL ${req.path} was not found on this server.`);
    const auth = req.headers.authorization;
    if (!auth) return status(401, 'UNAUTHENTICATED', 'Request is missing required authentication credential. Expected OAuth 2 access token, login cookie or other valid authentication credential.', 'CREDENTIALS_MISSING');
    if (auth !== `Bearer ${options.token}`) return status(401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.', 'ACCESS_TOKEN_TYPE_UNSUPPORTED');
    if (decodeURIComponent(m[1]!) !== options.project) return status(403, 'PERMISSION_DENIED', "Permission 'cloudtranslate.generalModels.predict' denied on resource (or it may not exist).", 'IAM_PERMISSION_DENIED', { permission: 'cloudtranslate.generalModels.predict' });
    const body = req.body as { contents?: unknown; mimeType?: string; sourceLanguageCode?: string; targetLanguageCode?: string };
    if (typeof body !== 'object' || body === null) return status(400, 'INVALID_ARGUMENT', 'Invalid JSON payload received.');
    if (!Array.isArray(body.contents) || body.contents.length === 0) return status(400, 'INVALID_ARGUMENT', 'Empty contents.');
    if (body.contents.length > 1024) return status(400, 'INVALID_ARGUMENT', 'Number of text segments exceeds the limit of 1024.');
    const contents = body.contents.map(String);
    if (contents.reduce((n, c) => n + [...c].length, 0) > 30_720) return status(400, 'INVALID_ARGUMENT', 'Text is too long.');
    const lang = FOLIO_LANG[body.targetLanguageCode ?? ''];
    if (!lang) return status(400, 'INVALID_ARGUMENT', 'Target language is invalid.');
    if (body.sourceLanguageCode !== undefined && body.sourceLanguageCode !== 'en') return status(400, 'INVALID_ARGUMENT', 'Source language is invalid.');
    if (body.mimeType !== undefined && body.mimeType !== 'text/html' && body.mimeType !== 'text/plain') return status(400, 'INVALID_ARGUMENT', 'Unsupported mime type.');

    const fault = faults.next();
    if (fault?.kind === 'rate-limit') {
      return status(429, 'RESOURCE_EXHAUSTED', "Quota exceeded for quota metric 'v3 general model characters' and limit 'v3 general model characters per minute per project'.", 'RATE_LIMIT_EXCEEDED', { quota_limit: 'CharactersPerMinutePerProject' }, fault.retryAfter === undefined ? undefined : { 'Retry-After': String(fault.retryAfter) });
    }
    if (fault?.kind === 'quota') {
      return status(403, 'PERMISSION_DENIED', "Quota exceeded for quota metric 'v3 general model characters' and limit 'v3 general model characters per day per project'.", 'RATE_LIMIT_EXCEEDED', { quota_limit: 'CharactersPerDayPerProject' });
    }
    if (fault?.kind === 'server-error') return fault.status === 503 ? status(503, 'UNAVAILABLE', 'The service is currently unavailable.') : status(500, 'INTERNAL', 'Internal error encountered.');
    const out = await engineTranslate(contents, lang);
    if (fault?.kind === 'drop-placeholder') {
      const at = out.findIndex((t) => PLACEHOLDER.test(t));
      if (at >= 0) out[at] = out[at]!.replace(PLACEHOLDER, '');
    }
    return { status: 200, body: { translations: out.map((t) => ({ translatedText: googleHtml(t, lang) })) } };
  });
  return { ...server, faults };
}
