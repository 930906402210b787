// What the SDK's sections (atlas, audit, notifications, team, webhook-endpoints) borrow from the client.
import type { Client } from 'openapi-fetch';
import type { paths } from './generated/openapi.js';
import type { Page } from './views.js';

export interface ClientCalls {
  /** openapi-fetch, typed by the OpenAPI document. */
  api: Client<paths>;
  /** The answer's body, or the MeridianError it says. */
  unwrap<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T>;
  /** Every item of a list, following next_cursor. */
  paginate<T>(page: (cursor: string | undefined) => Promise<Page<T>>): AsyncGenerator<T>;
}
