// How dev tooling starts the production app: our HTTP server (server/http/main.ts, Next's
// handler behind a server that records each client's address) on a port and bind address.
import fs from 'node:fs';
import path from 'node:path';

/**
 * The config the build was made with, as the deployed artifact passes it (scripts/
 * package-standalone.ts): Next then neither loads next.config.ts again nor warns that
 * `output: 'standalone'` is meant for .next/standalone/server.js. Before a build there is none.
 */
function builtConfig(): Record<string, string> {
  try {
    const files = JSON.parse(fs.readFileSync(path.resolve('.next/required-server-files.json'), 'utf8')) as {
      config: unknown;
    };
    return { __NEXT_PRIVATE_STANDALONE_CONFIG: JSON.stringify(files.config) };
  } catch {
    return {};
  }
}

export function appServerCommand(port: number, bind = '127.0.0.1'): { args: string[]; env: Record<string, string> } {
  return {
    args: ['--import', 'tsx', path.resolve('server/http/main.ts')],
    env: { PORT: String(port), MERIDIAN_BIND: bind, NODE_ENV: 'production', ...builtConfig() },
  };
}
