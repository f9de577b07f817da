import { QuotaError, RetryableError, SetupError, type Provider } from '../provider.ts';
import { fromGoogleHtml, toGoogleHtml } from './google-markup.ts';
import { retryAfterMs } from '../retry-after.ts';
import { baseUrl, requestJson, type JsonAnswer } from './http.ts';

/**
 * Google Cloud Translation v3 (Advanced), its REST API:
 * `POST {endpoint}/v3/projects/{GOOGLE_CLOUD_PROJECT}/locations/{location}:translateText` with
 * `Authorization: Bearer {GOOGLE_ACCESS_TOKEN}` (what `gcloud auth print-access-token` prints),
 * `{contents, mimeType: 'text/html', sourceLanguageCode: 'en', targetLanguageCode}` ->
 * `{translations: [{translatedText}]}`. mimeType is set although HTML is the default: the
 * placeholders depend on it. Service-account keys and the rest of Application Default Credentials
 * are not read (that needs Google's auth library, not installed): an access token is.
 */

/** Every Folio language, in Google's codes (BCP-47; Simplified Chinese is zh-CN, Brazilian Portuguese pt-BR). */
const CODES: Record<string, string> = {
  es: 'es', zh: 'zh-CN', ar: 'ar', 'pt-br': 'pt-BR', fr: 'fr', ja: 'ja', de: 'de', ru: 'ru', id: 'id', hi: 'hi', ko: 'ko', tr: 'tr', vi: 'vi',
};

const WHO = 'google';
const TOKEN_HINT = 'an OAuth access token: export GOOGLE_ACCESS_TOKEN="$(gcloud auth print-access-token)"; it lasts about an hour';

interface GoogleError {
  code?: number;
  message?: string;
  status?: string;
  details?: { reason?: string; metadata?: Record<string, string> }[];
}

/** Google's errors as Folio's: a rate limit waits, a used-up quota stops the run, a refused credential stops it with what to fix. */
function failure(answer: JsonAnswer): Error {
  const error = ((answer.data as { error?: GoogleError } | undefined)?.error ?? {}) as GoogleError;
  const reasons = (error.details ?? []).map((d) => `${d.reason ?? ''} ${Object.values(d.metadata ?? {}).join(' ')}`).join(' ');
  const said = `${WHO} answered ${answer.status}${error.status ? ` ${error.status}` : ''}: ${error.message ?? 'no message'}`;
  const perDay = /per ?day/i.test(`${error.message} ${reasons}`);
  if (answer.status === 429) return perDay ? new QuotaError(said) : new RetryableError(said, retryAfterMs(answer.headers));
  if (answer.status === 403 && (error.status === 'RESOURCE_EXHAUSTED' || /quota|limit_exceeded|limitexceeded/i.test(`${error.message} ${reasons}`))) return new QuotaError(said);
  if (answer.status === 401 || answer.status === 403) return new SetupError(`${said} (check GOOGLE_ACCESS_TOKEN (${TOKEN_HINT}), that GOOGLE_CLOUD_PROJECT has the Cloud Translation API enabled, and the account's role on it)`);
  if (answer.status >= 500) return new RetryableError(said, retryAfterMs(answer.headers));
  return new Error(said);
}

export function google(env: NodeJS.ProcessEnv): Provider {
  const project = env.GOOGLE_CLOUD_PROJECT?.trim();
  if (!project) throw new SetupError('google: GOOGLE_CLOUD_PROJECT is not set (the ID of the Google Cloud project with the Cloud Translation API enabled)');
  const token = env.GOOGLE_ACCESS_TOKEN?.trim();
  if (!token) throw new SetupError(`google: GOOGLE_ACCESS_TOKEN is not set (${TOKEN_HINT})`);
  const location = env.GOOGLE_CLOUD_LOCATION?.trim() || 'global';
  const endpoint = baseUrl('GOOGLE_TRANSLATE_ENDPOINT', env.GOOGLE_TRANSLATE_ENDPOINT?.trim() || 'https://translation.googleapis.com');
  const url = `${endpoint}/v3/projects/${encodeURIComponent(project)}/locations/${encodeURIComponent(location)}:translateText`;

  return {
    id: 'google',
    // The default model (projects/.../models/general/nmt) through API v3.
    version: 'v3-nmt',
    supports: (lang) => (CODES[lang] ? 'direct' : false),
    // Google recommends about 5,000 code points a request (30,000 at most) and takes 1,024 texts.
    limits: { segments: 1024, chars: 5000 },
    async translate(segments, lang) {
      const target = CODES[lang];
      if (!target) throw new SetupError(`${WHO} does not translate into ${lang}`);
      const answer = await requestJson(WHO, url, {
        body: { contents: segments.map(toGoogleHtml), mimeType: 'text/html', sourceLanguageCode: 'en', targetLanguageCode: target },
        // User credentials (gcloud auth) bill the quota to this project only when it is named.
        headers: { authorization: `Bearer ${token}`, 'x-goog-user-project': project },
      });
      if (answer.status !== 200) throw failure(answer);
      const translations = (answer.data as { translations?: { translatedText?: unknown }[] } | undefined)?.translations;
      if (!Array.isArray(translations) || translations.length !== segments.length || translations.some((t) => typeof t?.translatedText !== 'string')) {
        throw new RetryableError(`${WHO} returned ${Array.isArray(translations) ? translations.length : 'no'} translations for ${segments.length} segments`);
      }
      return translations.map((t) => fromGoogleHtml(t.translatedText as string));
    },
  };
}
