/** Thrown when configuration is invalid; start-up prints its one-line message and exits. */
export class ConfigError extends Error {
  override name = "ConfigError";
}
