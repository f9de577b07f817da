// `npm run audit:site`: Lighthouse (performance, accessibility, best practices, SEO) on every kind of page
// of the live build (tests/helpers/page-kinds.ts), with its mobile settings and its desktop ones, served by
// Folio's own server on a loopback port this script starts. One line per page and form factor with the four
// scores, and the audits that kept a score under 100. Not a timed test: scores on a busy machine vary.
import { audit, belowAll, lighthouseBrowser, CATEGORIES, type FormFactor } from '../tests/helpers/lighthouse.ts';
import { pageKinds } from '../tests/helpers/page-kinds.ts';
import { spawnGroup, startupDeadline, stopGroup } from '../tests/helpers/process-group.ts';

const server = spawnGroup(process.execPath, ['src/server/main.ts'], { env: { EVENT_SIGNING_SECRET: 'audit-only', ...process.env, PORT: '0', HOST: '127.0.0.1', WORKERS: '1' }, stdio: ['ignore', 'pipe', 'inherit'] });
const deadline = startupDeadline(45_000);
const origin = await new Promise<string>((resolve, reject) => {
  let out = '';
  const timer = setTimeout(() => reject(new Error(`the server did not start within ${deadline / 1000} s\n${out}`)), deadline);
  server.stdout!.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    const m = /listening on http:\/\/localhost:(\d+)/.exec(out);
    if (m) {
      clearTimeout(timer);
      resolve(`http://127.0.0.1:${m[1]}`);
    }
  });
  server.once('exit', (code) => {
    clearTimeout(timer);
    reject(new Error(`the server exited (${code}); build first: npm run build\n${out}`));
  });
}).catch(async (e: unknown) => {
  await stopGroup(server, 'SIGKILL');
  throw e;
});

const { browser, port } = await lighthouseBrowser().catch(async (e: unknown) => {
  await stopGroup(server);
  throw e;
});
try {
  console.log(`${'page'.padEnd(28)} ${'form'.padEnd(8)} ${CATEGORIES.map((c) => c.slice(0, 4)).join(' ')}`);
  for (const { name, path } of await pageKinds()) {
    for (const formFactor of ['mobile', 'desktop'] as FormFactor[]) {
      const result = await audit(origin + path, port, formFactor);
      const { scores } = result;
      const below = belowAll(result);
      console.log(`${name.padEnd(28)} ${formFactor.padEnd(8)} ${CATEGORIES.map((c) => String(scores[c]).padStart(4)).join(' ')}${below.length ? `  (under 100: ${below.join(', ')})` : ''}`);
    }
  }
} finally {
  await browser.close();
  await stopGroup(server);
}
