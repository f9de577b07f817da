import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { TRANSLATED_CODES } from '../core/languages.ts';

/**
 * `content/translation.yaml`: which engine translates each language (`default` for the rest) and
 * what a million characters cost with each, for `--dry-run` estimates. Keys and endpoints are never
 * here: they come from the environment, under the names the providers' own SDKs read.
 */
export interface TranslationSettings {
  providers: Record<string, string>;
  defaultProvider?: string;
  /** USD per million characters sent. */
  prices: Record<string, number>;
  /** The model of each provider that has a choice of them (part of its memory key). */
  models: Record<string, string>;
}

/** Providers that translate with a model of the author's choosing. */
const MODEL_PROVIDERS = ['openai'];

export const SETTINGS_FILE = 'translation.yaml';

export async function loadTranslationSettings(contentDir: string): Promise<TranslationSettings> {
  const file = join(contentDir, SETTINGS_FILE);
  let data: Record<string, unknown>;
  try {
    data = (yaml.load(await readFile(file, 'utf8')) ?? {}) as Record<string, unknown>;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { providers: {}, prices: {}, models: {} };
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
  const prices: Record<string, number> = {};
  for (const [name, price] of Object.entries((data.prices ?? {}) as Record<string, unknown>)) {
    if (typeof price !== 'number' || price < 0) problems.push(`prices.${name}: must be a number >= 0 (USD per million characters)`);
    else prices[name] = price;
  }
  const models: Record<string, string> = {};
  for (const [name, model] of Object.entries((data.models ?? {}) as Record<string, unknown>)) {
    if (!MODEL_PROVIDERS.includes(name)) problems.push(`models.${name}: only ${MODEL_PROVIDERS.join(', ')} has a choice of model`);
    else if (typeof model !== 'string' || !model.trim()) problems.push(`models.${name}: must be a model name (e.g. gpt-4o-mini)`);
    else models[name] = model.trim();
  }
  for (const key of Object.keys(data)) if (!['providers', 'prices', 'models'].includes(key)) problems.push(`${key}: not a known setting (providers, prices, models)`);
  if (problems.length) throw new Error(problems.map((p) => `${file}: ${p}`).join('\n'));
  return { providers, defaultProvider, prices, models };
}

/** The provider name for a language: --provider, else the language's, else the default. */
export const providerFor = (settings: TranslationSettings, lang: string, override?: string) => override ?? settings.providers[lang] ?? settings.defaultProvider;
