/**
 * Each post's plain text in one language (for snippets and phrases), by id, cut by id range into
 * parts of about TEXT_PART_BYTES, so a host reads only the parts a search's results need (through
 * the artefact's bounded cache) and no file grows with the corpus:
 * - `{lang}.texts.json`: `{ ids, parts }`, how many ids the texts cover and the first id of each part;
 * - `{lang}.texts.{k}.bin`: part `k`, its texts as one UTF-16 string: its first id and count, the
 *   offsets of each text in code units (count + 1, Uint32), then the code units.
 * A part holds consecutive ids up to TEXT_PART_BYTES; a text is never cut, so one longer than that
 * is a part of its own (a part is at most TEXT_PART_BYTES or one post's text, whatever the corpus).
 */
export const TEXT_PART_BYTES = 128 * 1024;

export interface TextsIndex {
  /** How many ids (the catalog's posts). */
  ids: number;
  /** The first id of each part, ascending (the first is 0). */
  parts: number[];
}

export const textsFile = (lang: string) => `${lang}.texts.json`;
export const textPartFile = (lang: string, k: number) => `${lang}.texts.${k}.bin`;

/** The texts (by id: undefined for a post with none in this language) as an index and its parts. */
export function splitTexts(texts: readonly (string | undefined)[], partBytes = TEXT_PART_BYTES): { index: TextsIndex; parts: Uint8Array[] } {
  const parts: Uint8Array[] = [];
  const firsts: number[] = [];
  let first = 0;
  let units = 0;
  // A part's bytes: its head (first id, count, count + 1 offsets), then two a code unit.
  const size = (ids: number, units: number) => 4 * (ids + 3) + 2 * units;
  for (let id = 0; id < texts.length; id++) {
    const length = texts[id]?.length ?? 0;
    // A part ends before the text that would take it past the bound (never empty).
    if (id > first && size(id - first + 1, units + length) > partBytes) {
      firsts.push(first);
      parts.push(encodePart(texts, first, id));
      first = id;
      units = 0;
    }
    units += length;
  }
  firsts.push(first);
  parts.push(encodePart(texts, first, texts.length));
  return { index: { ids: texts.length, parts: firsts }, parts };
}

/** Ids `first` to `end` (excluded): first id, count, offsets, code units. */
function encodePart(texts: readonly (string | undefined)[], first: number, end: number): Uint8Array {
  const count = end - first;
  const head = new Uint32Array(count + 3);
  head[0] = first;
  head[1] = count;
  let at = 0;
  for (let i = 0; i < count; i++) {
    head[i + 2] = at;
    at += texts[first + i]?.length ?? 0;
  }
  head[count + 2] = at;
  const out = Buffer.alloc(head.byteLength + at * 2);
  out.set(new Uint8Array(head.buffer));
  // Node's encoder copies each text's code units as they are, at its offset (a build's only caller).
  for (let i = 0; i < count; i++) {
    const t = texts[first + i];
    if (t) out.write(t, head.byteLength + head[i + 2]! * 2, 'utf16le');
  }
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
}

/** The part holding `id` (undefined past the ids). */
export function textPartOf(index: TextsIndex, id: number): number | undefined {
  if (!(id >= 0 && id < index.ids)) return undefined;
  let lo = 0;
  let hi = index.parts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (index.parts[mid]! <= id) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

let utf16: TextDecoder | undefined;

/** The code units as a string (a decoder where the host has UTF-16; else in chunks). */
function decodeUnits(bytes: Uint8Array): string {
  try {
    utf16 ??= new TextDecoder('utf-16le');
    return utf16.decode(bytes);
  } catch {
    const units = new Uint16Array(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.byteLength / 2);
    let out = '';
    for (let i = 0; i < units.length; i += 8192) out += String.fromCharCode(...units.subarray(i, i + 8192));
    return out;
  }
}

/**
 * A part's texts by id (the post's id, not its place in the part); undefined for an id it does not
 * hold or a post with no text. Each text is decoded from the part's bytes when asked (a few µs for
 * an essay), so a part costs its bytes alone, which the cache counts.
 */
export function openTextPart(bytes: Uint8Array): (id: number) => string | undefined {
  const aligned = bytes.byteOffset % 4 === 0 ? bytes : bytes.slice();
  const words = new Uint32Array(aligned.buffer as ArrayBuffer, aligned.byteOffset, 2);
  const first = words[0]!;
  const count = words[1]!;
  const offsets = new Uint32Array(aligned.buffer as ArrayBuffer, aligned.byteOffset + 8, count + 1);
  const units = aligned.byteOffset + 4 * (count + 3);
  return (id) => {
    const i = id - first;
    if (!(i >= 0 && i < count) || offsets[i + 1]! <= offsets[i]!) return undefined;
    return decodeUnits(new Uint8Array(aligned.buffer as ArrayBuffer, units + offsets[i]! * 2, (offsets[i + 1]! - offsets[i]!) * 2));
  };
}

/**
 * Texts by id read from files at hand (a build reading an earlier build's or a shard's folder),
 * each part when first needed, the last `keep` parts kept (ids are read mostly in order).
 */
export function readTexts(read: (name: string) => Uint8Array, lang: string, keep = 8): (id: number) => string | undefined {
  const index = JSON.parse(new TextDecoder().decode(read(textsFile(lang)))) as TextsIndex;
  const open = new Map<number, (id: number) => string | undefined>();
  return (id) => {
    const k = textPartOf(index, id);
    if (k === undefined) return undefined;
    let part = open.get(k);
    if (!part) {
      part = openTextPart(read(textPartFile(lang, k)));
      if (open.size >= keep) open.delete(open.keys().next().value!);
      open.set(k, part);
    }
    return part(id);
  };
}
