/**
 * The dates a page prints, one Intl.DateTimeFormat per locale and style, made once: making one
 * costs about a third of a millisecond (ICU loads the locale's patterns), more than the rest of a
 * list or post page's own work, and a build printed two to each of its thousands of post pages.
 */
const STYLES = {
  date: { dateStyle: 'long', timeZone: 'UTC' },
  'date-time': { dateStyle: 'long', timeStyle: 'long', timeZone: 'UTC' },
} as const satisfies Record<string, Intl.DateTimeFormatOptions>;

const formats = new Map<string, Intl.DateTimeFormat>();

export function dateFormat(locale: string, style: keyof typeof STYLES = 'date'): Intl.DateTimeFormat {
  const key = `${style} ${locale}`;
  let f = formats.get(key);
  if (!f) formats.set(key, (f = new Intl.DateTimeFormat(locale, STYLES[style])));
  return f;
}
