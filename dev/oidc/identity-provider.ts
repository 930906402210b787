// A real OpenID provider for the demo and the tests (the certified `oidc-provider`), on loopback:
// clients, people with passwords, a plain sign-in page, consent granted by itself; and, for the
// tests, ID tokens it can be told to get wrong (another audience, expired, another nonce, a broken
// signature) while signing them with its own keys.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider, { type KoaContextWithOIDC } from 'oidc-provider';

export interface IdpClient {
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
}

export interface IdpPerson {
  email: string;
  password: string;
  name: string;
  emailVerified?: boolean;
  groups?: string[];
}

/** How the next ID token goes wrong (tests only): each applies once. */
export type IdTokenFault = 'wrong_audience' | 'expired' | 'wrong_nonce' | 'bad_signature';

export interface IdentityProvider {
  issuer: string;
  port: number;
  people: IdpPerson[];
  /** The next ID token the token endpoint issues goes wrong this way. */
  tamperNextIdToken(fault: IdTokenFault): void;
  close(): Promise<void>;
}

/** The client tokens go to when the audience is made wrong: another application of this provider. */
const OTHER_CLIENT = 'another-application';

const escapeHtml = (v: string) =>
  v.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function loginPage(uid: string, error?: string, email = ''): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Demo identity provider: sign in</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font-family:system-ui,sans-serif;max-width:22rem;margin:3rem auto;padding:0 1rem;color:#0f172a}
label{display:block;margin-top:.75rem;font-weight:600}input{width:100%;padding:.5rem;margin-top:.25rem;box-sizing:border-box;border:1px solid #64748b;border-radius:.375rem}
button{margin-top:1rem;width:100%;padding:.6rem;background:#0f766e;color:#fff;border:0;border-radius:.375rem;font-weight:600}
p.error{color:#9f1239;background:#fff1f2;padding:.5rem;border-radius:.375rem}</style></head><body>
<main><h1>Demo identity provider</h1><p>Sign in to continue to Meridian.</p>
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="/interaction/${escapeHtml(uid)}/login">
<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" value="${escapeHtml(email)}" required>
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button></form></main></body></html>`;
}

async function formOf(req: http.IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

/** Starts a provider on `port` (0: any free one) of 127.0.0.1. */
export async function startIdentityProvider(opts: {
  clients: IdpClient[];
  people: IdpPerson[];
  port?: number;
}): Promise<IdentityProvider> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const issuer = `http://127.0.0.1:${port}`;
  const people = new Map(opts.people.map((p) => [p.email.toLowerCase(), p]));
  const jwk = { ...generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }) };

  const provider = new Provider(issuer, {
    clients: [
      ...opts.clients.map((c) => ({
        client_id: c.clientId,
        client_secret: c.clientSecret,
        redirect_uris: c.redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code' as const],
        token_endpoint_auth_method: 'client_secret_basic' as const,
      })),
      {
        client_id: OTHER_CLIENT,
        client_secret: randomBytes(24).toString('hex'),
        redirect_uris: ['http://127.0.0.1/unused'],
        grant_types: ['authorization_code'],
        response_types: ['code' as const],
      },
    ],
    jwks: { keys: [{ ...jwk, kid: `demo-${port}`, use: 'sig', alg: 'RS256' }] },
    cookies: { keys: [randomBytes(32).toString('hex')] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'groups'] },
    // The ID token carries the scopes' claims itself (Meridian reads no userinfo).
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx: KoaContextWithOIDC, interaction) => `/interaction/${interaction.uid}` },
    findAccount: (_ctx, id) => {
      const p = people.get(id);
      if (!p) return undefined;
      return {
        accountId: id,
        claims: () => ({
          sub: id,
          email: p.email,
          email_verified: p.emailVerified ?? true,
          name: p.name,
          ...(p.groups ? { groups: p.groups } : {}),
        }),
      };
    },
    renderError(ctx, out) {
      ctx.type = 'html';
      ctx.body = `<!doctype html><html lang="en"><head><title>Identity provider error</title></head><body><main><h1>${escapeHtml(String(out.error))}</h1><p>${escapeHtml(String(out.error_description ?? ''))}</p></main></body></html>`;
    },
  });

  const faults: IdTokenFault[] = [];
  const IdToken = provider.IdToken;
  const issue = IdToken.prototype.issue;
  IdToken.prototype.issue = async function (this: InstanceType<typeof IdToken>, context) {
    const fault = context.use === 'idtoken' ? faults.shift() : undefined;
    if (fault === 'wrong_audience') {
      (this as unknown as { client: unknown }).client = await provider.Client.find(OTHER_CLIENT);
    }
    if (fault === 'wrong_nonce') this.set('nonce', randomBytes(16).toString('base64url'));
    // Expired ten minutes ago: far beyond any clock tolerance.
    const jwt = await issue.call(
      this,
      fault === 'expired' ? { ...context, expiresAt: Math.floor(Date.now() / 1000) - 600 } : context,
    );
    if (fault !== 'bad_signature') return jwt;
    const [h, p, s] = jwt.split('.');
    return `${h}.${p}.${s![0] === 'A' ? 'B' : 'A'}${s!.slice(1)}`;
  };

  const callback = provider.callback();
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    void (async () => {
      const url = new URL(req.url ?? '/', issuer);
      const m = /^\/interaction\/([^/]+)(\/login)?$/.exec(url.pathname);
      if (!m) return callback(req, res);
      try {
        const details = await provider.interactionDetails(req, res);
        if (details.prompt.name === 'login') {
          if (req.method !== 'POST' || !m[2]) {
            res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(loginPage(details.uid));
            return;
          }
          const form = await formOf(req);
          const email = (form.get('email') ?? '').trim().toLowerCase();
          const person = people.get(email);
          if (!person || person.password !== form.get('password')) {
            res
              .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
              .end(loginPage(details.uid, 'Email or password is not right.', email));
            return;
          }
          await provider.interactionFinished(
            req,
            res,
            { login: { accountId: email } },
            { mergeWithLastSubmission: false },
          );
          return;
        }
        // Consent: granted at once (a demo provider; Meridian asks only for openid, email, profile).
        const { prompt, params, session } = details;
        const grant = details.grantId
          ? (await provider.Grant.find(details.grantId))!
          : new provider.Grant({ accountId: session!.accountId, clientId: String(params.client_id) });
        const missing = prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[] };
        if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
        if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
        const grantId = await grant.save();
        await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
      } catch (e) {
        res.writeHead(400, { 'content-type': 'text/plain' }).end(`interaction failed: ${(e as Error).message}`);
      }
    })();
  });

  return {
    issuer,
    port,
    people: opts.people,
    tamperNextIdToken: (fault) => faults.push(fault),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
