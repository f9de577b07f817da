import { join } from 'node:path';
import type { FolderSource, PageEnglishSource } from '../../pipeline/load/posts.ts';
import type { Glossary } from '../glossary.ts';
import { MEMORY_FILE, TranslationMemory } from '../memory.ts';
import { documentText, segmentDocument } from '../segments.ts';
import { currentTargets } from './xliff.ts';

/**
 * The translation memory as TMX 1.4b, for any CAT tool. The memory keys segments by a digest of
 * their English, so what can be shared is what the translations hold now: every English segment of
 * every post and page with its text in each translation that lines up with the English, one <tu>
 * per English segment, its translations side by side. A segment a person wrote (the memory's
 * human corrections) carries `<prop type="x-folio-author">person</prop>` in its <tuv>.
 * Inline markup as TMX codes: a placeholder an empty <ph x="n"/>, a link a <bpt type="link"
 * x="n"/>…<ept/> pair, emphasis a bold/italic/strike pair.
 */
type Translatable = FolderSource<PageEnglishSource>;

const TAG = /<(\/?)(em|strong|del|a|x)(?:\s+i="(\d+)")?\s*>/g;
const TYPE = { em: 'italic', strong: 'bold', del: 'strike', a: 'link' } as const;

function tmxInline(tagged: string): string {
  let out = '';
  let at = 0;
  let pair = 0;
  const open: number[] = [];
  for (const m of tagged.matchAll(TAG)) {
    out += tagged.slice(at, m.index);
    at = m.index + m[0].length;
    const [, closing, tag, id] = m;
    if (tag === 'x') {
      if (!closing) out += `<ph x="${id}"/>`;
    } else if (closing) out += `<ept i="${open.pop()}"/>`;
    else {
      open.push(++pair);
      out += `<bpt i="${pair}"${id ? ` x="${id}"` : ''} type="${TYPE[tag as keyof typeof TYPE]}"/>`;
    }
  }
  return out + tagged.slice(at);
}

export async function exportTmx(all: readonly Translatable[], glossary: Glossary | undefined): Promise<{ xml: string; units: number }> {
  const options = { protect: glossary?.protect };
  /** English segment -> language -> [text, by a person]. */
  const units = new Map<string, Map<string, [string, boolean]>>();
  for (const post of all) {
    if (post.english.format !== 'md') continue;
    const english = segmentDocument(documentText(post.english, post.english.body), options);
    const memory = await TranslationMemory.open(join(post.dir, MEMORY_FILE));
    for (const t of post.translations) {
      if (t.format !== 'md') continue;
      const targets = currentTargets(english, segmentDocument(documentText(t, t.body), options));
      if (!targets) continue;
      for (const [i, segment] of english.segments.entries()) {
        const byLang = units.get(segment.text) ?? new Map<string, [string, boolean]>();
        units.set(segment.text, byLang);
        if (!byLang.has(t.lang)) byLang.set(t.lang, [targets[i]!, memory.lookup(segment.text, t.lang, '')?.human === true]);
      }
    }
  }
  const tus = [...units].map(([source, byLang]) =>
    [
      '  <tu>',
      `   <tuv xml:lang="en"><seg>${tmxInline(source)}</seg></tuv>`,
      ...[...byLang].map(([lang, [text, human]]) => `   <tuv xml:lang="${lang}">${human ? '<prop type="x-folio-author">person</prop>' : ''}<seg>${tmxInline(text)}</seg></tuv>`),
      '  </tu>',
    ].join('\n'),
  );
  const xml = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<tmx version="1.4">',
    ' <header creationtool="Folio" creationtoolversion="2" segtype="block" o-tmf="folio-memory" adminlang="en" srclang="en" datatype="html"/>',
    ' <body>',
    ...tus,
    ' </body>',
    '</tmx>',
    '',
  ].join('\n');
  return { xml, units: tus.length };
}
