import { tradePickerEndpoint } from "#app/features/trades/endpoints.server.ts";
import { endpointLoader } from "#app/lib/api.server.ts";

/** GET /api/trades/picker (features/trades/endpoints.server.ts): the trade card picker's search under the trade rules. */
export const loader = endpointLoader(tradePickerEndpoint);
