// `npm run wan -- status | cut <a>-<b> | heal <a>-<b>`: partitions a link of the running
// `npm start -- --wan` demo, or heals it (docs/operations.md#wan-mode).
import fs from 'node:fs';
import path from 'node:path';

function usage(message?: string): never {
  if (message) console.error(message);
  console.error('usage: npm run wan -- status | cut <a>-<b> | heal <a>-<b>   (e.g. cut ams1-sfo1)');
  process.exit(2);
}

const [command = 'status', link, ...rest] = process.argv.slice(2);
if (rest.length || !['status', 'cut', 'heal'].includes(command)) usage();
if (command !== 'status' && !/^[a-z0-9]+-[a-z0-9]+$/.test(link ?? '')) usage(`${command} needs a link, e.g. ams1-sfo1`);

const file = path.join(path.resolve(process.env.MERIDIAN_DATA_DIR ?? '.data'), 'wan.json');
if (!fs.existsSync(file)) usage(`no WAN is running (${file} is missing): start one with npm start -- --wan`);
const { port } = JSON.parse(fs.readFileSync(file, 'utf8')) as { port: number };

type Link = {
  link: string;
  rttMs: number;
  cut: boolean;
  relays: number;
  connections: number;
  open: number;
  pending: number;
  bytesUp: number;
  bytesDown: number;
};
const url = `http://127.0.0.1:${port}/links${command === 'status' ? '' : `/${link}/${command}`}`;
let res: Response;
try {
  res = await fetch(url, { method: command === 'status' ? 'GET' : 'POST' });
} catch (err) {
  usage(
    `the WAN's control server (${url}) does not answer: is npm start -- --wan still running? (${(err as Error).message})`,
  );
}
const body = (await res.json()) as { error?: string; links?: Link[] };
if (!res.ok) usage(body.error ?? `HTTP ${res.status}`);
if (command !== 'status') console.log(`${link}: ${command === 'cut' ? 'cut (partitioned)' : 'healed'}`);
for (const l of body.links ?? []) {
  console.log(
    `${l.link.padEnd(10)} ${String(l.rttMs).padStart(5)} ms RTT  ${l.cut ? 'CUT   ' : 'up    '}` +
      `${l.relays} relays, ${l.open} open (${l.pending} waiting) of ${l.connections} connections, ` +
      `${l.bytesUp} B up, ${l.bytesDown} B down`,
  );
}
