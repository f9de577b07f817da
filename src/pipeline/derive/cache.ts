import { createHash } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Derived results keyed by a digest of everything they depend on (Astro glob-loader style). */
export class DigestCache<T> {
  readonly dir: string;
  hits = 0;
  misses = 0;
  constructor(dir: string) {
    this.dir = dir;
  }

  static digest(...parts: string[]): string {
    const h = createHash('sha256');
    for (const part of parts) h.update(part).update('\0');
    return h.digest('hex');
  }

  async get(key: string, compute: () => T | Promise<T>): Promise<T> {
    const file = join(this.dir, key.slice(0, 2), `${key}.json`);
    try {
      const value = JSON.parse(await readFile(file, 'utf8')) as T;
      this.hits++;
      return value;
    } catch {
      this.misses++;
      const value = await compute();
      await mkdir(join(this.dir, key.slice(0, 2)), { recursive: true });
      await writeFile(file, JSON.stringify(value));
      return value;
    }
  }
}
