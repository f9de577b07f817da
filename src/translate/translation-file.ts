import yaml from 'js-yaml';
import type { DocumentText } from './segments.ts';

export interface TranslationMeta {
  /** null: a person's work (an imported XLIFF file made outside Folio's engines). */
  provider: string | null;
  sourceHash: string;
  /** False for a person's work; true (the default) for an engine's. */
  automated?: boolean;
  modified?: string;
}

/**
 * A translation file as Folio writes it: the translated title, summary and cover alt text, the engine that made it
 * (`<id>:<version>`), `automated: true`, `verified: false` until a person runs `translations verify`,
 * and the English source it was made from.
 */
export function translationFile(doc: DocumentText, meta: TranslationMeta): string {
  const front = {
    title: doc.title,
    ...(doc.summary === undefined ? {} : { summary: doc.summary }),
    ...(doc.featuredImageAlt === undefined ? {} : { featured_image_alt: doc.featuredImageAlt }),
    ...(meta.modified ? { modified: meta.modified } : {}),
    provider: meta.provider,
    automated: meta.automated ?? true,
    verified: false,
    source_hash: meta.sourceHash,
  };
  return `---\n${yaml.dump(front, { lineWidth: -1, quotingType: '"', forceQuotes: true }).replace(/: "(true|false)"$/gm, ': $1')}---\n\n${doc.body.replace(/^\n+/, '')}`;
}
