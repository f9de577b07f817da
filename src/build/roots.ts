/** The content roots Folio builds: the site and the sandbox, same layout, same code. */
export interface RootSpec {
  name: 'main' | 'sandbox';
  contentDir: string;
  base: string;
}

export const ROOTS: readonly RootSpec[] = [
  { name: 'main', contentDir: 'content', base: '' },
  { name: 'sandbox', contentDir: 'sandbox', base: '/sandbox' },
];

export const DIST = {
  bundle: (name: string) => `dist/bundle/${name}`,
  client: 'dist/site/client',
  server: 'dist/site/server',
};
