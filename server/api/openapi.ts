// The OpenAPI document, generated from the procedures' `openapi` meta, so docs can't drift from
// code. Identical on every gateway: servers are relative, nothing depends on the host.
import { generateOpenApiDocument } from 'trpc-to-openapi';
import { REST_BASE } from './adapters/rest';
import { appRouter } from './root';

let cached: ReturnType<typeof generateOpenApiDocument> | undefined;

export function openApiDocument() {
  return (cached ??= generateOpenApiDocument(appRouter, {
    title: 'Meridian API',
    description:
      'The public API of Meridian. Every response carries X-Request-Id, X-Region and X-Region-Source; errors are {"error": {"code", "message", "request_id"}}. Region resolution: subdomain → X-Region → ?region= → body region → session → resource → fan-out (GET) or 400 region_required.',
    version: '1.0.0',
    baseUrl: REST_BASE,
    securitySchemes: { apiKey: { type: 'http', scheme: 'bearer', description: 'mk_{region}_{prefix}_{secret}' } },
  }));
}
