import { matchesEndpoint } from "#app/features/trades/endpoints.server.ts";
import { endpointLoader } from "#app/lib/api.server.ts";

/** GET /api/trades/matches?page= (features/trades/endpoints.server.ts; Express answers it directly too). */
export const loader = endpointLoader(matchesEndpoint);
