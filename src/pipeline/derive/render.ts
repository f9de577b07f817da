import { unified } from 'unified';
import remarkParse from 'remark-parse';
import remarkGfm from 'remark-gfm';
import remarkRehype from 'remark-rehype';
import rehypeRaw from 'rehype-raw';
import rehypeStringify from 'rehype-stringify';
import rehypeParse from 'rehype-parse';
import rehypeRemark from 'rehype-remark';
import remarkStringify from 'remark-stringify';
import { EXIT, visit } from 'unist-util-visit';
import { toText } from 'hast-util-to-text';
import GithubSlugger from 'github-slugger';
import type { Root, Element, Text } from 'hast';
import type { Root as MdastRoot } from 'mdast';
import type { MediaItem, Section } from '../../core/types.ts';
import { responsivePictures, type PictureContext } from './pictures.ts';
import { videoCompanions } from './video.ts';
import { format, messages } from '../../core/messages.ts';
import { readerOf } from '../../site/reader-html.ts';

/** What one source file becomes: HTML, Markdown, plain text and what the body references. */
export interface Rendered {
  html: string;
  markdown: string;
  text: string;
  links: string[];
  media: MediaItem[];
  sections: Section[];
  /** Post-folder images the body uses, by file name, with their alt text. */
  localImages: { name: string; alt: string }[];
  /** Every reference the body makes, as written, with its line in the body: for the link check (src/pipeline/check). */
  refs: Reference[];
  /** Every element id of the body (heading slugs, footnotes, raw HTML): the fragments a link to it may name. */
  ids: string[];
  /**
   * The body as a post's page shows it: `readerHtml(html, lang, 1, siteUrl)` (src/site/reader-html.ts),
   * made here from the tree; none for a body with a code block, which its page colours (Shiki's
   * colours of a block were seen to depend on the blocks its process coloured before: the pages
   * process colours them all, in the same order as ever).
   */
  reader?: string;
}

/** A reference in a body: a link (`href`) or an embedded file (`src`, `poster`), as the author wrote it. */
export interface Reference {
  url: string;
  /** What the author sees it as: `link`, or the embedded file's element (`image`, `video`, `audio`, `iframe`). */
  what: string;
  line: number;
}

const EMBEDS: Record<string, string> = { img: 'image', video: 'video', source: 'video', audio: 'audio', iframe: 'iframe', track: 'captions' };

/**
 * The post-folder file a reference names (`cover.jpg`, `./cover.jpg`, `my%20photo.jpg`), or
 * undefined: a reference to a sibling file is made site-absolute, every other one is left as written.
 */
export function localName(value: unknown, assets: readonly string[]): string | undefined {
  if (typeof value !== 'string') return undefined;
  const name = value.replace(/^\.\//, '');
  if (assets.includes(name)) return name;
  try {
    const decoded = decodeURIComponent(name);
    return assets.includes(decoded) ? decoded : undefined;
  } catch {
    return undefined;
  }
}

export interface RenderContext extends PictureContext {
  /** Origin for absolute media URLs. */
  siteUrl: string;
  assets: readonly string[];
  /** The language of the file rendered: a video's captions in it are shown by default. */
  lang: string;
}

/**
 * remark-rehype names the footnotes and their back links in English unless told: one processor per
 * language, and one without rehype-raw for a body that has no HTML of its own (most bodies): rehype-raw
 * parses the whole tree again through parse5, a sixth of a render, to the same tree when there is none.
 */
const markdownProcessors = new Map<string, ReturnType<typeof markdownProcessor>>();
function markdownProcessor(lang: string, raw: boolean) {
  const m = messages(lang);
  const processor = unified().use(remarkParse).use(remarkGfm).use(remarkRehype, {
    allowDangerousHtml: true,
    footnoteLabel: m.footnotes,
    footnoteBackLabel: (reference: number, rereference: number) => format(m.backToReference, { n: `${reference + 1}${rereference > 1 ? `-${rereference}` : ''}` }),
  });
  return raw ? processor.use(rehypeRaw) : processor;
}
function markdownToHast(lang: string, raw: boolean) {
  const key = `${lang}${raw ? '+raw' : ''}`;
  let processor = markdownProcessors.get(key);
  if (!processor) markdownProcessors.set(key, (processor = markdownProcessor(lang, raw)));
  return processor;
}
/** Whether a Markdown tree holds HTML the author wrote (a block or inline `html` node). */
function hasHtml(tree: MdastRoot): boolean {
  let found = false;
  visit(tree, 'html', () => {
    found = true;
    return EXIT;
  });
  return found;
}
/** The footnotes' heading is for screen readers (class sr-only): no section of the table of contents. */
const FOOTNOTE_LABEL = 'footnote-label';
const htmlToHast = unified().use(rehypeParse, { fragment: true });
const hastToHtml = unified().use(rehypeStringify);
const hastToMarkdown = unified().use(rehypeRemark).use(remarkStringify);

const isExternal = (url: string) => /^https?:\/\//i.test(url);

function mediaSrc(el: Element): string | undefined {
  const src = el.properties.src;
  if (typeof src === 'string') return src;
  const source = el.children.find((c): c is Element => c.type === 'element' && c.tagName === 'source');
  return typeof source?.properties.src === 'string' ? source.properties.src : undefined;
}

/** Point references to the post's own files at its media folder; collect links, media, headings. */
function transform(tree: Root, ctx: RenderContext) {
  const links: string[] = [];
  const media: MediaItem[] = [];
  const sections: Section[] = [];
  const localImages: { name: string; alt: string }[] = [];
  const refs: Reference[] = [];
  const ids: string[] = [];
  const slugger = new GithubSlugger();
  // A heading's slug never takes an id the author wrote on another element.
  const written = new Set<string>();
  visit(tree, 'element', (el: Element) => void (typeof el.properties.id === 'string' && written.add(el.properties.id)));
  const slug = (text: string) => {
    let id: string;
    do id = slugger.slug(text) || slugger.slug('section');
    while (written.has(id));
    return id;
  };
  const local = (value: unknown) => localName(value, ctx.assets);
  visit(tree, 'element', (el: Element) => {
    for (const attr of ['src', 'href', 'poster'] as const) {
      const url = el.properties[attr];
      if (typeof url === 'string') refs.push({ url, what: attr === 'href' ? 'link' : (EMBEDS[el.tagName] ?? 'link'), line: el.position?.start.line ?? 1 });
      const name = local(el.properties[attr]);
      if (name) el.properties[attr] = ctx.mediaPath + name;
    }
    if (el.tagName === 'source') return;
    const level = /^h([2-4])$/.exec(el.tagName);
    if (level && el.properties.id !== FOOTNOTE_LABEL) {
      const text = toText(el).trim();
      el.properties.id ??= slug(text);
      sections.push({ level: Number(level[1]), text, id: String(el.properties.id) });
    }
    if (typeof el.properties.id === 'string') ids.push(el.properties.id);
    if (el.tagName === 'a' && typeof el.properties.href === 'string' && isExternal(el.properties.href)) {
      links.push(el.properties.href);
    }
    if (el.tagName === 'img' || el.tagName === 'video' || el.tagName === 'iframe') {
      let src = mediaSrc(el);
      if (el.tagName === 'video') {
        for (const child of el.children) {
          if (child.type === 'element' && child.tagName === 'source') {
            const name = local(child.properties.src);
            if (name) child.properties.src = ctx.mediaPath + name;
          }
        }
        src = mediaSrc(el);
        if (src?.startsWith(ctx.mediaPath)) videoCompanions(el, src.slice(ctx.mediaPath.length), ctx.assets, ctx.lang, ctx.mediaPath);
      }
      if (!src) return;
      if (el.tagName === 'img') {
        el.properties.loading ??= 'lazy';
        if (src.startsWith(ctx.mediaPath)) localImages.push({ name: src.slice(ctx.mediaPath.length), alt: String(el.properties.alt ?? '') });
      }
      if (isExternal(src) && el.tagName === 'iframe') links.push(src);
      media.push({ type: el.tagName === 'img' ? 'image' : 'video', src: isExternal(src) ? src : ctx.siteUrl + src });
    }
  });
  return { links: [...new Set(links)], media, sections, localImages, refs, ids };
}

/** Markdown source with the post's own file references made site-absolute, so the .md twin resolves. */
function absoluteMarkdown(markdown: string, ctx: RenderContext): string {
  return markdown.replace(/(\]\(|src=["']|poster=["']|href=["'])([^)"'\s]+)/g, (whole, lead: string, ref: string) => {
    const name = localName(ref, ctx.assets);
    return name ? lead + ctx.mediaPath + name : whole;
  });
}

export function render(format: 'md' | 'html', body: string, ctx: RenderContext): Rendered {
  let tree: Root;
  if (format === 'md') {
    // The parse is the same with rehype-raw or without (it only adds a transform).
    const parsed = markdownToHast(ctx.lang, false).parse(body);
    tree = markdownToHast(ctx.lang, hasHtml(parsed)).runSync(parsed) as Root;
  } else tree = htmlToHast.runSync(htmlToHast.parse(body)) as Root;
  const found = transform(tree, ctx);
  // One line per block, so snippets can keep to the block they quote (src/core/snippet.ts).
  const text = toText(tree, { whitespace: 'normal' }).replace(/[^\S\n]+/g, ' ').replace(/ *\n\s*/g, '\n').trim();
  // The Markdown is the source's: taken before the page's picture markup is added.
  const markdown = format === 'md'
    ? absoluteMarkdown(body.trim(), ctx)
    : String(hastToMarkdown.stringify(hastToMarkdown.runSync(structuredClone(tree) as never) as never)).trim();
  responsivePictures(tree, ctx);
  const html = hastToHtml.stringify(tree).trim();
  // The post page's body, made from this tree as the page would make it from `html` (parsing it was
  // a tenth of the pages' time): the tree as that parse gives it, trimmed, its neighbouring texts one.
  return { html, markdown, text, ...found, ...(html.includes('<pre') ? {} : { reader: readerOf(asParsed(tree), ctx.lang, 1, ctx.siteUrl).trim() }) };
}

/** `tree` as parsing its HTML, trimmed, gives it: no blank text at either end, no two texts side by side. */
function asParsed(tree: Root): Root {
  const { children } = tree;
  while (children[0]?.type === 'text' && !(children[0].value = children[0].value.trimStart())) children.shift();
  while (children.at(-1)?.type === 'text') {
    const last = children.at(-1) as Text;
    if ((last.value = last.value.trimEnd())) break;
    children.pop();
  }
  visit(tree, (node) => {
    if (!('children' in node)) return;
    const kids = node.children as (Root['children'][number])[];
    for (let i = kids.length - 1; i > 0; i--) {
      const a = kids[i - 1]!;
      const b = kids[i]!;
      if (a.type === 'text' && b.type === 'text') {
        a.value += b.value;
        kids.splice(i, 1);
      }
    }
  });
  return tree;
}
