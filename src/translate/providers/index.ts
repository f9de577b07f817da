import { SetupError, type Provider } from '../provider.ts';
import { apertium } from './apertium.ts';
import { google } from './google.ts';
import { libretranslate } from './libretranslate.ts';

/** Every provider by its name on the command line and in content/translation.yaml. */
const FACTORIES: Record<string, (env: NodeJS.ProcessEnv) => Provider> = {
  apertium: () => apertium(),
  google,
  libretranslate,
};

export const PROVIDER_NAMES = Object.keys(FACTORIES);

export function createProvider(name: string, env: NodeJS.ProcessEnv = process.env): Provider {
  const make = FACTORIES[name];
  if (!make) throw new SetupError(`unknown translation provider "${name}" (available: ${PROVIDER_NAMES.join(', ')})`);
  return make(env);
}
