import { cardSearchEndpoint } from "../features/cards/endpoints.server";
import { endpointLoader } from "../lib/api.server";

/** GET /api/cards/search (features/cards/endpoints.server.ts; Express answers it directly too). */
export const loader = endpointLoader(cardSearchEndpoint);
