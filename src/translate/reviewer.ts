import { execFileSync } from 'node:child_process';

/** The git user.name of the repository `cwd` is in ('' when git or the name is absent): the default reviewer of a translation. */
export function gitUserName(cwd: string): string {
  try {
    return execFileSync('git', ['config', 'user.name'], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return '';
  }
}

/** Today's date as `verified_at` records it (ISO, YYYY-MM-DD, UTC). */
export const reviewDate = (now = new Date()) => now.toISOString().slice(0, 10);
