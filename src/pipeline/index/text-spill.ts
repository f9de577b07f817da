import { closeSync, openSync, readSync, rmSync, writeSync } from 'node:fs';

/**
 * The posts' search texts on disk between their render and the search indexes, instead of in the
 * bundle step's memory: every post's text in every language waited there for the indexes, and
 * grew with the corpus (the step peaked at 2.9 GB at 10,000 x 14). Each text is appended as it is
 * rendered and read back by its place when the indexes (or a shard's texts) are written.
 */
export class TextSpill {
  readonly file: string;
  readonly #fd: number;
  readonly #at = new Map<string, { offset: number; length: number }>();
  #end = 0;
  #closed = false;

  constructor(file: string) {
    this.file = file;
    this.#fd = openSync(file, 'w+');
  }

  put(key: string, text: string): void {
    const bytes = Buffer.from(text);
    for (let done = 0; done < bytes.length; ) done += writeSync(this.#fd, bytes, done, bytes.length - done, this.#end + done);
    this.#at.set(key, { offset: this.#end, length: bytes.length });
    this.#end += bytes.length;
  }

  get(key: string): string | undefined {
    const at = this.#at.get(key);
    if (!at) return undefined;
    const bytes = Buffer.allocUnsafe(at.length);
    for (let done = 0; done < at.length; ) {
      const read = readSync(this.#fd, bytes, done, at.length - done, at.offset + done);
      if (read === 0) throw new Error(`${this.file}: ends before the text of ${key}`);
      done += read;
    }
    return bytes.toString('utf8');
  }

  /** Closes and deletes the file: once the texts are indexed, or the step failed. Once; again does nothing. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    closeSync(this.#fd);
    rmSync(this.file, { force: true });
  }
}
