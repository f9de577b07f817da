import { messages } from './messages.ts';

/** The engines `npm run translate` records (src/translate/providers), by the id a `provider` starts with. */
const ENGINES: Record<string, string> = {
  apertium: 'Apertium',
  deepl: 'DeepL',
  google: 'Google Cloud Translation',
  libretranslate: 'LibreTranslate',
  openai: 'OpenAI',
};

/** The provider that wrote translations without recording its name (the demo's). */
export const UNRECORDED_PROVIDER = 'llm:unrecorded';

/**
 * A translation's `provider` (`<engine>:<version>`) as a reader reads it in `lang`: the engine's
 * name and its version, or the language's words for a model nobody recorded; any other id as written.
 */
export function providerName(provider: string, lang: string): string {
  if (provider === UNRECORDED_PROVIDER) return messages(lang).unrecordedModel;
  const at = provider.indexOf(':');
  const engine = ENGINES[at < 0 ? provider : provider.slice(0, at)];
  if (!engine) return provider;
  return at < 0 || at === provider.length - 1 ? engine : `${engine} ${provider.slice(at + 1)}`;
}
