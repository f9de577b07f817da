/**
 * Where `npm run dev` listens: `localhost`, as Astro's and Vite's dev servers do, so a dev build is
 * not on the network by accident; `--host` alone opens every interface, `--host <address>` that one,
 * and HOST, when set, is taken as it is.
 */
export function devHost(args: readonly string[], hostEnv?: string): string {
  const at = args.indexOf('--host');
  if (at < 0) return hostEnv || 'localhost';
  const value = args[at + 1];
  return value && !value.startsWith('--') ? value : '0.0.0.0';
}
