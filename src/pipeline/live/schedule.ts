import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Scheduled } from '../load/visibility.ts';

/**
 * The next scheduled post of a build, recorded in its folder: `npm run build` skips no build once it
 * is due (scripts/build.ts), and `npm start` builds again at its time (src/server/schedule.ts).
 */
export const SCHEDULE_FILE = 'schedule.json';

export interface NextPost extends Scheduled {
  /** The content root that holds it (main, sandbox). */
  root: string;
}

export interface BuildSchedule {
  next?: NextPost;
}

/** How the bundle step tells the build a root's next scheduled post (one line of its output). */
export const scheduledLine = (root: string, s: Scheduled) => `scheduled ${root} ${s.slug} ${s.date}`;

/** The earliest of the bundle step's scheduled lines, if any. */
export function earliestScheduled(output: string): NextPost | undefined {
  const all = [...output.matchAll(/^scheduled (\S+) (\S+) (\S+)$/gm)].map(([, root, slug, date]) => ({ root: root!, slug: slug!, date: date! }));
  return all.sort((a, b) => Date.parse(a.date) - Date.parse(b.date))[0];
}

/** Whether a scheduled post has become due at `now`. */
export const isDue = (next: NextPost | undefined, now = Date.now()) => next !== undefined && Date.parse(next.date) <= now;

/** A build folder's schedule (none when it records none). */
export async function readSchedule(buildDir: string): Promise<BuildSchedule> {
  const text = await readFile(join(buildDir, SCHEDULE_FILE), 'utf8').catch(() => '{}');
  return JSON.parse(text) as BuildSchedule;
}

/** The one line `npm run build` prints about the next scheduled post. */
export function describeNext(next: NextPost | undefined, now = Date.now()): string {
  if (!next) return 'scheduled: no post is scheduled';
  const minutes = Math.max(0, Math.round((Date.parse(next.date) - now) / 60000));
  const wait = minutes < 60 ? `${minutes} min` : minutes < 2880 ? `${Math.round(minutes / 60)} h` : `${Math.round(minutes / 1440)} days`;
  return `next scheduled post: ${next.slug}${next.root === 'main' ? '' : ` (${next.root})`} at ${next.date} (in ${wait}); npm start builds again then`;
}
