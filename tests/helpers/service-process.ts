import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { passOn } from './child-output.ts';

/**
 * A service the tests run (Redis, PostgreSQL): started until it prints `ready`, stopped with
 * `signal`, and startable again with the same arguments (a store that goes away and comes back).
 */
export function serviceProcess(command: string, args: string[], options: SpawnOptions, ready: RegExp, signal: NodeJS.Signals = 'SIGKILL') {
  let child: ChildProcess | undefined;
  return {
    up: () =>
      new Promise<void>((resolve, reject) => {
        child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        passOn(child.stdout!, `${command} ${child.pid}`);
        passOn(child.stderr!, `${command} ${child.pid}`);
        const timer = setTimeout(() => reject(new Error(`${command} did not start:\n${out}`)), 20_000);
        const look = (c: Buffer) => {
          out += c.toString();
          if (ready.test(out)) {
            clearTimeout(timer);
            resolve();
          }
        };
        child.stdout!.on('data', look);
        child.stderr!.on('data', look);
      }),
    /** Sends a signal without waiting (SIGSTOP freezes it with its sockets open, SIGCONT thaws it). */
    signal: (s: NodeJS.Signals) => void child?.kill(s),
    async down() {
      if (!child || child.exitCode !== null) return;
      const exited = new Promise((r) => child!.once('exit', r));
      child.kill(signal);
      await exited;
    },
  };
}
