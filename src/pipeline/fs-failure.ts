/**
 * A build that fails on the file system (a full disk, a quota, a folder it may not write) says so in
 * one line the author can act on, not with a stack trace from deep inside a step.
 */
const CAUSES: Record<string, string> = {
  ENOSPC: 'no space left on device',
  EDQUOT: 'disk quota exceeded',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
  EMFILE: 'too many open files',
};

const VERBS: Record<string, string> = { open: 'writing', write: 'writing', copyfile: 'writing', mkdir: 'creating', link: 'linking', symlink: 'linking', rename: 'moving', unlink: 'removing', rmdir: 'removing' };

/** The one line for a file-system error (`no space left on device writing <path>`), or undefined for any other error. */
export function fileSystemFailure(e: unknown): string | undefined {
  const { code, path, syscall } = (e ?? {}) as NodeJS.ErrnoException;
  const cause = code === undefined ? undefined : CAUSES[code];
  if (!cause) return undefined;
  if (path) return `${cause} ${VERBS[syscall ?? ''] ?? 'at'} ${path}`;
  return syscall ? `${cause} (${syscall})` : cause;
}

/**
 * Makes an error nothing caught end the process (a build step) with its one line when it is a
 * file-system error (the stack too under FOLIO_VERBOSE), and exit code 1 as before.
 */
export function reportFileSystemFailures(prefix: string): void {
  const report = (e: unknown) => {
    const line = fileSystemFailure(e);
    console.error(line && !process.env.FOLIO_VERBOSE ? `${prefix}${line}` : e instanceof Error ? (e.stack ?? e.message) : String(e));
    process.exit(1);
  };
  process.on('uncaughtException', report);
  process.on('unhandledRejection', report);
}
