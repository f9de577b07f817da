import yaml from 'js-yaml';
import type { DocumentText } from './segments.ts';

export interface TranslationMeta {
  /** null: a person's work (an imported XLIFF file made outside Folio's engines). */
  provider: string | null;
  sourceHash: string;
  /** False for a person's work; true (the default) for an engine's. */
  automated?: boolean;
  modified?: string;
  /** Left out of published builds (kept as the file said). */
  draft?: boolean;
  /** Where the file keeps a person's text whose English changed since (TranslationMemory.carryOver): `needs_review`, and the API reports it stale. */
  needsReview?: readonly string[];
  /** A person's review (the review page): who and when, and whether every segment is approved (`verified`). */
  review?: { by: string; at: string; verified: boolean };
}

/**
 * A translation file as Folio writes it: the translated title, summary and cover alt text, the engine that made it
 * (`<id>:<version>`), `automated: true`, `verified: false` until a person runs `translations verify` or
 * approves every segment on the review page (which records `verified_by` and `verified_at` too),
 * the English source it was made from, and `needs_review`: the segments where a person's text is
 * kept although the English under it changed.
 */
export function translationFile(doc: DocumentText, meta: TranslationMeta): string {
  const front = {
    title: doc.title,
    ...(doc.summary === undefined ? {} : { summary: doc.summary }),
    ...(doc.featuredImageAlt === undefined ? {} : { featured_image_alt: doc.featuredImageAlt }),
    ...(meta.modified ? { modified: meta.modified } : {}),
    ...(meta.draft ? { draft: true } : {}),
    provider: meta.provider,
    automated: meta.automated ?? true,
    verified: meta.review?.verified ?? false,
    ...(meta.review ? { verified_by: meta.review.by, verified_at: meta.review.at } : {}),
    source_hash: meta.sourceHash,
  };
  // One line (a flow list), so `translations verify` can drop it as it sets other fields.
  const review = meta.needsReview?.length ? `needs_review: ${JSON.stringify(meta.needsReview)}\n` : '';
  return `---\n${yaml.dump(front, { lineWidth: -1, quotingType: '"', forceQuotes: true }).replace(/: "(true|false)"$/gm, ': $1')}${review}---\n\n${doc.body.replace(/^\n+/, '')}`;
}
