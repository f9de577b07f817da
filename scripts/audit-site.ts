// `npm run audit:site`: Lighthouse (performance, accessibility, best practices, SEO) on every kind of page
// of the live build (tests/helpers/page-kinds.ts), with its mobile settings and its desktop ones, served by
// Folio's own server on a loopback port this script starts. One line per page and form factor with the four
// scores, and the audits that kept a score under 100. Not a timed test: scores on a busy machine vary.
import { spawn } from 'node:child_process';
import { audit, belowAll, lighthouseBrowser, CATEGORIES, type FormFactor } from '../tests/helpers/lighthouse.ts';
import { pageKinds } from '../tests/helpers/page-kinds.ts';

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

const { browser, port } = await lighthouseBrowser();
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
  server.kill('SIGTERM');
}
