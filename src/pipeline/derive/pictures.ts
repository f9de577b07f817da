import { SKIP, visit } from 'unist-util-visit';
import type { Element, ElementContent, Root } from 'hast';
import { hasVariants, pictureSources, sizesOf, type ImageFacts } from '../../core/responsive-images.ts';

export interface PictureContext {
  /** Site path of the post's media folder, with trailing slash: /media/<slug>/ */
  mediaPath: string;
  /** Site path of the root's media: /media or /sandbox/media (where the variants are). */
  mediaRoot: string;
  /** The post's image files by name. */
  images: Readonly<Record<string, ImageFacts>>;
}

const element = (tagName: string, properties: Element['properties'], children: ElementContent[] = []): Element => ({ type: 'element', tagName, properties, children });

const isBlank = (node: ElementContent) => node.type === 'text' && node.value.trim() === '';

/**
 * The post's own images: their measured `width`/`height` (no layout shift) and a `<picture>` offering
 * the AVIF and WebP widths the build makes with the original as the fallback. Any image alone in its
 * paragraph with a Markdown title (`![alt](file.jpg "Title")`), the post's or another site's, is a
 * `<figure>` captioned by it.
 */
export function responsivePictures(tree: Root, ctx: PictureContext): void {
  visit(tree, 'element', (el: Element, index, parent) => {
    if (el.tagName !== 'img' || index === undefined || !parent) return;
    const shown = pictureOf(el, ctx);
    const title = typeof el.properties.title === 'string' ? el.properties.title.trim() : '';
    const alone = parent.type === 'element' && parent.tagName === 'p' && parent.children.every((c) => c === el || isBlank(c));
    if (title && alone) {
      delete el.properties.title;
      parent.tagName = 'figure';
      parent.children = [shown, element('figcaption', {}, [{ type: 'text', value: title }])];
      return SKIP;
    }
    parent.children[index] = shown;
    return SKIP;
  });
}

/** A post-folder image sized and offered in its variants; any other image as it is. */
function pictureOf(el: Element, ctx: PictureContext): Element {
  const src = el.properties.src;
  const facts = typeof src === 'string' && src.startsWith(ctx.mediaPath) ? ctx.images[src.slice(ctx.mediaPath.length)] : undefined;
  if (!facts) return el;
  const name = (src as string).slice(ctx.mediaPath.length);
  if (el.properties.width === undefined && el.properties.height === undefined) Object.assign(el.properties, { width: facts.width, height: facts.height });
  el.properties.decoding ??= 'async';
  const sources = hasVariants(name) ? pictureSources(facts, ctx.mediaRoot).map((s) => element('source', { type: s.type, srcSet: s.srcset, sizes: sizesOf(facts) })) : [];
  return sources.length > 0 ? element('picture', {}, [...sources, el]) : el;
}
