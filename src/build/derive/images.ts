import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { imageSize } from 'image-size';
import { FileError } from '../file-error.ts';

export interface Measured {
  width: number;
  height: number;
}

/** Real pixel size read from the file's header. */
export async function measureImage(dir: string, name: string): Promise<Measured> {
  const file = join(dir, name);
  try {
    const { width, height } = imageSize(await readFile(file));
    if (!width || !height) throw new Error('no dimensions in header');
    return { width, height };
  } catch (e) {
    throw new FileError(file, '', `is not a readable image: ${(e as Error).message}`);
  }
}
