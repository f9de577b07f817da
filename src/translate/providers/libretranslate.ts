import { QuotaError, RetryableError, SetupError, type Provider } from '../provider.ts';
import { retryAfterMs } from '../retry-after.ts';
import { baseUrl, requestJson, type JsonAnswer } from './http.ts';
import { escapeAgain, restoreTagSpacing } from './libretranslate-output.ts';

/**
 * LibreTranslate (https://docs.libretranslate.com), self-hosted or a hosted instance:
 * `POST {LIBRETRANSLATE_URL}/translate` `{q: [...], source: 'en', target, format: 'html', api_key}`
 * -> `{translatedText: [...]}`. Which languages an instance serves depends on the models it
 * installed, so prepare() reads `GET /languages`; its character limit (`--char-limit`) comes from
 * `GET /frontend/settings` and its version from the OpenAPI document at `GET /spec`.
 */

/** Folio's codes in LibreTranslate's, first match wins: argos models name Brazilian Portuguese `pb` (newer) or only `pt`. */
const CODES: Record<string, string[]> = { 'pt-br': ['pt-BR', 'pb', 'pt'], zh: ['zh-Hans', 'zh'] };

/** Per request when the instance sets no limit: small enough for a hosted instance's defaults. */
const DEFAULT_LIMITS = { segments: 50, chars: 5000 };

const WHO = 'libretranslate';

function errorText(answer: JsonAnswer): string {
  const error = (answer.data as { error?: unknown } | undefined)?.error;
  return typeof error === 'string' ? error : `HTTP ${answer.status}`;
}

/** LibreTranslate's errors as Folio's: a key problem is setup, a daily limit or a ban a quota, the rest by status. */
function failure(answer: JsonAnswer): Error {
  const message = errorText(answer);
  const said = `${WHO} answered ${answer.status}: ${message}`;
  if (answer.status === 429) {
    // flask-limiter's descriptions: "Slowdown: 100 per 1 day" is a quota; "... per 1 minute" passes.
    if (/per \d* ?(hour|day|month)/i.test(message)) return new QuotaError(said);
    const windowMs = /per \d* ?minute/i.test(message) ? 60_000 : /per \d* ?second/i.test(message) ? 1000 : undefined;
    return new RetryableError(said, retryAfterMs(answer.headers) ?? windowMs);
  }
  if ((answer.status === 400 || answer.status === 403) && /api key/i.test(message)) return new SetupError(`${said} (set LIBRETRANSLATE_API_KEY to a key this server accepts)`);
  // "Too many request limits violations": the instance banned this address for a while.
  if (answer.status === 403) return new QuotaError(said);
  if (answer.status >= 500) return new RetryableError(said);
  return new Error(said);
}

export function libretranslate(env: NodeJS.ProcessEnv, timeoutMs?: number): Provider {
  const url = env.LIBRETRANSLATE_URL?.trim();
  if (!url) throw new SetupError('libretranslate: LIBRETRANSLATE_URL is not set (the address of a LibreTranslate server, e.g. http://localhost:5000; LIBRETRANSLATE_API_KEY too if it asks for a key)');
  const base = baseUrl('LIBRETRANSLATE_URL', url);
  const apiKey = env.LIBRETRANSLATE_API_KEY?.trim() || undefined;
  let targets: Map<string, string> | undefined;

  const provider: Provider = {
    id: 'libretranslate',
    version: 'unknown',
    limits: { ...DEFAULT_LIMITS },
    async prepare() {
      const languages = await requestJson(WHO, `${base}/languages`).catch((e: Error) => {
        throw new SetupError(e.message);
      });
      const english = Array.isArray(languages.data) ? (languages.data as { code?: unknown; targets?: unknown }[]).find((l) => l.code === 'en') : undefined;
      if (languages.status !== 200 || !english || !Array.isArray(english.targets)) throw new SetupError(`${WHO}: ${base}/languages did not list English with its targets (${languages.status}): is LIBRETRANSLATE_URL a LibreTranslate server?`);
      const offered = new Set(english.targets.filter((t): t is string => typeof t === 'string'));
      targets = new Map();
      for (const lang of [...Object.keys(CODES), ...offered]) {
        const code = (CODES[lang] ?? [lang]).find((c) => offered.has(c));
        if (code) targets.set(lang, code);
      }
      // Both are informative: an instance that hides them is still usable with the defaults.
      const settings = await requestJson(WHO, `${base}/frontend/settings`).catch(() => undefined);
      const charLimit = (settings?.data as { charLimit?: unknown } | undefined)?.charLimit;
      if (typeof charLimit === 'number' && charLimit > 0) provider.limits.chars = Math.min(DEFAULT_LIMITS.chars, charLimit);
      const spec = await requestJson(WHO, `${base}/spec`).catch(() => undefined);
      const version = (spec?.data as { info?: { version?: unknown } } | undefined)?.info?.version;
      if (typeof version === 'string' && /^[\w.+-]+$/.test(version)) provider.version = version;
    },
    supports(lang) {
      if (!targets) throw new Error('libretranslate: supports() before prepare()');
      return targets.has(lang) ? 'direct' : false;
    },
    async translate(segments, lang) {
      const target = targets?.get(lang);
      if (!target) throw new SetupError(`${WHO} at ${base} does not translate into ${lang}`);
      const answer = await requestJson(WHO, `${base}/translate`, { body: { q: segments, source: 'en', target, format: 'html', ...(apiKey ? { api_key: apiKey } : {}) }, timeoutMs });
      if (answer.status !== 200) throw failure(answer);
      const text = (answer.data as { translatedText?: unknown } | undefined)?.translatedText;
      const out = typeof text === 'string' ? [text] : text;
      if (!Array.isArray(out) || out.length !== segments.length || out.some((t) => typeof t !== 'string')) {
        throw new RetryableError(`${WHO} returned ${Array.isArray(out) ? `${out.length} texts` : 'no translatedText'} for ${segments.length} segments`);
      }
      return (out as string[]).map((t, i) => restoreTagSpacing(segments[i]!, escapeAgain(segments[i]!, t), lang));
    },
  };
  return provider;
}
