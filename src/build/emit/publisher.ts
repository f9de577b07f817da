import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** Where emitted files go: a folder on disk, or memory for tests (Hugo's Publisher, Pagefind's getFiles). */
export interface Publisher {
  write(sitePath: string, content: string): Promise<void>;
}

export function diskPublisher(dir: string): Publisher & { count: () => number } {
  let n = 0;
  return {
    count: () => n,
    async write(sitePath, content) {
      const file = join(dir, sitePath);
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, content);
      n++;
    },
  };
}

export function memoryPublisher(): Publisher & { files: Map<string, string> } {
  const files = new Map<string, string>();
  return { files, async write(sitePath, content) { files.set(sitePath, content); } };
}

/** The file a static host serves for an extension-less API path. */
export const apiFile = (path: string) => `${path}/index.json`;
