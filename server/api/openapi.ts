// The OpenAPI document, generated from the procedures' `openapi` meta, so docs can't drift from
// code. Identical on every gateway: servers are relative, nothing depends on the host.
import { generateOpenApiDocument } from 'trpc-to-openapi';
import { REST_BASE } from './adapters/rest';
import type { RouteMeta } from './middleware/request';
import { withContract, type Procedure } from './openapi-contract';
import { appRouter } from './root';

type Document = ReturnType<typeof generateOpenApiDocument>;
let cached: Document | undefined;

export function openApiDocument(): Document {
  return (cached ??= withContract(
    withSuccessStatuses(generate()),
    appRouter._def.procedures as unknown as Record<string, Procedure>,
  ));
}

function generate(): Document {
  return generateOpenApiDocument(appRouter, {
    title: 'Meridian API',
    description:
      'The public API of Meridian. Every response carries X-Request-Id, X-Region and X-Region-Source; errors are {"error": {"code", "message", "request_id"}}. Region resolution: subdomain → X-Region → ?region= → body region → region API key (X-Region-Source: key) → session → resource → fan-out (GET) or 400 region_required.',
    version: '1.0.0',
    license: { name: 'Proprietary', identifier: 'LicenseRef-Meridian-Proprietary' },
    baseUrl: REST_BASE,
    securitySchemes: { apiKey: { type: 'http', scheme: 'bearer', description: 'mk_{region}_{prefix}_{secret}' } },
  });
}

/** trpc-to-openapi documents every success as 200; say 201/202 where a procedure answers that. */
function withSuccessStatuses(doc: Document): Document {
  const procedures = appRouter._def.procedures as unknown as Record<string, { _def: { meta?: RouteMeta } }>;
  for (const { _def } of Object.values(procedures)) {
    const meta = _def.meta;
    if (!meta?.openapi || !meta.successStatus || meta.successStatus === 200) continue;
    const op = (
      doc.paths?.[meta.openapi.path] as Record<string, { responses?: Record<string, unknown> }> | undefined
    )?.[meta.openapi.method.toLowerCase()];
    if (!op?.responses?.['200']) continue;
    const { '200': ok, ...rest } = op.responses;
    op.responses = {
      [String(meta.successStatus)]: {
        ...(ok as object),
        description: meta.successStatus === 202 ? 'Accepted: a workflow run does the work' : 'Created',
        ...(meta.successStatus === 202
          ? {
              headers: { Location: { description: 'The run: /v1/workflow-runs/{run_id}', schema: { type: 'string' } } },
            }
          : {}),
      },
      ...rest,
    };
  }
  return doc;
}
