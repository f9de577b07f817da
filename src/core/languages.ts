/** The 14 languages, as data (Hugo's LanguageConfig): every surface reads this table. */
export interface Language {
  code: string;
  name: string;
  native_name: string;
  dir: 'ltr' | 'rtl';
  html_lang: string;
  hreflang: string;
  /** BCP 47 tag for Intl (dates, segmentation). */
  locale: string;
}

export const LANGUAGES: readonly Language[] = [
  { code: 'en', name: 'English', native_name: 'English', dir: 'ltr', html_lang: 'en', hreflang: 'en', locale: 'en' },
  { code: 'es', name: 'Spanish', native_name: 'Español', dir: 'ltr', html_lang: 'es', hreflang: 'es', locale: 'es' },
  { code: 'zh', name: 'Chinese (Simplified)', native_name: '简体中文', dir: 'ltr', html_lang: 'zh-Hans', hreflang: 'zh-Hans', locale: 'zh-Hans' },
  { code: 'ar', name: 'Arabic', native_name: 'العربية', dir: 'rtl', html_lang: 'ar', hreflang: 'ar', locale: 'ar' },
  { code: 'pt-br', name: 'Portuguese (Brazil)', native_name: 'Português (Brasil)', dir: 'ltr', html_lang: 'pt-BR', hreflang: 'pt-BR', locale: 'pt-BR' },
  { code: 'fr', name: 'French', native_name: 'Français', dir: 'ltr', html_lang: 'fr', hreflang: 'fr', locale: 'fr' },
  { code: 'ja', name: 'Japanese', native_name: '日本語', dir: 'ltr', html_lang: 'ja', hreflang: 'ja', locale: 'ja' },
  { code: 'de', name: 'German', native_name: 'Deutsch', dir: 'ltr', html_lang: 'de', hreflang: 'de', locale: 'de' },
  { code: 'ru', name: 'Russian', native_name: 'Русский', dir: 'ltr', html_lang: 'ru', hreflang: 'ru', locale: 'ru' },
  { code: 'id', name: 'Indonesian', native_name: 'Bahasa Indonesia', dir: 'ltr', html_lang: 'id', hreflang: 'id', locale: 'id' },
  { code: 'hi', name: 'Hindi', native_name: 'हिन्दी', dir: 'ltr', html_lang: 'hi', hreflang: 'hi', locale: 'hi' },
  { code: 'ko', name: 'Korean', native_name: '한국어', dir: 'ltr', html_lang: 'ko', hreflang: 'ko', locale: 'ko' },
  { code: 'tr', name: 'Turkish', native_name: 'Türkçe', dir: 'ltr', html_lang: 'tr', hreflang: 'tr', locale: 'tr' },
  { code: 'vi', name: 'Vietnamese', native_name: 'Tiếng Việt', dir: 'ltr', html_lang: 'vi', hreflang: 'vi', locale: 'vi' },
];

export const DEFAULT_LANGUAGE = 'en';
export const LANGUAGE_CODES: readonly string[] = LANGUAGES.map((l) => l.code);
export const TRANSLATED_CODES: readonly string[] = LANGUAGE_CODES.filter((c) => c !== DEFAULT_LANGUAGE);

const byCode = new Map(LANGUAGES.map((l) => [l.code, l]));

/** Case-insensitive match (`pt-BR` is `pt-br`); undefined for anything unsupported. */
export function matchLanguage(input: string): Language | undefined {
  return byCode.get(input.toLowerCase());
}

export function language(code: string): Language {
  const found = byCode.get(code);
  if (!found) throw new Error(`unknown language code ${code}`);
  return found;
}
