/**
 * Structured logs: one JSON object per line on stdout, so any log shipper can read them. This is
 * the only place server code writes logs (lint refuses `console` in server code). A request's
 * logger is on its load context (`requestLog(context)`), a child carrying the request id that the
 * request's own log line and its `X-Request-Id` answer header carry too.
 */
export type LogLevel = "debug" | "info" | "warn" | "error" | "silent";
const ORDER: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export type Logger = {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  /** A logger whose every line also carries these fields (a request id, a job name). */
  child(fields: Record<string, unknown>): Logger;
};

export function createLogger(level: LogLevel, write: (line: string) => void = (l) => process.stdout.write(l), bound: Record<string, unknown> = {}): Logger {
  const emit = (at: Exclude<LogLevel, "silent">, msg: string, fields?: Record<string, unknown>) => {
    if (ORDER[at] < ORDER[level]) return;
    write(`${JSON.stringify({ level: at, time: new Date().toISOString(), msg, ...bound, ...fields })}\n`);
  };
  return {
    debug: (m, f) => emit("debug", m, f),
    info: (m, f) => emit("info", m, f),
    warn: (m, f) => emit("warn", m, f),
    error: (m, f) => emit("error", m, f),
    child: (fields) => createLogger(level, write, { ...bound, ...fields }),
  };
}

/** An error as log fields: its message, and its stack when it has one. */
export function errorFields(error: unknown): { error: string; stack?: string } {
  if (error instanceof Error) return { error: error.message, ...(error.stack ? { stack: error.stack } : {}) };
  return { error: String(error) };
}

const fallbacks = new Map<LogLevel, Logger>();

/**
 * The logger of a request: the one server/http.ts put on its load context, with the request id.
 * A context built without one (a test calling a loader directly) gets a logger at its LOG_LEVEL.
 */
export function requestLog(context: { log?: Logger; env?: { logLevel: LogLevel } } | null | undefined): Logger {
  if (context?.log) return context.log;
  const level = context?.env?.logLevel ?? "info";
  let log = fallbacks.get(level);
  if (!log) fallbacks.set(level, (log = createLogger(level)));
  return log;
}
