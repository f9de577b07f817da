import { createServer } from 'node:net';
import lighthouse, { desktopConfig } from 'lighthouse';
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM, LAUNCH_TIMEOUT } from './chromium.ts';

export const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
export type Category = (typeof CATEGORIES)[number];
export type FormFactor = 'mobile' | 'desktop';

/** One page's Lighthouse result: the four scores (0-100), the scored audits under 100 in each, the console's errors (URL: message). */
export interface Audit { scores: Record<Category, number>; below: Record<Category, string[]>; consoleErrors: string[] }

/** The audits under 100 of a result, each named once, for a report. */
export const belowAll = (a: Audit) => [...new Set(CATEGORIES.flatMap((c) => a.below[c]))];

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

/** Debian's Chromium with a DevTools port for Lighthouse to drive (one for many pages, one after another). */
export async function lighthouseBrowser(): Promise<{ browser: Browser; port: number }> {
  const port = await freePort();
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    timeout: LAUNCH_TIMEOUT(),
    args: [`--remote-debugging-port=${port}`, '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  return { browser, port };
}

/**
 * Lighthouse's four categories on a page, with its default mobile settings or its desktop ones. A 404 page
 * is audited too (Lighthouse refuses one unless told to ignore the status).
 */
export async function audit(url: string, port: number, formFactor: FormFactor): Promise<Audit> {
  const result = await lighthouse(url, { port, output: 'json', logLevel: 'error', onlyCategories: [...CATEGORIES], ignoreStatusCode: true }, formFactor === 'desktop' ? desktopConfig : undefined);
  const lhr = result!.lhr;
  const scores = Object.fromEntries(CATEGORIES.map((c) => [c, Math.round((lhr.categories[c]?.score ?? 0) * 100)])) as Record<Category, number>;
  // Informative audits have no score, and weight 0 ones do not count.
  const below = Object.fromEntries(CATEGORIES.map((c) => [c, (lhr.categories[c]?.auditRefs ?? []).filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1).map((ref) => ref.id)])) as Record<Category, string[]>;
  const errors = (lhr.audits['errors-in-console']?.details as { items?: { description?: string; sourceLocation?: { url?: string } }[] } | undefined)?.items ?? [];
  return { scores, below, consoleErrors: errors.map((e) => `${e.sourceLocation?.url ?? ''}: ${e.description ?? ''}`) };
}
