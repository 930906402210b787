// Parsers of environment values that several groups of settings share (server/env.ts).
import { z } from 'zod';

export const regionCode = z.string().regex(/^[a-z]{3}[1-9][0-9]*$/, 'region codes are IATA + number, e.g. sfo1');

/** A postgresql:// URL; libpq's multi-host form (`a:5432,b:5432`, target_session_attrs) too. */
export const postgresUrl = z.string().refine((s) => {
  if (!/^postgres(ql)?:\/\//i.test(s)) return false;
  try {
    new URL(s.replace(/^(postgres(?:ql)?:\/\/(?:[^@/?#]*@)?)([^,/?#]*)(?:,[^/?#]*)?/i, '$1$2'));
    return true;
  } catch {
    return false;
  }
}, 'expected a postgresql:// URL (several hosts allowed: host1:5432,host2:5432)');

/** `sfo1=postgres://…,lax1=postgres://…` → { sfo1: 'postgres://…', … } */
export const replicaMap = z
  .string()
  .optional()
  .transform((raw, ctx) => {
    const out: Record<string, string> = {};
    for (const part of commaList(raw ?? '')) {
      const eq = part.indexOf('=');
      const code = part.slice(0, eq);
      if (eq < 1 || !regionCode.safeParse(code).success) {
        ctx.addIssue({ code: 'custom', message: `expected region=url, got "${part}"` });
        return z.NEVER;
      }
      out[code] = part.slice(eq + 1);
    }
    return out;
  });

/** `a, b,,c` → ['a', 'b', 'c']. */
export const commaList = (s: string) =>
  s
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);

/** A whole number from the environment, within [min, max], `fallback` when unset. */
export const int = (min: number, max: number, fallback: number) =>
  z.coerce.number().int().min(min).max(max).default(fallback);
