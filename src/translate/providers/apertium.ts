import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RetryableError, SetupError, type Provider } from '../provider.ts';
import { REQUEST_TIMEOUT_MS } from './http.ts';

/**
 * Apertium, local and offline (Debian's `apertium` with `apertium-eng-spa`, `apertium-fr-es`,
 * `apertium-es-pt`): English to Spanish directly, French and Brazilian Portuguese through Spanish.
 * Segments travel as HTML (`-f html`), one `<div>` each, so the tags of tagged text pass untouched;
 * `-u` drops the marks of unknown words instead of printing them.
 */
const PIPELINES: Record<string, { modes: string[]; support: 'direct' | 'pivot' }> = {
  es: { modes: ['eng-spa'], support: 'direct' },
  fr: { modes: ['eng-spa', 'es-fr'], support: 'pivot' },
  'pt-br': { modes: ['eng-spa', 'es-pt_BR'], support: 'pivot' },
};

const BIN = process.env.APERTIUM_BIN ?? 'apertium';

/** Installed package versions, read once (Debian's dpkg), for the memory key. */
function installedVersion(): string {
  const r = spawnSync('dpkg-query', ['-W', '-f', '${Package}=${Version} ', 'apertium', 'apertium-eng-spa', 'apertium-fr-es', 'apertium-es-pt'], { encoding: 'utf8' });
  const found = r.status === 0 ? /apertium=(\S+)/.exec(r.stdout)?.[1] : undefined;
  return found ? `${found.replace(/[-+].*$/, '')}` : 'unknown';
}

export const isApertiumInstalled = (): boolean => spawnSync(BIN, ['-h'], { stdio: 'ignore' }).error === undefined;

/**
 * One stage of a pipeline. The input goes through a file: Apertium's format detection fails on the
 * socket Node gives a child as stdin ("Could not detect input stream format").
 */
async function run(mode: string, input: string, timeoutMs: number): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'folio-apertium-'));
  const file = join(dir, 'in.html');
  await writeFile(file, input);
  try {
    return await new Promise<string>((resolve, reject) => {
      const child = spawn(BIN, ['-u', '-f', 'html', mode, file], { stdio: ['ignore', 'pipe', 'pipe'], timeout: timeoutMs, killSignal: 'SIGKILL' });
      let out = '';
      let err = '';
      child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
      child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
      child.on('error', (e) => reject(new SetupError(`apertium could not be started (${e.message}): apt-get install -y apertium apertium-eng-spa apertium-fr-es apertium-es-pt`)));
      child.on('close', (code, signal) => (signal ? reject(new RetryableError(`apertium ${mode} gave no answer within ${timeoutMs / 1000} s`)) : code === 0 && !err.trim() ? resolve(out) : reject(new RetryableError(`apertium ${mode} failed (${code}): ${err.trim().split('\n')[0]}`))));
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const OPEN = '<div class="folio-segment">';

export function apertium(timeoutMs = REQUEST_TIMEOUT_MS): Provider {
  return {
    id: 'apertium',
    version: installedVersion(),
    supports: (lang) => PIPELINES[lang]?.support ?? false,
    // One process per pipeline stage and batch: large batches amortise its start (about 0.1 s).
    limits: { segments: 200, chars: 100_000 },
    async translate(segments, lang) {
      const pipeline = PIPELINES[lang];
      if (!pipeline) throw new SetupError(`apertium does not translate into ${lang} (it has es, and fr and pt-br through Spanish)`);
      let text = segments.map((s) => `${OPEN}${s}</div>`).join('\n');
      for (const mode of pipeline.modes) text = await run(mode, text, timeoutMs);
      // With -u an unknown word's slot is left as a blank: runs of spaces, a space before punctuation.
      const out = [...text.matchAll(/<div class="folio-segment">([\s\S]*?)<\/div>/g)].map((m) => m[1]!.trim().replace(/ {2,}/g, ' ').replace(/ ([,.;:!?])/g, '$1'));
      if (out.length !== segments.length) throw new RetryableError(`apertium returned ${out.length} segments for ${segments.length}`);
      return out;
    },
  };
}
