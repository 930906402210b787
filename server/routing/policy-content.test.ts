// The content's two zod shapes (the publish's checks, the API's view) describe one content, and
// the editor's field paths are the content's fields.
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import { isContentField, type policyContentView, type PolicyContent } from './policy-content';

describe('policyContentView', () => {
  it('is the content the publish checks, field for field', () => {
    expectTypeOf<z.infer<typeof policyContentView>>().toEqualTypeOf<PolicyContent>();
  });
});

describe('isContentField', () => {
  it.each([
    'primary_region',
    'allowed_regions',
    'failover_mode',
    'standby_region',
    'read_weights',
    'read_weights.sfo1',
    'routes.read.max_lag_ms',
    'routes.list.max_signal_age_ms',
    'routes.write.idempotency',
  ])('%s is a field', (path) => {
    expect(isContentField(path)).toBe(true);
  });

  it.each(['', 'routes', 'routes.read', 'routes.lists.max_lag_ms', 'read_weights.', 'owner', 'primary_region.x'])(
    '%s is not',
    (path) => {
      expect(isContentField(path)).toBe(false);
    },
  );
});
