import { test } from 'node:test';
import assert from 'node:assert/strict';
import { route, type Deployment } from '../helpers/vercel-routes.ts';
import type { VercelRoute } from '../../src/pipeline/targets/vercel-config.ts';

// The oracle tests/e2e/vercel.test.ts routes through, held to the documented semantics.
const deployment: Deployment = { files: new Map([['/a', 'a.html'], ['/q/fr.json', 'q/fr.json'], ['/fr/', 'fr/index.html']]), functions: new Set(['/fn']) };

test('continue adds headers and goes on; a dest answers with a file or a function; check goes on from the destination when nothing is there', () => {
  const routes: VercelRoute[] = [
    { src: '^/.*$', headers: { x: 'all' }, continue: true },
    { src: '^/q$', has: [{ type: 'query', key: 'lang', value: '^(?<lang>[a-z]+)$' }], missing: [{ type: 'query', key: 'page' }], dest: '/q/$lang.json', check: true },
    { handle: 'filesystem' },
    { src: '^/q/.*$', dest: '/fn' },
    { src: '^/(.*)$', status: 404, dest: '/a', headers: { y: '$1' } },
  ];
  assert.deepEqual(route(routes, deployment, { url: '/a' }), { layer: 'static', status: 200, headers: { x: 'all' }, target: 'a.html' });
  assert.equal(route(routes, deployment, { url: '/q?lang=fr' }).target, 'q/fr.json');
  assert.equal(route(routes, deployment, { url: '/q?lang=de' }).layer, 'function', 'no file: from the destination on');
  assert.equal(route(routes, deployment, { url: '/q?lang=fr&page=2' }).status, 404, 'a missing condition that is there');
  assert.equal(route(routes, deployment, { url: '/fr/' }).target, 'fr/index.html', "a folder's index");
  assert.deepEqual(route(routes, deployment, { url: '/b/c' }), { layer: 'static', status: 404, headers: { x: 'all', y: 'b/c' }, target: 'a.html' });
});

test('a status without dest answers alone; methods, headers and the host are conditions; $host fills a header', () => {
  const routes: VercelRoute[] = [
    { src: '^/.*$', methods: ['OPTIONS'], status: 204 },
    { src: '^/.*$', has: [{ type: 'header', key: 'authorization' }, { type: 'host', value: '.+' }], status: 401, headers: { where: 'https://$host/x' } },
  ];
  assert.deepEqual(route(routes, deployment, { url: '/a', method: 'OPTIONS' }), { layer: 'route', status: 204, headers: {} });
  assert.deepEqual(route(routes, deployment, { url: 'https://site.example/a', headers: { authorization: 'Bearer x' } }), { layer: 'route', status: 401, headers: { where: 'https://site.example/x' } });
  assert.equal(route(routes, deployment, { url: '/nothing' }).layer, 'none');
});
