// `node bench/function-cold-start.ts [OUT] [--rounds N]`: a serverless function as Netlify and Vercel
// run it (the bundled entry imported by a fresh Node process, its build read over HTTP from the
// deployment's static files, served here on loopback as the CDN would): the first request (a list no
// build publishes: the manifest and catalogs are read), the first search (one language's index is
// read), and the same search warm. OUT is a build's FOLIO_OUT with `--target netlify --target vercel`
// (default dist). On loopback: a real CDN adds its round trips to each read.
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { serveFolder } from '../tests/helpers/host-function.ts';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { rounds: { type: 'string', default: '3' } } });
const out = resolve(positionals[0] ?? 'dist');
const rounds = Number(values.rounds);

const HOSTS = {
  netlify: { static: join(out, 'netlify', 'static'), entry: join(out, 'netlify', 'functions', 'folio.mjs'), call: 'fn.default(request)' },
  vercel: { static: join(out, 'vercel', '.vercel', 'output', 'static'), entry: join(out, 'vercel', '.vercel', 'output', 'functions', 'folio.func', 'index.mjs'), call: 'fn.default.fetch(request)' },
};

/** One fresh process: import, then three timed requests; prints their milliseconds as JSON. */
const PROBE = (entry: string, call: string) => `
const t0 = performance.now();
const fn = await import(${JSON.stringify(entry)});
const imported = performance.now() - t0;
async function timed(path) {
  const t = performance.now();
  const request = new Request('https://folio.example' + path);
  const res = await ${call};
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(path + ': ' + res.status);
  return performance.now() - t;
}
const first = await timed('/api/posts?per_page=7&lang=fr');
console.log('first done');
const search = await timed('/api/search?q=tide&lang=de');
const warm = await timed('/api/search?q=moon&lang=de');
console.log(JSON.stringify({ imported, first, search, warm }));
`;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

for (const [name, host] of Object.entries(HOSTS)) {
  const cdn = await serveFolder(host.static);
  const runs: Record<string, number>[] = [];
  /** What each round's first request read from the CDN (import to its answer): files and bytes. */
  const firstReads: { files: number; bytes: number }[] = [];
  try {
    for (let i = 0; i < rounds; i++) {
      const child = spawn(process.execPath, ['--input-type=module', '-e', PROBE(host.entry, host.call)], { env: { ...process.env, FOLIO_ARTEFACT_URL: cdn.url, EVENT_SIGNING_SECRET: 'bench', RATE_LIMIT: '0' }, stdio: ['ignore', 'pipe', 'inherit'] });
      let text = '';
      const before = cdn.asked.length;
      child.stdout.on('data', (c: Buffer) => {
        text += c.toString();
        if (firstReads.length === i && text.includes('first done\n')) firstReads.push({ files: cdn.asked.length - before, bytes: cdn.sent.slice(before).reduce((a, b) => a + b, 0) });
      });
      const deadline = setTimeout(() => child.kill('SIGKILL'), 120_000);
      await new Promise((r) => child.once('exit', r));
      clearTimeout(deadline);
      runs.push(JSON.parse(text.trim().split('\n').pop()!) as Record<string, number>);
    }
  } finally {
    await cdn.close();
  }
  const ms = (k: string) => `${median(runs.map((r) => r[k]!)).toFixed(0)} ms`;
  const read = firstReads[0];
  console.log(`${name}: import ${ms('imported')}, first computed list ${ms('first')}, first search ${ms('search')}, warm search ${ms('warm')} (median of ${rounds}; ${cdn.asked.length} reads from the CDN in all; the first request read ${read?.files} files, ${((read?.bytes ?? 0) / 1e6).toFixed(2)} MB)`);
}
