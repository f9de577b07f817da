import { mkdir } from 'node:fs/promises';
import { writeWhole } from '../../fs/write-whole.ts';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { DigestCache } from './cache.ts';
import { placeFile } from '../reuse/place-file.ts';
import { VARIANT_FORMATS, variantName, variantWidths, type ImageFacts, type VariantFormat } from '../../core/responsive-images.ts';

// Each file is read once: libvips' operation cache would only hold memory.
sharp.cache(false);

/** Encoder settings: AVIF at effort 2 is a tenth of the default's time for a few percent more bytes. */
const ENCODING: Record<VariantFormat['ext'], object> = { avif: { quality: 55, effort: 2 }, webp: { quality: 75 } };

/**
 * Makes the AVIF and WebP widths of a post's images into the bundle's variant folder. Each variant is
 * kept in the build cache under its content digest and the encoder settings, so an image whose bytes
 * did not change is linked from the cache, never encoded again, and identical files (in any post) are encoded once.
 */
export class VariantMaker {
  encoded = 0;
  reused = 0;
  private readonly cacheDir: string;
  private readonly outDir: string;
  private readonly made = new Map<string, Promise<void>>();

  constructor(cacheDir: string, outDir: string) {
    this.cacheDir = join(cacheDir, 'images', DigestCache.digest(JSON.stringify(ENCODING)).slice(0, 16));
    this.outDir = outDir;
  }

  /** Every variant of `file` in the output folder; resolves when all are written. */
  async make(file: string, facts: ImageFacts): Promise<void> {
    const jobs: Promise<void>[] = [];
    for (const width of variantWidths(facts.width)) {
      for (const format of VARIANT_FORMATS) {
        const name = variantName(facts.digest, width, format);
        if (!this.made.has(name)) this.made.set(name, this.variant(file, name, width, format));
        jobs.push(this.made.get(name)!);
      }
    }
    await Promise.all(jobs);
  }

  private async variant(file: string, name: string, width: number, format: VariantFormat): Promise<void> {
    const cached = join(this.cacheDir, name);
    if (existsSync(cached)) {
      this.reused++;
    } else {
      const bytes = await sharp(file).resize({ width, withoutEnlargement: true }).toFormat(format.ext, ENCODING[format.ext]).toBuffer();
      await mkdir(this.cacheDir, { recursive: true });
      // A build stopped midway never leaves a truncated variant cached.
      await writeWhole(cached, bytes);
      this.encoded++;
    }
    await mkdir(this.outDir, { recursive: true });
    placeFile(cached, join(this.outDir, name));
  }
}
