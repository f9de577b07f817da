/**
 * Which posts and translations a build holds. A draft (`draft: true` in the English source: the
 * whole post; in a translation: that translation) and a post dated in the future (scheduled) are
 * left out of a published build; a preview build (`npm run dev`, `npm run build -- --drafts`)
 * holds them, marked so that their pages carry a banner.
 */
export type Preview = 'draft' | 'scheduled';

/** How a post or translation is in a build: published, in a preview only (marked), or not at all. */
export interface Visibility {
  in: boolean;
  preview?: Preview;
}

export interface Dated {
  date: string;
  draft: boolean;
}

const OUT: Visibility = { in: false };

/** A post by its English source: a draft, scheduled (dated after `now`), or published. */
export function postVisibility(english: Dated, now: number, previews: boolean): Visibility {
  const preview: Preview | undefined = english.draft ? 'draft' : Date.parse(english.date) > now ? 'scheduled' : undefined;
  if (!preview) return { in: true };
  return previews ? { in: true, preview } : OUT;
}

/** A translation of a post that is in the build: a draft translation only in a preview. */
export function translationVisibility(translation: { draft: boolean }, previews: boolean): Visibility {
  if (!translation.draft) return { in: true };
  return previews ? { in: true, preview: 'draft' } : OUT;
}

export interface Scheduled {
  slug: string;
  date: string;
}

/** The post that goes out next: the earliest dated after `now` that is not a draft (a draft waits for `npm run publish`). */
export function nextScheduled(posts: readonly (Dated & { slug: string })[], now: number): Scheduled | undefined {
  let next: Scheduled | undefined;
  for (const p of posts) {
    if (p.draft || Date.parse(p.date) <= now) continue;
    if (!next || Date.parse(p.date) < Date.parse(next.date) || (p.date === next.date && p.slug < next.slug)) next = { slug: p.slug, date: p.date };
  }
  return next;
}
