import type { ChildProcess, SpawnOptions } from 'node:child_process';
import { passOn } from './child-output.ts';
import { spawnGroup, startupDeadline, stopGroup } from './process-group.ts';

/**
 * A service the tests run (Redis, PostgreSQL): started until it prints `ready` (within a start-up
 * deadline, or stopped and the start refused), stopped with `signal`, and startable again with the same
 * arguments (a store that goes away and comes back).
 */
export function serviceProcess(command: string, args: string[], options: SpawnOptions, ready: RegExp, signal: NodeJS.Signals = 'SIGKILL') {
  let child: ChildProcess | undefined;
  return {
    up: () => {
      const started = spawnGroup(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
      child = started;
      // Both start in well under a second when the machine is quiet.
      const deadline = startupDeadline(30_000);
      return new Promise<void>((resolve, reject) => {
        let out = '';
        passOn(started.stdout!, `${command} ${started.pid}`);
        passOn(started.stderr!, `${command} ${started.pid}`);
        const timer = setTimeout(() => reject(new Error(`${command} did not start within ${deadline / 1000} s:\n${out}`)), deadline);
        const look = (c: Buffer) => {
          out += c.toString();
          if (ready.test(out)) {
            clearTimeout(timer);
            resolve();
          }
        };
        started.stdout!.on('data', look);
        started.stderr!.on('data', look);
        started.once('exit', (code) => {
          clearTimeout(timer);
          reject(new Error(`${command} exited with ${code}:\n${out}`));
        });
      }).catch(async (e: unknown) => {
        await stopGroup(started, 'SIGKILL');
        throw e;
      });
    },
    /** Sends a signal without waiting (SIGSTOP freezes it with its sockets open, SIGCONT thaws it). */
    signal: (s: NodeJS.Signals) => void child?.kill(s),
    async down() {
      if (child) await stopGroup(child, signal);
    },
  };
}
