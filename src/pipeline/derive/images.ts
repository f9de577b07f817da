import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { imageSize } from 'image-size';
import { FileError } from '../load/file-error.ts';
import type { ImageFacts } from '../../core/responsive-images.ts';

/** A post's files that are images, by name: measured (and digested) before the bodies render. */
export const isImageName = (name: string) => /\.(jpe?g|png|webp|avif|gif|svg)$/i.test(name);

/** Real pixel size read from the file's header, and the digest of its bytes. */
export async function measureImage(dir: string, name: string): Promise<ImageFacts> {
  const file = join(dir, name);
  try {
    // Synchronous: one small read, cheaper than its trips through libuv's pool.
    const bytes = readFileSync(file);
    const { width, height } = imageSize(bytes);
    if (!width || !height) throw new Error('no dimensions in header');
    return { width, height, digest: createHash('sha256').update(bytes).digest('hex') };
  } catch (e) {
    throw new FileError(file, '', `is not a readable image: ${(e as Error).message}`);
  }
}
