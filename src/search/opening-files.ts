/**
 * The files that open a language (its table and lengths, word list and stems: `{lang}.words.bin`,
 * `{lang}.vocabulary.json`, `{lang}.stems.json`) are read whole, as a typo's candidates are anywhere
 * in the word list. They grow with the vocabulary (and the table with the posts, 4 bytes each), so
 * one past OPENING_PIECE_BYTES is stored as byte pieces of at most that size (`{lang}.words.{k}.bin`,
 * `{lang}.vocabulary.{k}.json`, `{lang}.stems.{k}.json`), which the reader joins: no file a host
 * reads grows past the bound whatever the corpus. The language's header (`{lang}.index.json`) says
 * how many pieces each cut file has (`pieces`); a file within the bound is written whole, as before.
 */
export const OPENING_PIECE_BYTES = 1024 * 1024;

export const OPENING_FILES = ['words.bin', 'vocabulary.json', 'stems.json'] as const;
export type OpeningFile = (typeof OPENING_FILES)[number];

/** Per opening file cut in pieces, how many (absent: the file is whole). */
export type Pieces = Partial<Record<OpeningFile, number>>;

/** Piece `k` of an opening file: `en.vocabulary.json` -> `en.vocabulary.{k}.json`. */
export const pieceFile = (lang: string, file: OpeningFile, k: number) => `${lang}.${file.replace(/\.(\w+)$/, `.${k}.$1`)}`;

/** The names an opening file is stored as: itself, or its pieces. */
export const storedAs = (lang: string, file: OpeningFile, pieces: Pieces | undefined): string[] =>
  pieces?.[file] ? Array.from({ length: pieces[file] }, (_, k) => pieceFile(lang, file, k)) : [`${lang}.${file}`];

/** The bytes cut into pieces of at most `max` bytes; none when they are within it (written whole). */
export function cutPieces(bytes: Uint8Array, max = OPENING_PIECE_BYTES): Uint8Array[] | undefined {
  if (bytes.byteLength <= max) return undefined;
  const pieces: Uint8Array[] = [];
  for (let at = 0; at < bytes.byteLength; at += max) pieces.push(bytes.subarray(at, Math.min(at + max, bytes.byteLength)));
  return pieces;
}

/** Pieces joined into one buffer (aligned at its start, as the table's Uint32Array needs). */
export function joinPieces(pieces: readonly Uint8Array[]): Uint8Array {
  if (pieces.length === 1) return pieces[0]!;
  const out = new Uint8Array(pieces.reduce((n, p) => n + p.byteLength, 0));
  let at = 0;
  for (const p of pieces) {
    out.set(p, at);
    at += p.byteLength;
  }
  return out;
}

/**
 * An opening file's bytes, given what reading its whole name gave (`whole`: undefined or null when
 * absent) and the header's `pieces`: the whole file, or its pieces read by `read` and joined.
 */
export async function openingBytes(lang: string, file: OpeningFile, whole: Uint8Array | null | undefined, pieces: Pieces | undefined, read: (name: string) => Promise<Uint8Array | null | undefined>): Promise<Uint8Array | undefined> {
  if (whole) return whole;
  if (!pieces?.[file]) return undefined;
  const parts = await Promise.all(storedAs(lang, file, pieces).map(read));
  return parts.every((p): p is Uint8Array => !!p) ? joinPieces(parts) : undefined;
}
