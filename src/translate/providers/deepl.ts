import { REQUEST_TIMEOUT_MS } from './http.ts';
import { AuthorizationError, ConnectionError, DeepLClient, DeepLError, QuotaExceededError, TooManyRequestsError, type TargetLanguageCode, type TranslateTextOptions } from 'deepl-node';
import type { Glossary } from '../glossary.ts';
import { QuotaError, RetryableError, SetupError, type Provider } from '../provider.ts';
import { deeplGlossaries } from './deepl-glossary.ts';
import { deeplRetryAfter } from './deepl-retry-after.ts';

/**
 * DeepL API v2 through its official client, `deepl-node`. The key is `DEEPL_AUTH_KEY` (a Free
 * key, ending in ":fx", goes to api-free.deepl.com by itself); `DEEPL_SERVER_URL` names another host.
 * Which targets the account has is DeepL's own answer (GET /v2/languages?type=target, at setup):
 * its list grows (81 languages in January 2026) and differs by plan, so no list is kept here.
 * The glossary's fixed translations go as DeepL glossaries (deepl-glossary.ts).
 */

/** Our language codes as DeepL's target codes, in order of preference; a code not named is DeepL's as it is. */
const TARGETS: Record<string, string[]> = { zh: ['zh-HANS', 'zh'], 'pt-br': ['pt-BR'] };

const OPTIONS: TranslateTextOptions = {
  tagHandling: 'xml',
  // Placeholders stand for code, HTML and images: never the engine's to touch.
  ignoreTags: ['x'],
  // Emphasis, links and placeholders sit inside sentences: none of them ends one, and DeepL need not guess.
  nonSplittingTags: ['em', 'strong', 'del', 'a', 'x'],
  outlineDetection: false,
  // A segment is a paragraph or a heading: its first letter's case and its last punctuation are the author's.
  preserveFormatting: true,
};

/** deepl-node names the HTTP status only in its message ("Unexpected status code: 413 Payload Too Large, ..."). */
const statusOf = (e: unknown): number | undefined => {
  if (!(e instanceof DeepLError)) return undefined;
  if (e.message.startsWith('Service unavailable')) return 503;
  const code = /status code: (\d{3})/.exec(e.message)?.[1];
  return code === undefined ? undefined : Number(code);
};

/**
 * deepl-node's errors as the run's: a quota stops it, a refused key is a setup problem, load and
 * outages are tried again (after `retryAfter`, the wait DeepL's 429 asked for, if it named one).
 */
function asOurs(e: unknown, retryAfter?: number): unknown {
  if (e instanceof QuotaError || e instanceof RetryableError || e instanceof SetupError) return e;
  if (e instanceof QuotaExceededError) return new QuotaError(`DeepL's character quota is used up (456): ${e.message}`);
  if (e instanceof AuthorizationError) return new SetupError(`DeepL refused DEEPL_AUTH_KEY (403): check the key, and DEEPL_SERVER_URL if set (${e.message})`);
  if (e instanceof TooManyRequestsError) return new RetryableError(`DeepL: too many requests (429)`, retryAfter);
  if (e instanceof ConnectionError && e.shouldRetry) return new RetryableError(`DeepL: ${e.message}`);
  const status = statusOf(e);
  if (status !== undefined && status >= 500) return new RetryableError(`DeepL: ${e instanceof Error ? e.message.split(', content:')[0] : status}`);
  return e;
}

const DEEPL_VERSION = 'v2';

export function deepl(env: NodeJS.ProcessEnv, glossary?: Glossary, timeoutMs = REQUEST_TIMEOUT_MS): Provider {
  const key = env.DEEPL_AUTH_KEY;
  if (!key) throw new SetupError('deepl needs DEEPL_AUTH_KEY: the key of your DeepL API account (DEEPL_SERVER_URL names another host, if any)');
  // deepl-node's own choice when no server is named: a Free key (":fx") has its own host.
  const serverUrl = env.DEEPL_SERVER_URL || (key.endsWith(':fx') ? 'https://api-free.deepl.com' : 'https://api.deepl.com');
  const client = new DeepLClient(key, {
    serverUrl,
    // The run's retry policy (send.ts) is the one in effect: deepl-node's own ignores Retry-After and would hide 429s and outages from it.
    maxRetries: 0,
    // A full batch takes DeepL several seconds; deepl-node's 5 s would abort it and send it again.
    minTimeout: timeoutMs,
  });
  const retryAfter = deeplRetryAfter(serverUrl);
  const glossaryFor = deeplGlossaries(client, glossary);
  let offered: Set<string> | undefined;
  const target = (lang: string) => (TARGETS[lang] ?? [lang]).find((code) => !offered || offered.has(code.toLowerCase()));

  const send = async (texts: string[], code: string, glossaryId: string | undefined, context?: string): Promise<string[]> => {
    try {
      // source_lang is always 'en', which DeepL requires with a glossary.
      const results = await client.translateText(texts, 'en', code as TargetLanguageCode, { ...OPTIONS, ...(glossaryId ? { glossary: glossaryId } : {}), ...(context ? { context } : {}) });
      if (results.length !== texts.length) throw new RetryableError(`DeepL returned ${results.length} texts for ${texts.length}`);
      return results.map((r) => r.text);
    } catch (e) {
      // Over 128 KiB (DeepL's 413): the batch goes again in halves, so the run carries on.
      if (statusOf(e) === 413 && texts.length > 1) {
        const half = Math.ceil(texts.length / 2);
        return [...(await send(texts.slice(0, half), code, glossaryId, context)), ...(await send(texts.slice(half), code, glossaryId, context))];
      }
      throw e;
    }
  };

  return {
    id: 'deepl',
    version: DEEPL_VERSION,
    takesFixedTerms: true,
    async prepare() {
      try {
        offered = new Set((await client.getTargetLanguages()).map((l) => l.code.toLowerCase()));
      } catch (e) {
        const ours = asOurs(e);
        throw ours instanceof SetupError ? ours : new SetupError(`deepl: could not read DeepL's language list: ${(ours as Error).message}`);
      }
    },
    supports: (lang) => (target(lang) ? 'direct' : false),
    // 50 texts a request, and 128 KiB of form-encoded body: a character is at most 9 bytes there (%E2%80%94).
    limits: { segments: 50, chars: 14_000 },
    async translate(segments, lang, _note, context) {
      const code = target(lang);
      if (!code) throw new SetupError(`deepl does not translate into ${lang}: DeepL's language list for this key does not have it`);
      const mark = retryAfter.mark();
      try {
        const glossaryId = await glossaryFor(lang);
        if (!context) return await send([...segments], code, glossaryId);
        // Sentences sent alone go with their paragraph as DeepL's `context` (read, not translated, not billed): one request per paragraph.
        const out: string[] = new Array<string>(segments.length);
        const groups = new Map<string, number[]>();
        for (const k of segments.keys()) groups.set(context[k]?.paragraph ?? '', [...(groups.get(context[k]?.paragraph ?? '') ?? []), k]);
        for (const [paragraph, ks] of groups) (await send(ks.map((k) => segments[k]!), code, glossaryId, paragraph || undefined)).forEach((t, n) => (out[ks[n]!] = t));
        return out;
      } catch (e) {
        throw asOurs(e, retryAfter.since(mark));
      }
    },
  };
}
