/** Whole minutes, at least 1: words/230, or characters/500 for scripts written without spaces. */
const CHARACTER_COUNTED = new Set(['zh', 'ja', 'ko']);

export function readingTime(text: string, lang: string): number {
  const units = CHARACTER_COUNTED.has(lang)
    ? (text.match(/[\p{L}\p{N}]/gu) ?? []).length / 500
    : (text.match(/\S+/g) ?? []).length / 230;
  return Math.max(1, Math.round(units));
}
