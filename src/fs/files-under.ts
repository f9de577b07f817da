import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Every file under a folder, as `/`-separated paths from it with a leading slash. Synchronous and
 * folder by folder: a quarter of a million files in a third of the time of a recursive readdir,
 * which asks the file system again about each entry.
 */
export function filesUnder(root: string): string[] {
  const out: string[] = [];
  const folders = [''];
  while (folders.length > 0) {
    const folder = folders.pop()!;
    for (const e of readdirSync(join(root, folder), { withFileTypes: true })) {
      const path = `${folder}/${e.name}`;
      if (e.isDirectory()) folders.push(path);
      else if (e.isFile()) out.push(path);
    }
  }
  return out;
}
