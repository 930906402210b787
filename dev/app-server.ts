// How dev tooling starts the production app: our HTTP server (server/http/main.ts, Next's
// handler behind a server that records each client's address) on a port and bind address.
import path from 'node:path';

export function appServerCommand(port: number, bind = '127.0.0.1'): { args: string[]; env: Record<string, string> } {
  return {
    args: ['--import', 'tsx', path.resolve('server/http/main.ts')],
    env: { PORT: String(port), MERIDIAN_BIND: bind, NODE_ENV: 'production' },
  };
}
