// `npm run test:nginx` / `test:caddy`: the REST, negotiation, policies, feeds and discovery suites with
// FOLIO_TEST_FRONT set (tests/helpers/server.ts puts the front before Node), or one line saying why not.
import { spawnSync } from 'node:child_process';
import { frontAbsent, FRONT_SUITES as SUITES, type Front } from './front.ts';

const front = process.argv[2] as Front;
const absent = frontAbsent(front);
if (absent) {
  console.log(`skipped FOLIO_TEST_FRONT=${front} (${SUITES.length} files): ${absent}`);
  process.exit(0);
}
const run = spawnSync(process.execPath, ['--test', '--disable-warning=ExperimentalWarning', '--test-reporter=./tests/helpers/quiet-reporter.ts', ...SUITES], { stdio: 'inherit', env: { ...process.env, FOLIO_TEST_FRONT: front } });
process.exit(run.status ?? 1);
