import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { TRANSLATED_CODES } from '../core/languages.ts';
import type { Rate } from './pace.ts';

/**
 * `content/translation.yaml`: which engine translates each language (`default` for the rest) and
 * what a million characters cost with each, for `--dry-run` estimates. Keys and endpoints are never
 * here: they come from the environment, under the names the providers' own SDKs read.
 */
export interface TranslationSettings {
  providers: Record<string, string>;
  defaultProvider?: string;
  /** USD per million characters sent (DEFAULT_PRICES where not set). */
  prices: Record<string, number>;
  /** USD per million tokens, for the engines billed by tokens (language models): input and output. */
  tokenPrices: Record<string, { input: number; output: number }>;
  /** How long a run may wait and try again (`run:`): see RunLimits. */
  limits: RunLimits;
  /** The model of each provider that has a choice of them (part of its memory key). */
  models: Record<string, string>;
  /** `npm run build` first translates what is missing or stale, sending at most maxChars characters. */
  build: { translate: boolean; maxChars: number };
  /** What each provider may be sent a minute (its plan's limits). */
  rates: Record<string, Rate>;
}

/**
 * A run's bounds (`run:` in translation.yaml): one request may take `request_timeout_seconds`
 * (60) before it is abandoned and tried again; failed requests and the waits before trying again
 * may take `retry_budget_seconds` (300) in a whole run; a provider's Retry-After beyond
 * `max_retry_after_seconds` (120) is not waited for. Past either, the run stops, keeping what it did.
 */
export interface RunLimits {
  requestTimeoutMs: number;
  retryBudgetMs: number;
  maxRetryAfterMs: number;
}

export const DEFAULT_LIMITS: RunLimits = { requestTimeoutMs: 60_000, retryBudgetMs: 300_000, maxRetryAfterMs: 120_000 };

/**
 * What each provider's list price was when this was written (2026-11; `prices:` overrides it):
 * USD per million characters sent (DeepL API Pro's and Google Cloud Translation's usage price; a
 * self-hosted LibreTranslate and Apertium cost nothing a character), and per million tokens for
 * OpenAI (gpt-4o-mini's input and output). The run's cost report and --dry-run use them.
 */
export const DEFAULT_PRICES: Record<string, number> = { deepl: 25, google: 20, libretranslate: 0, apertium: 0 };
export const DEFAULT_TOKEN_PRICES: Record<string, { input: number; output: number }> = { openai: { input: 0.15, output: 0.6 } };

/** Providers that translate with a model of the author's choosing. */
const MODEL_PROVIDERS = ['openai'];

const BUILD_OFF = { translate: false, maxChars: 0 };

export const SETTINGS_FILE = 'translation.yaml';

export async function loadTranslationSettings(contentDir: string): Promise<TranslationSettings> {
  const file = join(contentDir, SETTINGS_FILE);
  let data: Record<string, unknown>;
  try {
    data = (yaml.load(await readFile(file, 'utf8')) ?? {}) as Record<string, unknown>;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { providers: {}, prices: { ...DEFAULT_PRICES }, tokenPrices: { ...DEFAULT_TOKEN_PRICES }, models: {}, build: BUILD_OFF, rates: {}, limits: { ...DEFAULT_LIMITS } };
    throw new Error(`${file}: ${(e as Error).message}`);
  }
  const problems: string[] = [];
  const providers: Record<string, string> = {};
  let defaultProvider: string | undefined;
  for (const [lang, name] of Object.entries((data.providers ?? {}) as Record<string, unknown>)) {
    if (typeof name !== 'string') problems.push(`providers.${lang}: must be a provider name`);
    else if (lang === 'default') defaultProvider = name;
    else if (!TRANSLATED_CODES.includes(lang)) problems.push(`providers.${lang}: not one of the 13 translated languages (${TRANSLATED_CODES.join(', ')})`);
    else providers[lang] = name;
  }
  const prices: Record<string, number> = { ...DEFAULT_PRICES };
  const tokenPrices = { ...DEFAULT_TOKEN_PRICES };
  for (const [name, price] of Object.entries((data.prices ?? {}) as Record<string, unknown>)) {
    const tokens = price as { input_tokens?: unknown; output_tokens?: unknown } | null;
    if (typeof price === 'number' && price >= 0) prices[name] = price;
    else if (tokens && typeof tokens === 'object' && typeof tokens.input_tokens === 'number' && typeof tokens.output_tokens === 'number' && tokens.input_tokens >= 0 && tokens.output_tokens >= 0) tokenPrices[name] = { input: tokens.input_tokens, output: tokens.output_tokens };
    else problems.push(`prices.${name}: must be a number >= 0 (USD per million characters), or {input_tokens: N, output_tokens: N} (USD per million tokens)`);
  }
  const limits = { ...DEFAULT_LIMITS };
  const run = data.run ?? {};
  if (typeof run !== 'object' || run === null || Array.isArray(run)) problems.push('run: must be a mapping, e.g. run: {request_timeout_seconds: 60}');
  else {
    const known = { request_timeout_seconds: 'requestTimeoutMs', retry_budget_seconds: 'retryBudgetMs', max_retry_after_seconds: 'maxRetryAfterMs' } as const;
    for (const [key, value] of Object.entries(run)) {
      const field = known[key as keyof typeof known];
      if (!field) problems.push(`run.${key}: not a known setting (${Object.keys(known).join(', ')})`);
      else if (typeof value !== 'number' || !(value >= 0)) problems.push(`run.${key}: must be a number of seconds >= 0`);
      else limits[field] = value * 1000;
    }
  }
  const models: Record<string, string> = {};
  for (const [name, model] of Object.entries((data.models ?? {}) as Record<string, unknown>)) {
    if (!MODEL_PROVIDERS.includes(name)) problems.push(`models.${name}: only ${MODEL_PROVIDERS.join(', ')} has a choice of model`);
    else if (typeof model !== 'string' || !model.trim()) problems.push(`models.${name}: must be a model name (e.g. gpt-4o-mini)`);
    else models[name] = model.trim();
  }
  const build = { ...BUILD_OFF };
  const asked = data.build ?? {};
  if (typeof asked !== 'object' || asked === null || Array.isArray(asked)) problems.push('build: must be a mapping, e.g. build: {translate: true, max_chars: 20000}');
  else {
    const { translate, max_chars: maxChars, ...rest } = asked as Record<string, unknown>;
    for (const key of Object.keys(rest)) problems.push(`build.${key}: not a known setting (translate, max_chars)`);
    if (translate !== undefined && typeof translate !== 'boolean') problems.push('build.translate: must be true or false');
    else build.translate = translate === true;
    // A deploy never sends an unbounded amount: the cap is asked for whenever the build translates.
    if (maxChars === undefined && build.translate) problems.push('build.max_chars: required with translate: true (the characters one build may send, e.g. 20000)');
    else if (maxChars !== undefined && !(Number.isInteger(maxChars) && (maxChars as number) > 0)) problems.push('build.max_chars: must be a whole number of characters above 0');
    else build.maxChars = (maxChars as number | undefined) ?? 0;
  }
  const rates: Record<string, Rate> = {};
  for (const [name, rate] of Object.entries((data.rates ?? {}) as Record<string, unknown>)) {
    const { requests_per_minute: rpm, characters_per_minute: cpm, ...rest } = (rate ?? {}) as Record<string, unknown>;
    for (const key of Object.keys(rest)) problems.push(`rates.${name}.${key}: not a known setting (requests_per_minute, characters_per_minute)`);
    const positive = (v: unknown) => v === undefined || (Number.isInteger(v) && (v as number) > 0);
    if (!positive(rpm) || !positive(cpm)) problems.push(`rates.${name}: requests_per_minute and characters_per_minute are whole numbers above 0`);
    else rates[name] = { ...(rpm !== undefined ? { requestsPerMinute: rpm as number } : {}), ...(cpm !== undefined ? { charactersPerMinute: cpm as number } : {}) };
  }
  const known = ['providers', 'prices', 'models', 'build', 'rates', 'run'];
  for (const key of Object.keys(data)) if (!known.includes(key)) problems.push(`${key}: not a known setting (${known.join(', ')})`);
  if (problems.length) throw new Error(problems.map((p) => `${file}: ${p}`).join('\n'));
  return { providers, defaultProvider, prices, tokenPrices, models, build, rates, limits };
}

/** The provider name for a language: --provider, else the language's, else the default. */
export const providerFor = (settings: TranslationSettings, lang: string, override?: string) => override ?? settings.providers[lang] ?? settings.defaultProvider;
