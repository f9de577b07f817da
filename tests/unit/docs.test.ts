import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, resolve } from 'node:path';
import GithubSlugger from 'github-slugger';

/**
 * The documentation a newcomer reads (issue 41): a README that fits a screen or two, and reference pages in
 * docs/ whose commands run and whose links lead somewhere. Every `npm run X` quoted in a fenced `sh` block or
 * an inline code span must name a script of package.json, and every `--flag` after its `--` must be one that
 * script reads: an option of a `parseArgs` call, or the flag's literal (`'--host'`), in the script's entry file
 * or a file it imports. Every relative link must name a file, and its `#fragment` a heading of that file.
 */
const ROOT = resolve(import.meta.dirname, '../..');
const README_MAX_LINES = 250;
const PAGES = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;

/** A page's fenced blocks (with their info string) and the text outside them. */
function split(markdown: string): { fences: { info: string; body: string; line: number }[]; prose: string } {
  const fences: { info: string; body: string; line: number }[] = [];
  const prose: string[] = [];
  let open: { info: string; lines: string[]; line: number; fence: string } | undefined;
  markdown.split('\n').forEach((line, i) => {
    const m = /^\s*(`{3,}|~{3,})\s*([\w-]*)/.exec(line);
    if (open) {
      if (m && m[1]!.startsWith(open.fence)) {
        fences.push({ info: open.info, body: open.lines.join('\n'), line: open.line });
        open = undefined;
      } else open.lines.push(line);
      prose.push('');
    } else if (m) {
      open = { info: m[2]!, lines: [], line: i + 2, fence: m[1]! };
      prose.push('');
    } else prose.push(line);
  });
  return { fences, prose: prose.join('\n') };
}

/** Inline code spans of prose (they may run over a line break), with the line each starts on. */
function codeSpans(prose: string): { code: string; line: number }[] {
  const spans: { code: string; line: number }[] = [];
  for (const m of prose.matchAll(/(`+)([^`][\s\S]*?)\1(?!`)/g)) {
    spans.push({ code: m[2]!.replace(/\s*\n\s*/g, ' ').trim(), line: prose.slice(0, m.index).split('\n').length });
  }
  return spans;
}

/** Shell words of one command line: quotes removed (a quoted word is no flag, so it keeps a mark), comments dropped, operators as their own words. */
function words(line: string): string[] {
  const out: string[] = [];
  let word = '';
  let quote = '';
  let has = false;
  let quoted = false;
  const flush = () => {
    if (has) out.push(quoted ? `"${word}` : word);
    word = '';
    has = false;
    quoted = false;
  };
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) quote = '';
      else word += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      has = true;
      quoted = true;
    } else if (c === '#' && !has) break;
    else if (/\s/.test(c)) flush();
    else if ('|&;<>()'.includes(c)) {
      flush();
      out.push(c);
    } else {
      word += c;
      has = true;
    }
  }
  flush();
  return out;
}

type Invocation = { script: string; flags: string[] };

/** Every `npm run X [-- args]`, `npm start` and `npm test` of a command text (several lines, `\` continued). */
export function invocations(text: string): Invocation[] {
  const found: Invocation[] = [];
  for (const line of text.replace(/\\\n/g, ' ').split('\n')) {
    const w = words(line);
    for (let i = 0; i < w.length; i++) {
      if (w[i] !== 'npm') continue;
      let script: string | undefined;
      let at = i + 1;
      if (w[at] === 'run' || w[at] === 'run-script') {
        // npm's own options (--silent) may stand between `run` and the script's name.
        for (at++; w[at]?.startsWith('-'); ) at++;
        script = w[at++];
      } else if (w[at] === 'start' || w[at] === 'test') {
        script = w[at];
        at += 1;
      }
      if (!script) continue;
      const flags: string[] = [];
      let passed = false;
      for (; at < w.length && !'|&;<>()'.includes(w[at]!); at++) {
        // Placeholders of a synopsis ([--lang fr,de], <slug>...) are stripped to the words they name.
        const arg = w[at]!.replace(/^\[+|[\].]+$/g, '');
        if (arg === '--' && !passed) passed = true;
        else if (passed && /^--[a-z]/.test(arg)) flags.push(arg.split('=')[0]!);
      }
      found.push({ script, flags });
    }
  }
  return found;
}

/** The project's source files a script runs: the files its command names, and every file they import. */
function scriptSources(name: string, seen = new Set<string>()): Set<string> {
  const command = scripts[name];
  if (command === undefined) return seen;
  for (const other of command.matchAll(/npm run ([\w:-]+)/g)) if (!seen.has(`npm:${other[1]}`)) (seen.add(`npm:${other[1]}`), scriptSources(other[1]!, seen));
  const queue = [...command.matchAll(/(?:^|\s)((?:scripts|bench|tests|src)\/[\w./-]+\.(?:ts|mjs|js))/g)].map((m) => join(ROOT, m[1]!));
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file) || !existsSync(file)) continue;
    seen.add(file);
    const source = readFileSync(file, 'utf8');
    for (const m of source.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)['"](\.{1,2}\/[^'"]+)['"]/g)) queue.push(resolve(dirname(file), m[1]!));
  }
  return seen;
}

/** The `options` object of each `parseArgs({...})` call: its keys are the flags it accepts. */
function parseArgsOptions(source: string): string[] {
  const keys: string[] = [];
  for (const call of source.matchAll(/parseArgs\s*\(/g)) {
    const from = source.indexOf('options:', call.index);
    if (from < 0) continue;
    // `options: OPTIONS` names an object written elsewhere in the file: its keys are read there.
    const named = /^options:\s*([A-Za-z_]\w*)/.exec(source.slice(from));
    const at = named ? source.search(new RegExp(`(?:const|let)\\s+${named[1]}\\s*=\\s*\\{`)) : from;
    if (at < 0) continue;
    const open = source.indexOf('{', at);
    let depth = 0;
    let end = open;
    for (; end < source.length; end++) {
      if (source[end] === '{') depth++;
      else if (source[end] === '}' && --depth === 0) break;
    }
    const body = source.slice(open + 1, end);
    // Keys at the object's top level only: blank out every nested {...} first.
    let flat = body;
    for (let prev = ''; prev !== flat; ) (prev = flat), (flat = flat.replace(/\{[^{}]*\}/g, '{}'));
    for (const m of flat.matchAll(/(?:^|[,{\s])(?:'([\w-]+)'|"([\w-]+)"|([A-Za-z_]\w*))\s*:/g)) keys.push(m[1] ?? m[2] ?? m[3]!);
  }
  return keys;
}

const accepted = new Map<string, Set<string>>();
/** The flags a script reads, from its sources. */
export function flagsOf(name: string): Set<string> {
  let flags = accepted.get(name);
  if (flags) return flags;
  flags = new Set();
  for (const file of scriptSources(name)) {
    if (file.startsWith('npm:')) continue;
    const source = readFileSync(file, 'utf8');
    for (const key of parseArgsOptions(source)) flags.add(`--${key}`);
    for (const m of source.matchAll(/['"`](--[a-z][\w-]*)['"`=]/g)) flags.add(m[1]!);
  }
  accepted.set(name, flags);
  return flags;
}

/** What is wrong with the commands of a text: one line per unknown script or flag. */
export function commandProblems(text: string): string[] {
  const problems: string[] = [];
  for (const { script, flags } of invocations(text)) {
    if (!(script in scripts)) {
      problems.push(`npm run ${script}: no such script in package.json`);
      continue;
    }
    const known = flagsOf(script);
    for (const flag of flags) if (!known.has(flag)) problems.push(`npm run ${script} -- ${flag}: the script reads no such flag`);
  }
  return problems;
}

test(`README.md is at most ${README_MAX_LINES} lines`, () => {
  const lines = readFileSync(join(ROOT, 'README.md'), 'utf8').trimEnd().split('\n').length;
  assert.ok(lines <= README_MAX_LINES, `README.md has ${lines} lines: move the reference into docs/`);
});

test('README.md keeps the two commands at the top', () => {
  const first = split(readFileSync(join(ROOT, 'README.md'), 'utf8')).fences[0];
  assert.equal(first?.info, 'sh');
  assert.match(first.body, /^npm ci && npm start\s+#.*http:\/\/localhost:4321/m);
  assert.match(first.body, /^npm ci && npm test\s+#/m);
});

test('the checker finds a made-up script or flag, and takes the real ones', () => {
  assert.deepEqual(commandProblems('npm run build -- --target nginx --listen 127.0.0.1:8080 --upstream=127.0.0.1:4321'), []);
  assert.deepEqual(commandProblems('npm run dev -- --host; npm run translate -- [slug...] [--dry-run]'), []);
  assert.deepEqual(commandProblems('npm run translate -- on-tides --dry-run --max-chars 100 && npm test'), []);
  assert.deepEqual(commandProblems('npm run build -- --no-such-flag'), ['npm run build -- --no-such-flag: the script reads no such flag']);
  assert.deepEqual(commandProblems('FOLIO_OUT=x npm run pay -- --sandbox --seconds 3 "Hello"'), ['npm run pay -- --seconds: the script reads no such flag']);
  assert.deepEqual(commandProblems('npm run bulid'), ['npm run bulid: no such script in package.json']);
  // Flags before `--` are npm's own, and a `--flag` inside a quoted argument is no flag.
  assert.deepEqual(commandProblems('npm run --silent build -- "--not-a-flag"'), []);
});

test('every npm run command quoted in README.md and docs/ names a script and flags it reads', () => {
  const problems: string[] = [];
  let checked = 0;
  for (const page of PAGES) {
    const { fences, prose } = split(readFileSync(join(ROOT, page), 'utf8'));
    for (const fence of fences.filter((f) => f.info === 'sh' || f.info === 'bash' || f.info === 'shell')) {
      fence.body.split('\n').forEach((line, i) => {
        checked += invocations(line).length;
        for (const p of commandProblems(line)) problems.push(`${page}:${fence.line + i}: ${p}`);
      });
    }
    for (const span of codeSpans(prose)) {
      checked += invocations(span.code).length;
      for (const p of commandProblems(span.code)) problems.push(`${page}:${span.line}: ${p}`);
    }
  }
  assert.ok(checked > 100, `${checked} commands found: the parser reads the pages`);
  console.log(`${checked} commands checked`);
  assert.deepEqual(problems, []);
});

/** The anchors GitHub (and most Markdown hosts) give a page's headings. */
function anchors(markdown: string): Set<string> {
  const slugger = new GithubSlugger();
  const found = new Set<string>();
  for (const line of split(markdown).prose.split('\n')) {
    const m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (m) found.add(slugger.slug(m[1]!.replace(/`/g, '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/\*\*?/g, '')));
  }
  return found;
}

test('every relative link of README.md and docs/ leads to a file, and its fragment to a heading there', () => {
  const problems: string[] = [];
  let checked = 0;
  for (const page of PAGES) {
    const text = readFileSync(join(ROOT, page), 'utf8');
    const prose = split(text).prose.replace(/(`+)[^`][\s\S]*?\1(?!`)/g, '');
    for (const m of prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      const target = m[1]!;
      if (/^[a-z][\w+.-]*:/i.test(target)) continue;
      checked++;
      const [path, fragment] = target.split('#') as [string, string | undefined];
      const file = path === '' ? join(ROOT, page) : normalize(join(ROOT, dirname(page), decodeURI(path)));
      const where = `${page}: (${target})`;
      if (!file.startsWith(ROOT) || !existsSync(file)) {
        problems.push(`${where}: no such file`);
        continue;
      }
      if (fragment !== undefined && statSync(file).isFile() && file.endsWith('.md') && !anchors(readFileSync(file, 'utf8')).has(decodeURIComponent(fragment))) {
        problems.push(`${where}: no heading #${fragment} there`);
      }
    }
  }
  assert.ok(checked > 20, `${checked} relative links found`);
  assert.deepEqual(problems, []);
});

test('every page of docs/ is linked from the README or another page', () => {
  const linked = new Set<string>();
  for (const page of PAGES) {
    for (const m of readFileSync(join(ROOT, page), 'utf8').matchAll(/\]\(([\w./-]+\.md)(?:#[^)]*)?\)/g)) linked.add(normalize(join(dirname(page), m[1]!)));
  }
  // The corpus brief is what the demo's translations were written from, quoted by path in the README.
  const orphans = PAGES.filter((p) => p !== 'README.md' && p !== 'docs/corpus-brief.md' && !linked.has(p));
  assert.deepEqual(orphans, []);
});

test('no page of README.md and docs/ holds what a merge left unresolved', () => {
  const markers = PAGES.flatMap((page) =>
    readFileSync(join(ROOT, page), 'utf8')
      .split('\n')
      .flatMap((line, i) => (/^(<{7}|>{7}) |^={7}$/.test(line) ? [`${page}:${i + 1}: ${line}`] : [])),
  );
  assert.deepEqual(markers, []);
});
