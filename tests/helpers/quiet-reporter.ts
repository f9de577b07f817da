import { relative, resolve } from 'node:path';
import { spec, type TestEvent } from 'node:test/reporters';

/**
 * The test run's reporter (`node --test --test-reporter=./tests/helpers/quiet-reporter.ts`): one
 * summary line for the run and one line per skipped test with its reason (a test that cannot run is
 * never silently passed). A test file with a failure is replayed whole through the spec reporter:
 * every test's name, the failing assertion and everything the file printed (the servers' and
 * commands' output the helpers hand over), which a passing file keeps to itself.
 * FOLIO_TEST_VERBOSE=1 prints the spec reporter's full output instead.
 */
export default async function* quiet(source: AsyncIterable<TestEvent>): AsyncGenerator<string, void> {
  if (process.env.FOLIO_TEST_VERBOSE === '1') {
    yield* replay(source);
    return;
  }
  const byFile = new Map<string, TestEvent[]>();
  const failed = new Set<string>();
  let failures = 0;
  // Counted here: Node's own count leaves out a skipped suite (describe with skip), which is a skip too.
  let skipped = 0;
  let summary: { counts: Record<string, number>; duration_ms: number } | undefined;
  for await (const event of source) {
    if (event.type === 'test:summary' && event.data.file === undefined) summary = event.data;
    // Output events name their file relative to the working directory, test events absolutely.
    const file = event.data && 'file' in event.data && event.data.file ? resolve(event.data.file) : undefined;
    if (!file) continue;
    let events = byFile.get(file);
    if (!events) byFile.set(file, (events = []));
    events.push(event);
    if (event.type === 'test:fail') {
      failed.add(file);
      if (event.data.details.type !== 'suite') failures++;
    }
    if (event.type === 'test:pass' && event.data.skip !== undefined && event.data.skip !== false) {
      const { name, skip } = event.data;
      skipped++;
      yield `skipped ${relative('.', file)}: ${name}${typeof skip === 'string' ? `: ${skip}` : ''}\n`;
    }
  }
  for (const file of failed) {
    yield `\n${relative('.', file)} failed; all it printed, through the spec reporter:\n`;
    yield* replay(byFile.get(file)!);
  }
  const c = summary?.counts ?? {};
  const seconds = ((summary?.duration_ms ?? 0) / 1000).toFixed(1);
  const target = process.env.FOLIO_TEST_FRONT ? `${process.env.FOLIO_TEST_FRONT} before node` : (process.env.FOLIO_TEST_TARGET ?? 'node');
  const tally = [`${c.passed ?? 0} passed`, `${failures} failed`, `${skipped} skipped`, c.cancelled ? `${c.cancelled} cancelled` : '', c.todo ? `${c.todo} todo` : ''].filter(Boolean);
  yield `${failed.size || c.cancelled ? 'FAIL' : 'ok'}: ${c.tests ?? 0} tests in ${byFile.size} file${byFile.size === 1 ? '' : 's'} on ${target}: ${tally.join(', ')} (${seconds} s)${failed.size ? `; the failing files' output is above` : ''}\n`;
}

/** Events through Node's spec reporter, as `--test-reporter=spec` prints them. */
async function* replay(events: AsyncIterable<TestEvent> | Iterable<TestEvent>): AsyncGenerator<string, void> {
  const reporter = spec();
  const feed = (async () => {
    for await (const event of events) if (!reporter.write(event)) await new Promise((r) => reporter.once('drain', r));
    reporter.end();
  })();
  for await (const chunk of reporter) yield String(chunk);
  await feed;
}
