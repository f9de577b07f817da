import { createServer } from 'node:net';
import { once } from 'node:events';

/** A minimal SMTP sink on a random loopback port: accepts every mail and keeps its raw text. */
export interface SmtpSink {
  url: string;
  mails: string[];
  close(): Promise<void>;
}

export async function startSmtpSink(): Promise<SmtpSink> {
  const mails: string[] = [];
  const server = createServer((socket) => {
    socket.setEncoding('utf8');
    socket.write('220 sink ESMTP\r\n');
    let buffered = '';
    let data: string[] | undefined;
    socket.on('data', (chunk: string) => {
      buffered += chunk;
      for (let end = buffered.indexOf('\r\n'); end >= 0; end = buffered.indexOf('\r\n')) {
        const line = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        if (data) {
          if (line === '.') {
            mails.push(data.join('\n'));
            data = undefined;
            socket.write('250 queued\r\n');
          } else data.push(line.startsWith('.') ? line.slice(1) : line);
          continue;
        }
        const verb = line.split(' ')[0]!.toUpperCase();
        if (verb === 'DATA') {
          data = [];
          socket.write('354 end with .\r\n');
        } else if (verb === 'QUIT') socket.end('221 bye\r\n');
        else socket.write(verb === 'EHLO' || verb === 'HELO' ? '250 sink\r\n' : '250 ok\r\n');
      }
    });
    socket.on('error', () => {});
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address() as { port: number };
  return {
    url: `smtp://127.0.0.1:${address.port}`,
    mails,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
