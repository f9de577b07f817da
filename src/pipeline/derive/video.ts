import type { Element } from 'hast';
import { DEFAULT_LANGUAGE, LANGUAGE_CODES, language } from '../../core/languages.ts';

const POSTER_EXTENSIONS = ['jpg', 'jpeg', 'png', 'webp', 'avif'];

/**
 * A post video's companions from the files beside it, unless the author gave them: its poster, an
 * image of the same name (`tide.jpg` for `tide.mp4`), and its captions, `tide.vtt` (English, the
 * language the post is written in) and `tide.<lang>.vtt`, each a `<track kind="captions">`; the one in
 * the page's language, else the first, is on by default.
 */
export function videoCompanions(video: Element, name: string, assets: readonly string[], lang: string, mediaPath: string): void {
  const base = name.replace(/\.[^.]+$/, '');
  const poster = POSTER_EXTENSIONS.map((ext) => `${base}.${ext}`).find((file) => assets.includes(file));
  if (poster && video.properties.poster === undefined) video.properties.poster = mediaPath + poster;
  if (video.children.some((c) => c.type === 'element' && c.tagName === 'track')) return;
  const tracks = LANGUAGE_CODES.flatMap((code) => {
    const file = [`${base}.${code}.vtt`, ...(code === DEFAULT_LANGUAGE ? [`${base}.vtt`] : [])].find((f) => assets.includes(f));
    return file ? [{ code, file }] : [];
  });
  const on = tracks.find((t) => t.code === lang) ?? tracks[0];
  for (const t of tracks) {
    // The file's name as written beside the video: the render makes it site-absolute and the link check knows it.
    video.children.push({
      type: 'element',
      tagName: 'track',
      properties: { kind: 'captions', src: t.file, srcLang: language(t.code).hreflang, label: language(t.code).native_name, ...(t === on ? { default: true } : {}) },
      children: [],
    });
  }
}
