/** How a host reads the files of a build's bundle (catalog, bodies, search) by their path in it. */
export interface BundleReader {
  /** A file's bytes; undefined when it is absent. */
  read(name: string): Promise<Uint8Array | undefined>;
  /**
   * The same, synchronously, where the host can (a disk): a language's search files (its word list,
   * stems, table) read outside the cache, and the other languages opened in the background after a
   * first search.
   */
  readSync?(name: string): Uint8Array | undefined;
  /** `length` bytes of a file from `offset`, synchronously, where the host can (a disk): a post's record in its catalog part (lazy-catalog.ts). */
  readRangeSync?(name: string, offset: number, length: number): Uint8Array | undefined;
  /**
   * The file's bytes when the host's bounded cache holds them now, without reading (null: held as
   * absent); undefined when it does not. A reader without it is read through a cache of the
   * search's own (load-source.ts).
   */
  peek?(name: string): Uint8Array | null | undefined;
}

const decoder = new TextDecoder();

export async function readJson<T>(reader: BundleReader, name: string): Promise<T | undefined> {
  const bytes = await reader.read(name);
  return bytes === undefined ? undefined : (JSON.parse(decoder.decode(bytes)) as T);
}

export const decodeJson = <T>(bytes: Uint8Array): T => JSON.parse(decoder.decode(bytes)) as T;
