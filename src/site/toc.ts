import type { Section } from '../core/types.ts';

export interface TocEntry {
  id: string;
  text: string;
  children: TocEntry[];
}

/** Sections (h2) from which an essay is long enough for a table of contents. */
export const TOC_MIN_SECTIONS = 3;

/**
 * A long essay's table of contents: its h2 sections, each with its h3 subsections (h4 are left
 * out, as Starlight does by default); none for an essay of fewer than three sections.
 */
export function tableOfContents(sections: readonly Section[]): TocEntry[] {
  if (sections.filter((s) => s.level === 2).length < TOC_MIN_SECTIONS) return [];
  const toc: TocEntry[] = [];
  for (const { level, text, id } of sections) {
    const entry = { id, text, children: [] };
    if (level === 2 || (level === 3 && toc.length === 0)) toc.push(entry);
    else if (level === 3) toc.at(-1)!.children.push(entry);
  }
  return toc;
}
