import { AppError, type ErrorTable } from "#app/lib/errors.ts";
import type { Params } from "#app/lib/i18n.tsx";
import { analyticsMessages, type AnalyticsMessageKey } from "./messages";

export const ANALYTICS_ERRORS = {
  forbidden_origin: [403, "errorOrigin"],
  invalid: [400, "errorInvalid"],
  rate_limited: [429, "errorRateLimited"],
  invalid_period: [400, "errorPeriod"],
} as const satisfies ErrorTable<AnalyticsMessageKey>;

export type AnalyticsErrorCode = keyof typeof ANALYTICS_ERRORS;

export class AnalyticsError extends AppError<AnalyticsErrorCode> {
  constructor(code: AnalyticsErrorCode, params?: Params) {
    super(analyticsMessages, ANALYTICS_ERRORS, code, params);
  }
}
