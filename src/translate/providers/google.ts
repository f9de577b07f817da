import { QuotaError, RetryableError, SetupError, type Provider } from '../provider.ts';
import { fromGoogleHtml, toGoogleHtml } from './google-markup.ts';
import { retryAfterMs } from '../retry-after.ts';
import { googleCredentials } from './google-credentials.ts';
import { baseUrl, requestJson, type JsonAnswer } from './http.ts';

/**
 * Google Cloud Translation v3 (Advanced), its REST API:
 * `POST {endpoint}/v3/projects/{project}/locations/{location}:translateText` with a bearer token
 * (google-credentials.ts: GOOGLE_APPLICATION_CREDENTIALS or GOOGLE_ACCESS_TOKEN),
 * `{contents, mimeType: 'text/html', sourceLanguageCode: 'en', targetLanguageCode}` ->
 * `{translations: [{translatedText}]}`. mimeType is set although HTML is the default: the
 * placeholders depend on it.
 */

/** Every Folio language, in Google's codes (BCP-47; Simplified Chinese is zh-CN, Brazilian Portuguese pt-BR). */
const CODES: Record<string, string> = {
  es: 'es', zh: 'zh-CN', ar: 'ar', 'pt-br': 'pt-BR', fr: 'fr', ja: 'ja', de: 'de', ru: 'ru', id: 'id', hi: 'hi', ko: 'ko', tr: 'tr', vi: 'vi',
};

const WHO = 'google';

interface GoogleError {
  code?: number;
  message?: string;
  status?: string;
  details?: { reason?: string; metadata?: Record<string, string> }[];
}

/** Google's errors as Folio's: a rate limit waits, a used-up quota stops the run, a refused credential stops it with what to fix. */
function failure(answer: JsonAnswer, credential: string): Error {
  const error = ((answer.data as { error?: GoogleError } | undefined)?.error ?? {}) as GoogleError;
  const reasons = (error.details ?? []).map((d) => `${d.reason ?? ''} ${Object.values(d.metadata ?? {}).join(' ')}`).join(' ');
  const said = `${WHO} answered ${answer.status}${error.status ? ` ${error.status}` : ''}: ${error.message ?? 'no message'}`;
  const perDay = /per ?day/i.test(`${error.message} ${reasons}`);
  if (answer.status === 429) return perDay ? new QuotaError(said) : new RetryableError(said, retryAfterMs(answer.headers));
  if (answer.status === 403 && (error.status === 'RESOURCE_EXHAUSTED' || /quota|limit_exceeded|limitexceeded/i.test(`${error.message} ${reasons}`))) return new QuotaError(said);
  if (answer.status === 401 || answer.status === 403) return new SetupError(`${said} (check ${credential}, that the project has the Cloud Translation API enabled, and the account's role on it)`);
  if (answer.status >= 500) return new RetryableError(said, retryAfterMs(answer.headers));
  return new Error(said);
}

export function google(env: NodeJS.ProcessEnv, timeoutMs?: number): Provider {
  const credentials = googleCredentials(env);
  const project = credentials.project;
  const location = env.GOOGLE_CLOUD_LOCATION?.trim() || 'global';
  const endpoint = baseUrl('GOOGLE_TRANSLATE_ENDPOINT', env.GOOGLE_TRANSLATE_ENDPOINT?.trim() || 'https://translation.googleapis.com');
  const url = `${endpoint}/v3/projects/${encodeURIComponent(project)}/locations/${encodeURIComponent(location)}:translateText`;

  return {
    id: 'google',
    // The default model (projects/.../models/general/nmt) through API v3.
    version: 'v3-nmt',
    // A key file's token is fetched before any text is sent: a refused key is one line, like a missing one.
    async prepare() {
      try {
        await credentials.headers();
      } catch (e) {
        throw e instanceof SetupError ? e : new SetupError((e as Error).message);
      }
    },
    supports: (lang) => (CODES[lang] ? 'direct' : false),
    // Google recommends about 5,000 code points a request (30,000 at most) and takes 1,024 texts.
    limits: { segments: 1024, chars: 5000 },
    async translate(segments, lang) {
      const target = CODES[lang];
      if (!target) throw new SetupError(`${WHO} does not translate into ${lang}`);
      const answer = await requestJson(WHO, url, {
        body: { contents: segments.map(toGoogleHtml), mimeType: 'text/html', sourceLanguageCode: 'en', targetLanguageCode: target },
        headers: await credentials.headers(),
        timeoutMs,
      });
      if (answer.status !== 200) throw failure(answer, credentials.variable);
      const translations = (answer.data as { translations?: { translatedText?: unknown }[] } | undefined)?.translations;
      if (!Array.isArray(translations) || translations.length !== segments.length || translations.some((t) => typeof t?.translatedText !== 'string')) {
        throw new RetryableError(`${WHO} returned ${Array.isArray(translations) ? translations.length : 'no'} translations for ${segments.length} segments`);
      }
      return translations.map((t) => fromGoogleHtml(t.translatedText as string));
    },
  };
}
