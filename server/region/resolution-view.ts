// A request's resolved region as the API shows it ("where does this request go, and why?").
import { z } from 'zod';

export const regionResolutionView = z.object({
  region: z.string().describe('The resolved region, or the gateway’s own region for a fan-out'),
  source: z
    .string()
    .describe(
      'Which cascade step decided: subdomain, header, query, body, key, project-session, session, resource, fan-out, gateway',
    ),
  fan_out: z.array(z.string()).nullable().describe('Every region a fan-out read spans'),
  gateway: z.string(),
  request_id: z.string(),
});
export type RegionResolutionView = z.infer<typeof regionResolutionView>;

/** The view of a request's resolved region, from `gateway` (its region) for `requestId`. */
export const toRegionResolutionView = (
  resolved: { region: string; source: string; fanOut?: string[] },
  gateway: string,
  requestId: string,
): RegionResolutionView => ({
  region: resolved.region,
  source: resolved.source,
  fan_out: resolved.fanOut ?? null,
  gateway,
  request_id: requestId,
});
