// A step of `npm run build` (scripts/build.ts) in a process of its own: writes one host project
// (`node scripts/write-target.ts <target> <build folder> <options as JSON>`) and prints its report.
// A target reads the build's whole manifest and lists of its files (300,000 and more at 10,000 x 14):
// in the build's own process, after Astro, that memory stayed with it (its peak, 3.4 GB); here it
// goes with the process (docs/performance.md, "Memory").
import { buildLayout } from '../src/artefact/roots.ts';
import { fileSystemFailure } from '../src/pipeline/fs-failure.ts';
import { targetWriters } from '../src/pipeline/targets/writers.ts';

const [name, dir, options] = process.argv.slice(2);
try {
  console.log(await targetWriters(JSON.parse(options ?? '{}'))[name!]!.write(buildLayout(dir!)));
} catch (e) {
  // One line the build reports as its failure (the stack too under --verbose).
  const line = process.env.FOLIO_VERBOSE ? undefined : fileSystemFailure(e);
  console.error(line ?? (e instanceof Error ? (process.env.FOLIO_VERBOSE ? (e.stack ?? e.message) : e.message) : String(e)));
  process.exit(1);
}
