import { matchesEndpoint } from "../features/trades/endpoints.server";
import { endpointLoader } from "../lib/api.server";

/** GET /api/trades/matches?page= (features/trades/endpoints.server.ts; Express answers it directly too). */
export const loader = endpointLoader(matchesEndpoint);
