import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Derived results keyed by a digest of everything they depend on (Astro glob-loader style). */
export class DigestCache<T> {
  readonly dir: string;
  hits = 0;
  misses = 0;
  /**
   * The folders (a key's first two characters, at most 256) there were when the build started: a key
   * whose folder was not there is not looked for (a clean build made a failed read a render), and
   * each folder is made once. What is put meanwhile is only made again, never read half-written.
   */
  readonly #found: Set<string>;
  readonly #made = new Set<string>();
  constructor(dir: string) {
    this.dir = dir;
    let names: string[] = [];
    try {
      names = readdirSync(dir).filter((n) => n.length === 2);
    } catch {
      // No cache yet.
    }
    this.#found = new Set(names);
  }

  static digest(...parts: string[]): string {
    const h = createHash('sha256');
    for (const part of parts) h.update(part).update('\0');
    return h.digest('hex');
  }

  async get(key: string, compute: () => T | Promise<T>): Promise<T> {
    const folder = key.slice(0, 2);
    const file = join(this.dir, folder, `${key}.json`);
    if (this.#found.has(folder)) {
      try {
        const value = JSON.parse(await readFile(file, 'utf8')) as T;
        this.hits++;
        return value;
      } catch {
        // Not cached: made below.
      }
    }
    this.misses++;
    const value = await compute();
    // Synchronous: a small write costs less than two trips through libuv's pool (open, write, close).
    if (!this.#made.has(folder)) {
      mkdirSync(join(this.dir, folder), { recursive: true });
      this.#made.add(folder);
    }
    writeFileSync(file, JSON.stringify(value));
    return value;
  }
}
