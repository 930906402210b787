// The CLI's settings: a JSON file (mode 600, in a 700 folder) holding the API key or operator
// session token, the default region and the global address. Environment variables win:
// MERIDIAN_API_KEY, MERIDIAN_SESSION_TOKEN, MERIDIAN_REGION, MERIDIAN_URL; MERIDIAN_CONFIG moves
// the file (default $XDG_CONFIG_HOME/meridian/config.json, else ~/.config/meridian/config.json).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface CliConfig {
  api_key?: string;
  session_token?: string;
  region?: string;
  url?: string;
}

export const SETTINGS = ['region', 'url'] as const;
export type Setting = (typeof SETTINGS)[number];

export function configPath(env: NodeJS.ProcessEnv = process.env): string {
  if (env.MERIDIAN_CONFIG) return env.MERIDIAN_CONFIG;
  const base = env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config');
  return path.join(base, 'meridian', 'config.json');
}

export function readConfig(file = configPath()): CliConfig {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as CliConfig;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new Error(`cannot read ${file}: ${(e as Error).message}`);
  }
}

/** Writes the whole file: created 600 (it may hold a secret), and set back to 600 if it was not. */
export function writeConfig(config: CliConfig, file = configPath()): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  fs.chmodSync(tmp, 0o600);
  fs.renameSync(tmp, file);
}

/** What the commands use: the file overlaid with the environment. */
export function effectiveConfig(env: NodeJS.ProcessEnv = process.env): CliConfig & { file: string } {
  const file = configPath(env);
  const c = readConfig(file);
  return {
    file,
    api_key: env.MERIDIAN_API_KEY || c.api_key,
    session_token: env.MERIDIAN_SESSION_TOKEN || c.session_token,
    region: env.MERIDIAN_REGION || c.region,
    url: env.MERIDIAN_URL || c.url,
  };
}
