// The CLI's config file (JSON, mode 600 in a 700 folder): key or session token, default region,
// global address; environment variables win (sdk/README.md#settings).
import { randomBytes } from 'node:crypto';
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

/**
 * Writes the whole file: a fresh temporary file beside it, created exclusively (`wx`: never an
 * existing file or a planted symlink) with mode 600, then renamed over it. Folders it creates are
 * 700 whatever the umask, and so is the default folder (~/.config/meridian) if it was not;
 * a folder named by MERIDIAN_CONFIG that exists already is the user's business.
 */
export function writeConfig(config: CliConfig, file = configPath()): void {
  const dir = path.dirname(file);
  const created = fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (created) {
    // mkdir's mode is masked by the umask: set each folder it made, from the first to `dir`.
    for (let d = dir; ; d = path.dirname(d)) {
      fs.chmodSync(d, 0o700);
      if (path.resolve(d) === path.resolve(created) || path.dirname(d) === d) break;
    }
  }
  if (path.resolve(file) === path.resolve(configPath({ ...process.env, MERIDIAN_CONFIG: '' }))) {
    fs.chmodSync(dir, 0o700);
  }
  const tmp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  const fd = fs.openSync(tmp, 'wx', 0o600);
  try {
    fs.fchmodSync(fd, 0o600);
    fs.writeFileSync(fd, `${JSON.stringify(config, null, 2)}\n`);
    fs.fsyncSync(fd);
  } catch (e) {
    fs.closeSync(fd);
    fs.rmSync(tmp, { force: true });
    throw e;
  }
  fs.closeSync(fd);
  try {
    fs.renameSync(tmp, file);
  } catch (e) {
    fs.rmSync(tmp, { force: true });
    throw e;
  }
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
