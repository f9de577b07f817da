/**
 * Responsive images, as data: which widths and formats the build makes of a raster image and where
 * they are published. The build's encoder, the body renderer and the post page's cover all read
 * this, so the files made and the `srcset` that names them cannot drift apart.
 */

/** What the build knows of a post's image file: its real pixel size and a digest of its bytes. */
export interface ImageFacts {
  width: number;
  height: number;
  /** sha256 of the file's bytes, hex: names the variants, so identical files share them. */
  digest: string;
}

/** Widths made (never wider than the original): a phone, the column at 1x, the column at 2x. */
export const VARIANT_WIDTHS = [400, 800, 1200] as const;

/** Newest format first: a browser takes the first `<source>` whose type it knows. */
export const VARIANT_FORMATS = [
  { ext: 'avif', type: 'image/avif' },
  { ext: 'webp', type: 'image/webp' },
] as const;

export type VariantFormat = (typeof VARIANT_FORMATS)[number];

/** Files sharp can resize; GIF (animation) and SVG (vector) are served as they are. */
export const hasVariants = (name: string) => /\.(jpe?g|png|webp|avif)$/i.test(name);

/** The widths made of an image `width` pixels wide: the steps below it, then its own (capped). */
export function variantWidths(width: number): number[] {
  const top = VARIANT_WIDTHS[VARIANT_WIDTHS.length - 1]!;
  return [...VARIANT_WIDTHS.filter((w) => w < Math.min(width, top)), Math.min(width, top)];
}

/** Variants live in one folder of the root's media, named by content: `_` never starts a slug. */
export const VARIANT_FOLDER = '_v';

export const variantName = (digest: string, width: number, format: VariantFormat) => `${digest.slice(0, 20)}-${width}.${format.ext}`;

export interface PictureSource {
  type: string;
  srcset: string;
}

/** One `<source>` per format, each listing every width; `mediaRoot` is the root's `/media` path. */
export function pictureSources(facts: ImageFacts, mediaRoot: string): PictureSource[] {
  const widths = variantWidths(facts.width);
  return VARIANT_FORMATS.map((format) => ({
    type: format.type,
    srcset: widths.map((w) => `${mediaRoot}/${VARIANT_FOLDER}/${variantName(facts.digest, w, format)} ${w}w`).join(', '),
  }));
}

/**
 * The width an image is shown at: the text column (src/styles/site.css: `--measure` less the inline
 * padding; on a phone the viewport less the padding), or its own width when narrower, so a browser
 * picks the smallest file that fills it.
 */
export const sizesOf = (facts: ImageFacts) => `(min-width: 42rem) min(39.5rem, ${facts.width}px), min(100vw - 2.5rem, ${facts.width}px)`;

/** The width of a list card's cover (src/styles/site.css, `ol.posts`): beside the text from 40rem, the column's width below. */
export const cardSizesOf = (facts: ImageFacts) => `(min-width: 40rem) 12rem, min(100vw - 2.5rem, ${facts.width}px)`;
