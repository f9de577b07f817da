/**
 * Open Graph's og:locale is language_TERRITORY (Facebook's list of locales): the territory a
 * language's readers are most likely in, as Facebook names them (Arabic is its pan-Arab ar_AR).
 */
const OG_LOCALES: Record<string, string> = {
  en: 'en_US',
  es: 'es_ES',
  zh: 'zh_CN',
  ar: 'ar_AR',
  'pt-br': 'pt_BR',
  fr: 'fr_FR',
  ja: 'ja_JP',
  de: 'de_DE',
  ru: 'ru_RU',
  id: 'id_ID',
  hi: 'hi_IN',
  ko: 'ko_KR',
  tr: 'tr_TR',
  vi: 'vi_VN',
};

export function ogLocale(code: string): string {
  const locale = OG_LOCALES[code];
  if (!locale) throw new Error(`no og:locale for language ${code}`);
  return locale;
}
