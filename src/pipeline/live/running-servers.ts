import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * The servers following a publish folder's `current` (each `npm start`/`npm run serve` main process
 * records its address in `servers/<pid>.json` there while it runs), so that a build about to re-point
 * their absolute URLs can say so (issue 41: `npm run build` without PORT silently moved a server's
 * links to 4321).
 */
export interface RunningServer {
  pid: number;
  /** The address it answers on: http://localhost:<port>. */
  url: string;
}

const SERVERS = 'servers';

/** Records this process as a server of `out`; the record goes when the process exits. */
export async function recordServer(out: string, url: string): Promise<void> {
  const dir = join(out, SERVERS);
  const file = join(dir, `${process.pid}.json`);
  await mkdir(dir, { recursive: true });
  await writeFile(file, JSON.stringify({ pid: process.pid, url } satisfies RunningServer));
  process.once('exit', () => rmSync(file, { force: true }));
}

/** The servers of `out` whose process lives (a record left by a killed one is skipped). */
export function runningServers(out: string): RunningServer[] {
  let names: string[];
  try {
    names = readdirSync(join(out, SERVERS));
  } catch {
    return [];
  }
  const alive: RunningServer[] = [];
  for (const name of names) {
    try {
      const server = JSON.parse(readFileSync(join(out, SERVERS, name), 'utf8')) as RunningServer;
      process.kill(server.pid, 0);
      alive.push(server);
    } catch {
      // Gone, or a record being written: not a server to warn about.
    }
  }
  return alive;
}

/**
 * One line when this build's absolute URLs would differ from those the running servers serve now
 * (the live build's), naming the setting that keeps them; undefined when they agree or no server runs.
 */
export function urlChangeWarning(next: string, live: string | undefined, servers: readonly RunningServer[]): string | undefined {
  if (live === undefined || live === next || servers.length === 0) return undefined;
  const where = servers.map((s) => s.url).join(', ');
  const port = servers.find((s) => s.url === live) && /^http:\/\/localhost:(\d+)$/.exec(live)?.[1];
  const keep = port ? `PORT=${port} npm run build` : `SITE_URL=${live} npm run build`;
  return `warning: this build's absolute URLs start with ${next}, the live build's with ${live} (served on ${where}): once live, its links point there; to keep them, build with ${keep}`;
}
