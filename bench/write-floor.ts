// `node bench/write-floor.ts folio <dist> <to>` | `node bench/write-floor.ts folder <dir> <to>`: what
// writing a build's output costs on this disk with nothing computed. Every file is read into memory
// first (untimed), then written to <to> by the plainest loop (one mkdir per folder, one write per
// file) and timed; for Folio's artefact, the br and gzip codings its build made are also made again
// alone, on one core. Prints one JSON line (bench/build.ts compares it with the builds).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { buildLayout } from '../src/artefact/roots.ts';
import { clientFiles, fileAt, folderFiles, readManifest, type ClientFile } from '../src/artefact/client-files.ts';
import { CODINGS } from '../src/pipeline/publish/codings.ts';

const [kind, from = '', to = ''] = process.argv.slice(2);
if ((kind !== 'folio' && kind !== 'folder') || !from || !to) throw new Error('usage: node bench/write-floor.ts folio|folder <from> <to>');

const layout = kind === 'folio' ? buildLayout(join(from, 'current')) : undefined;
const manifest = layout && (await readManifest(layout));
const files: ClientFile[] = layout && manifest ? clientFiles(layout, manifest) : folderFiles(from);
const bodies = files.map((f) => ({ rel: f.rel, bytes: readFileSync(f.path) }));

/** The codings the build made (one per distinct body it coded), made again one after another on one core. */
function codingFloor() {
  if (!layout || !manifest) return undefined;
  const coded = new Map<string, Uint8Array>();
  for (const f of manifest.files) if ((f.br !== undefined || f.gzip !== undefined) && !coded.has(f.etag)) coded.set(f.etag, readFileSync(fileAt(layout, manifest, f)));
  const t = performance.now();
  for (const body of coded.values()) for (const { code } of CODINGS) code(body);
  return { bodies: coded.size, bytes: [...coded.values()].reduce((n, b) => n + b.byteLength, 0), seconds: (performance.now() - t) / 1000 };
}

/** Every file written by the plainest loop. */
function writeFloor() {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const made = new Set<string>();
  for (const { rel, bytes } of bodies) {
    const path = join(to, rel);
    const folder = dirname(path);
    if (!made.has(folder)) mkdirSync(folder, { recursive: true });
    made.add(folder);
    writeFileSync(path, bytes);
  }
  const used = process.cpuUsage(cpu);
  return { files: bodies.length, bytes: bodies.reduce((n, b) => n + b.bytes.byteLength, 0), seconds: (performance.now() - started) / 1000, user: used.user / 1e6, sys: used.system / 1e6 };
}

// The codings first: the writes leave the kernel writing back a gigabyte, which slows what follows.
const coded = codingFloor();
console.log(JSON.stringify({ written: writeFloor(), coding: coded }));
