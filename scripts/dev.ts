// `npm run dev [-- --host [address]]`: build a preview (drafts and scheduled posts in it, with a
// banner: `--drafts`), serve every endpoint as `npm start` does (one worker, on
// localhost unless --host says otherwise), and rebuild on every
// change to the content or the templates. A good build goes live through the same atomic swap and
// open pages reload when their own bytes changed; a content error is printed here and shown on
// the open pages, while the last good build keeps serving. The same server answers /_review/, the
// translation review pages (src/translate/review/), to this machine only, with this session's token.
import { randomBytes } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { watch } from 'chokidar';
import { basename, join } from 'node:path';
import { createServer, type ServerResponse } from 'node:http';
import { PUBLISH, ROOTS } from '../src/artefact/roots.ts';
import { devHost } from '../src/server/dev-host.ts';

const WATCHED = [...ROOTS.map((r) => r.contentDir), 'src/components', 'src/layouts', 'src/pages', 'src/styles', 'src/site'];

// The pages of a dev build listen here (the URL is baked into them, see src/layouts/Base.astro).
const listeners = new Set<ServerResponse>();
const events = createServer((req, res) => {
  if (req.url !== '/events') return void res.writeHead(404).end();
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', 'access-control-allow-origin': '*' });
  res.write(': folio dev\n\n');
  if (lastError) res.write(`event: failed\ndata: ${JSON.stringify(lastError)}\n\n`);
  listeners.add(res);
  req.on('close', () => listeners.delete(res));
});
let lastError = '';
const send = (event: string, data: string) => {
  if (event === 'failed') lastError = data;
  if (event === 'reload') lastError = '';
  for (const res of listeners) res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
};
await new Promise<void>((r) => events.listen(0, '127.0.0.1', r));
const eventsUrl = `http://127.0.0.1:${(events.address() as { port: number }).port}/events`;
// One token a session: the review pages carry it and their saves must send it back (no other site can read it).
const env = { ...process.env, FOLIO_REVIEW_TOKEN: randomBytes(24).toString('base64url'), FOLIO_DEV_EVENTS: eventsUrl, WORKERS: process.env.WORKERS ?? '1', HOST: devHost(process.argv.slice(2), process.env.HOST) };

let server: ChildProcess | undefined;
let building: Promise<void> | undefined;
let again = false;

/** One build; its errors go to the terminal as they are and to the pages; the live build stays. */
function build(): Promise<boolean> {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, ['scripts/build.ts', '--drafts'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let errors = '';
    let unchanged = false;
    child.stdout!.on('data', (c: Buffer) => {
      process.stdout.write(c);
      unchanged ||= /no change since build /.test(c.toString());
    });
    child.stderr!.on('data', (c: Buffer) => {
      errors += c.toString();
      process.stderr.write(c);
    });
    child.on('exit', (code) => {
      if (code === 0) console.log(`dev: built in ${((performance.now() - started) / 1000).toFixed(1)} s`);
      else send('failed', errors.trim());
      // Back to what is live (an error fixed by undoing it): no swap comes, the pages clear the error now.
      if (code === 0 && unchanged) send('reload', '');
      resolve(code === 0);
    });
  });
}

function startServer() {
  server = spawn(process.execPath, ['src/server/main.ts'], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  server.stdout!.on('data', (c: Buffer) => {
    process.stdout.write(c);
    // The server took the new build: the pages may look again.
    if (/now serving build /.test(c.toString())) send('reload', '');
    const listening = /listening on (http:\/\/\S+)/.exec(c.toString());
    if (listening) console.log(`dev: review translations at ${listening[1]}/_review/ (this machine only)`);
  });
  server.on('exit', (code) => {
    if (code !== 0 && code !== null) process.exit(code);
  });
}

/** Builds now, or once more after the running build when changes came in meanwhile. */
function rebuild() {
  if (building) {
    again = true;
    return;
  }
  send('building', '');
  building = build().then(() => {
    // The last good build serves while the content has errors (from an earlier run, too).
    if (!server && existsSync(join(PUBLISH.current, 'manifest.json'))) startServer();
    building = undefined;
    if (again) {
      again = false;
      rebuild();
    }
  });
}

// chokidar, not fs.watch: Node's recursive watch loses a file an editor saves by writing a temporary
// file and renaming it over the old one (sed -i, Emacs, "safe write"), and every later save of it.
let timer: NodeJS.Timeout | undefined;
watch(WATCHED.filter((dir) => existsSync(dir)), {
  ignoreInitial: true,
  // Editors' swap, backup and lock files (.x.swp, x~, .#x) are not content.
  ignored: (path) => /^\.|~$/.test(basename(path)),
}).on('all', () => {
  clearTimeout(timer);
  timer = setTimeout(rebuild, 150);
});
console.log(`dev: watching ${WATCHED.join(', ')}`);
rebuild();

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    server?.kill('SIGTERM');
    events.close();
    events.closeAllConnections();
    process.exit(0);
  });
}
