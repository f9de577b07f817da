import { test } from 'node:test';
import assert from 'node:assert/strict';
import { urlChangeWarning } from '../../src/pipeline/live/running-servers.ts';

// The one line a build prints when it would re-point a running server's absolute URLs (issue 41).
const server = (port: number) => ({ pid: 1, url: `http://localhost:${port}` });

test('a server on the live build\'s own port: build with that PORT', () => {
  assert.equal(
    urlChangeWarning('http://localhost:4321', 'http://localhost:4500', [server(4500)]),
    "warning: this build's absolute URLs start with http://localhost:4321, the live build's with http://localhost:4500 (served on http://localhost:4500): once live, its links point there; to keep them, build with PORT=4500 npm run build",
  );
});

test('a live build on another origin (a deploy\'s SITE_URL): build with that SITE_URL', () => {
  assert.match(urlChangeWarning('http://localhost:4321', 'https://essays.example', [server(4321)])!, /to keep them, build with SITE_URL=https:\/\/essays\.example npm run build$/);
});

test('nothing to say: the same URLs, no live build, or no server running', () => {
  assert.equal(urlChangeWarning('http://localhost:4500', 'http://localhost:4500', [server(4500)]), undefined);
  assert.equal(urlChangeWarning('http://localhost:4321', undefined, [server(4500)]), undefined);
  assert.equal(urlChangeWarning('http://localhost:4321', 'http://localhost:4500', []), undefined);
});
