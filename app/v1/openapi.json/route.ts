import { serviceRoute } from '~/server/api/adapters/service-route';
import { openApiDocument } from '~/server/api/openapi';

export const dynamic = 'force-dynamic';

export const GET = serviceRoute({ name: 'service.openapi' }, async () => Response.json(openApiDocument()));
