import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';

/**
 * Upstash's Redis REST API (upstash.com/docs/redis/features/restapi) on 127.0.0.1 over a real Redis:
 * `Authorization: Bearer <token>`; `POST /` with one command as a JSON array answers `{"result": …}`;
 * `POST /pipeline` with an array of commands answers one `{"result"}` or `{"error"}` per command;
 * with `Upstash-Encoding: base64` string results come base64-encoded (the SDK asks for that).
 */
export async function startUpstash(redisUrl: string, token: string) {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: 0, lazyConnect: true });
  let commands = 0;
  const run = async (command: unknown, base64: boolean): Promise<{ result: unknown } | { error: string }> => {
    if (!Array.isArray(command) || command.length === 0) return { error: 'ERR bad command' };
    commands++;
    try {
      const [name, ...args] = command.map(String);
      const result: unknown = await redis.call(name!, ...args);
      return { result: base64 && typeof result === 'string' ? Buffer.from(result).toString('base64') : result };
    } catch (e) {
      return { error: (e as Error).message };
    }
  };
  const server = createServer(async (req, res) => {
    let raw = '';
    for await (const chunk of req) raw += chunk;
    const send = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (req.headers.authorization !== `Bearer ${token}`) return send(401, { error: 'Unauthorized' });
    if (req.method !== 'POST') return send(405, { error: 'Method not allowed' });
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      return send(400, { error: 'ERR failed to parse command' });
    }
    const base64 = req.headers['upstash-encoding'] === 'base64';
    if (req.url === '/pipeline' || req.url === '/multi-exec') {
      if (!Array.isArray(body)) return send(400, { error: 'ERR pipeline body must be an array of commands' });
      const results = [];
      for (const command of body) results.push(await run(command, base64));
      if (results.some((r) => 'error' in r && /ECONNREFUSED|Connection is closed|connect/.test(r.error))) return send(500, { error: 'ERR Redis is unreachable' });
      return send(200, results);
    }
    const answer = await run(body, base64);
    return send('error' in answer ? 400 : 200, answer);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    redis,
    commands: () => commands,
    async close() {
      await new Promise((r) => server.close(r));
      redis.disconnect();
    },
  };
}
