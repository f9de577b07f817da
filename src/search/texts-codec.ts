/**
 * Each post's plain text in one language (for snippets and phrases), by id, as one UTF-16 string:
 * a count, the offsets of each text in code units (count + 1, Uint32), then the code units. Read
 * back with one decode (a copy, where JSON would parse) and a slice per text.
 */
export function encodeTexts(texts: readonly (string | undefined)[]): Uint8Array {
  const head = new Uint32Array(texts.length + 2);
  head[0] = texts.length;
  let at = 0;
  texts.forEach((t, i) => {
    head[i + 1] = at;
    at += t?.length ?? 0;
  });
  head[texts.length + 1] = at;
  const out = Buffer.alloc(head.byteLength + at * 2);
  out.set(new Uint8Array(head.buffer));
  // Node's encoder copies each text's code units as they are, at its offset (a build's only caller;
  // a loop over the joined texts took 14 ms a language).
  texts.forEach((t, i) => t && out.write(t, head.byteLength + head[i + 1]! * 2, 'utf16le'));
  return out;
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

/** A post's text by id; undefined for a post with none in this language. */
export function openTexts(bytes: Uint8Array): (id: number) => string | undefined {
  const aligned = bytes.byteOffset % 4 === 0 ? bytes : bytes.slice();
  const count = new Uint32Array(aligned.buffer as ArrayBuffer, aligned.byteOffset, 1)[0]!;
  // A copy: a view would keep the file's bytes alive beside the texts decoded from them.
  const offsets = new Uint32Array(aligned.buffer as ArrayBuffer, aligned.byteOffset + 4, count + 1).slice();
  const all = decodeUnits(aligned.subarray(4 * (count + 2)));
  return (id) => (id < count && offsets[id + 1]! > offsets[id]! ? all.slice(offsets[id], offsets[id + 1]) : undefined);
}
