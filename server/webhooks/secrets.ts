// An endpoint's signing secrets, sealed at rest (server/secrets/sealed.ts) and bound to the
// endpoint: a sealed value copied onto another endpoint's row does not open there.
import { openSecret, sealSecret } from '../secrets/sealed';

const context = (endpointId: string) => `webhook_endpoint:${endpointId}:signing_secret`;

export const sealSigningSecret = (endpointId: string, secret: string) => sealSecret(secret, context(endpointId));

/** The secrets that sign now: the current one, and the previous one while its overlap lasts. */
export function endpointSecrets(
  ep: { id: string; secretSealed: string; previousSecretSealed: string | null; previousSecretExpiresAt: Date | null },
  now = new Date(),
): string[] {
  const secrets = [openSecret(ep.secretSealed, context(ep.id))];
  if (ep.previousSecretSealed && ep.previousSecretExpiresAt && ep.previousSecretExpiresAt > now) {
    secrets.push(openSecret(ep.previousSecretSealed, context(ep.id)));
  }
  return secrets;
}
