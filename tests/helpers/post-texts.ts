import { render } from '../../src/pipeline/derive/render.ts';
import { loadAll } from '../../src/translate/translation-status.ts';

/** One language of one post as the search quotes it: the plain text the build keeps for snippets. */
export interface PostText {
  slug: string;
  lang: string;
  text: string;
}

/**
 * Every source file of every post rendered as the build renders it (render's `text`, one line per
 * block), whatever its translation's state: snippets are cut from this text alone.
 */
export async function postTexts(root: 'content' | 'sandbox'): Promise<PostText[]> {
  const out: PostText[] = [];
  for (const post of await loadAll(root)) {
    const ctx = { mediaPath: `/media/${post.slug}/`, mediaRoot: '/media', images: {}, siteUrl: 'https://folio.example', assets: post.assets };
    for (const file of [post.english, ...post.translations]) out.push({ slug: post.slug, lang: file.lang, text: render(file.format, file.body, { ...ctx, lang: file.lang }).text });
  }
  return out;
}
