import { Agent, request } from 'node:http';

const agent = new Agent({ keepAlive: true });

/** A server's answer as sent: raw bytes (no decoding of br/gzip, which fetch would do), headers as a Web Headers. */
export function raw(base: string, target: string, init: { method?: string; headers?: Record<string, string> }): Promise<{ status: number; headers: Headers; bytes: Buffer }> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, path: target, method: init.method ?? 'GET', headers: init.headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const headers = new Headers();
        for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(', ') : v);
        resolve({ status: res.statusCode!, headers, bytes: Buffer.concat(chunks) });
      });
    });
    req.on('error', reject);
    req.end();
  });
}
