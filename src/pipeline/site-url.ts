/** Where `npm start` serves when neither SITE_URL nor site.yaml's url says otherwise: PORT's address. */
export function defaultSiteUrl(env: NodeJS.ProcessEnv = process.env): string {
  const port = Number(env.PORT);
  return `http://localhost:${Number.isInteger(port) && port > 0 ? port : 4321}`;
}

/**
 * The origin every absolute URL is built on, by one rule: SITE_URL (the deploy says where the site
 * lives), else site.yaml's `url`, else the address `npm start` serves (PORT's). No trailing slash.
 */
export const siteUrlOf = (siteUrlEnv: string | undefined, configured: string | undefined, env: NodeJS.ProcessEnv = process.env): string =>
  (siteUrlEnv || configured || defaultSiteUrl(env)).replace(/\/+$/, '');
