import type { Glossary } from '../glossary.ts';
import { SetupError, type Provider } from '../provider.ts';
import { apertium } from './apertium.ts';
import { deepl } from './deepl.ts';
import { google } from './google.ts';
import { libretranslate } from './libretranslate.ts';
import { openai } from './openai.ts';

/** What content/translation.yaml says of one provider (its model, where it has a choice), and the content's glossary. */
export interface ProviderSettings {
  model?: string;
  /** For an engine with glossaries of its own (DeepL); every engine's output is checked against it anyway. */
  glossary?: Glossary;
  /** How long one request may take before it is abandoned (and tried again, within the run's retry budget). */
  timeoutMs?: number;
}

/** Every provider by its name on the command line and in content/translation.yaml. */
const FACTORIES: Record<string, (env: NodeJS.ProcessEnv, settings: ProviderSettings) => Provider> = {
  apertium: (_env, settings) => apertium(settings.timeoutMs),
  deepl: (env, settings) => deepl(env, settings.glossary, settings.timeoutMs),
  openai: (env, settings) => openai(env, settings),
  google: (env, settings) => google(env, settings.timeoutMs),
  libretranslate: (env, settings) => libretranslate(env, settings.timeoutMs),
};

export const PROVIDER_NAMES = Object.keys(FACTORIES);

export function createProvider(name: string, env: NodeJS.ProcessEnv = process.env, settings: ProviderSettings = {}): Provider {
  const make = FACTORIES[name];
  if (!make) throw new SetupError(`unknown translation provider "${name}" (available: ${PROVIDER_NAMES.join(', ')})`);
  return make(env, settings);
}
