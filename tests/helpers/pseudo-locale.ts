/**
 * A reversible pseudo-locale for tagged text: every word spelt backwards and marked, tags left
 * alone. What a different language looks like to the structure, for engines we cannot run here.
 */
const words = (tagged: string, change: (word: string) => string) => tagged.replace(/(^|>)([^<]*)/g, (_, close: string, text: string) => close + change(text));

export const pseudo = (tagged: string) => words(tagged, (text) => text.replace(/\p{L}+/gu, (w) => `${[...w].reverse().join('')}ö`));

export const unpseudo = (tagged: string) => words(tagged, (text) => text.replace(/(\p{L}+)ö/gu, (_, w: string) => [...w].reverse().join('')));
