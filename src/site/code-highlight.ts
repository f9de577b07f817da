import { createHighlighterCoreSync, type HighlighterCore } from 'shiki/core';
import { createJavaScriptRegexEngine } from 'shiki/engine/javascript';
import bash from '@shikijs/langs/bash';
import c from '@shikijs/langs/c';
import cpp from '@shikijs/langs/cpp';
import css from '@shikijs/langs/css';
import diff from '@shikijs/langs/diff';
import go from '@shikijs/langs/go';
import html from '@shikijs/langs/html';
import java from '@shikijs/langs/java';
import javascript from '@shikijs/langs/javascript';
import json from '@shikijs/langs/json';
import jsx from '@shikijs/langs/jsx';
import markdown from '@shikijs/langs/markdown';
import php from '@shikijs/langs/php';
import python from '@shikijs/langs/python';
import ruby from '@shikijs/langs/ruby';
import rust from '@shikijs/langs/rust';
import sql from '@shikijs/langs/sql';
import toml from '@shikijs/langs/toml';
import tsx from '@shikijs/langs/tsx';
import typescript from '@shikijs/langs/typescript';
import xml from '@shikijs/langs/xml';
import yaml from '@shikijs/langs/yaml';
import githubDark from '@shikijs/themes/github-dark';
import githubLight from '@shikijs/themes/github-light';
import { toText } from 'hast-util-to-text';
import { visit } from 'unist-util-visit';
import type { Element, Root } from 'hast';

/** The languages a fenced block is coloured in (with their aliases: js, ts, sh, py, yml...); others stay plain. */
const LANGS = [bash, c, cpp, css, diff, go, html, java, javascript, json, jsx, markdown, php, python, ruby, rust, sql, toml, tsx, typescript, xml, yaml];

/** Each fence name (a grammar's name or alias) to the grammars that colour it (the grammar last, its embedded ones first). */
const BY_NAME = new Map(LANGS.flatMap((grammars) => {
  const main = grammars.at(-1)!;
  return [main.name, ...(main.aliases ?? [])].map((name) => [name, grammars] as const);
}));

// Built on the first coloured block, each grammar loaded on its first block: a page without code
// costs nothing. The JavaScript regex engine needs no WebAssembly, so colouring is synchronous like
// the rest of the page's pipeline.
let highlighter: HighlighterCore | undefined;
function shiki(lang: string): HighlighterCore | undefined {
  const grammars = BY_NAME.get(lang);
  if (!grammars) return undefined;
  highlighter ??= createHighlighterCoreSync({ themes: [githubLight, githubDark], langs: [], engine: createJavaScriptRegexEngine() });
  if (!highlighter.getLoadedLanguages().includes(lang)) highlighter.loadLanguageSync(grammars);
  return highlighter;
}

/** The fence's language, from remark's `language-<name>` class on the code element. */
function fenceLanguage(code: Element): string | undefined {
  const classes = code.properties.className;
  const name = Array.isArray(classes) ? classes.map(String).find((n) => n.startsWith('language-')) : undefined;
  return name?.slice('language-'.length).toLowerCase();
}

/**
 * Fenced code in a known language, coloured at build time (Shiki, GitHub's light and dark themes as
 * CSS variables that site.css picks with the page's theme): no script and no stylesheet reach the
 * reader. The API's content_html keeps the plain block.
 */
export function highlightCode() {
  return (tree: Root) => {
    visit(tree, 'element', (pre: Element, index, parent) => {
      if (pre.tagName !== 'pre' || !parent || index === undefined) return;
      const code = pre.children.find((c): c is Element => c.type === 'element' && c.tagName === 'code');
      const lang = code && fenceLanguage(code);
      if (!code || !lang) return;
      const h = shiki(lang);
      if (!h) return;
      const coloured = h.codeToHast(toText(code, { whitespace: 'pre' }).replace(/\n$/, ''), { lang, themes: { light: 'github-light', dark: 'github-dark' }, defaultColor: false });
      const out = coloured.children[0] as Element;
      out.properties.dataLanguage = lang;
      out.properties.dir = 'ltr';
      parent.children[index] = out;
    });
  };
}
