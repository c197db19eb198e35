import { tradePickerEndpoint } from "../features/trades/endpoints.server";
import { endpointLoader } from "../lib/api.server";

/** GET /api/trades/picker (features/trades/endpoints.server.ts): the trade card picker's search under the trade rules. */
export const loader = endpointLoader(tradePickerEndpoint);
