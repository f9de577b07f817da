import { FolioError } from '../src/core/errors.ts';
import { FORMATS } from '../src/core/formats.ts';
import { DEFAULT_LANGUAGE } from '../src/core/languages.ts';
import { markdownDocument } from '../src/core/markdown-document.ts';
import { negotiate } from '../src/core/negotiate.ts';
import type { Handler } from './context.ts';
import { errorJson, json, text } from './http.ts';

const OFFERS = [FORMATS.html, FORMATS.json, FORMATS.markdown] as const;

/**
 * `/{slug}` and `/{lang}/{slug}`: HTML by default, the API envelope for JSON (a page's is
 * /api/pages/{slug}'s), the Markdown document for Markdown (the route table only sends known posts
 * and pages here, and sends Vary: Accept).
 */
export const negotiatePost: Handler = async (ctx) => {
  const lang = ctx.params.lang ?? DEFAULT_LANGUAGE;
  const slug = ctx.params.slug!;
  const format = negotiate(ctx.request.headers.get('accept'), OFFERS);
  const params = new URLSearchParams(ctx.url.search);
  params.set('lang', lang);
  const { core } = ctx.root;
  let single;
  try {
    single = await (core.index.pagesBySlug.has(slug) ? core.pages.get(slug, params) : core.posts.get(slug, params));
  } catch (e) {
    if (!(e instanceof FolioError)) throw e;
    if (format === FORMATS.json) return errorJson(e);
    if (format === FORMATS.markdown) {
      const english = String(e.details.english_url ?? '');
      return text(`# Not available\n\n${e.message}\n\nEnglish original: ${english}\n`, FORMATS.markdown.contentType, 404);
    }
    return undefined;
  }
  if (format === FORMATS.json) return json(single);
  if (format === FORMATS.markdown) return text(markdownDocument(single), FORMATS.markdown.contentType);
  return ctx.host.assets.fetch(ctx.url.pathname, ctx.request);
};
