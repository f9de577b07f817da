// `npm run audit:site`: Lighthouse (performance, accessibility, best practices, SEO; its default
// mobile settings) on the home page, a post with images, /ar/ and the search page of the live build,
// served by Folio's own server on a loopback port this script starts. One line per page with the four
// scores, and the audits that kept a score under 100. Not a timed test: scores on a busy machine vary.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const PAGES = ['/', '/tidal-energy', '/ar/', '/search?q=tide'];
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

const server = spawn(process.execPath, ['src/server/main.ts'], { env: { EVENT_SIGNING_SECRET: 'audit-only', ...process.env, PORT: '0', HOST: '127.0.0.1', WORKERS: '1' }, stdio: ['ignore', 'pipe', 'inherit'] });
const origin = await new Promise<string>((resolve, reject) => {
  let out = '';
  server.stdout!.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    const m = /listening on http:\/\/localhost:(\d+)/.exec(out);
    if (m) resolve(`http://127.0.0.1:${m[1]}`);
  });
  server.once('exit', (code) => reject(new Error(`the server exited (${code}); build first: npm run build\n${out}`)));
});

const port = await freePort();
const browser = await chromium.launch({ executablePath: CHROMIUM, args: [`--remote-debugging-port=${port}`, '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
try {
  for (const path of PAGES) {
    const result = await lighthouse(origin + path, { port, output: 'json', logLevel: 'error', onlyCategories: [...CATEGORIES] });
    const lhr = result!.lhr;
    const scores = CATEGORIES.map((c) => `${c} ${Math.round((lhr.categories[c]?.score ?? 0) * 100)}`);
    // The audits of these categories that scored under 1 (informative ones have no score).
    const below = CATEGORIES.flatMap((c) => lhr.categories[c]?.auditRefs ?? [])
      .filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1)
      .map((ref) => ref.id);
    console.log(`${path.padEnd(16)} ${scores.join('  ')}${below.length ? `  (under 100: ${[...new Set(below)].join(', ')})` : ''}`);
  }
} finally {
  await browser.close();
  server.kill('SIGTERM');
}
