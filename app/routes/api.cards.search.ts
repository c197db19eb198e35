import { cardSearchEndpoint } from "#app/features/cards/endpoints.server.ts";
import { endpointLoader } from "#app/lib/api.server.ts";

/** GET /api/cards/search (features/cards/endpoints.server.ts; Express answers it directly too). */
export const loader = endpointLoader(cardSearchEndpoint);
