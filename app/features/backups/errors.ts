/**
 * A backup or restore that cannot go on, with the operator's one-line reason (English, like
 * ConfigError: these commands talk to the person running the site, not to its players). The
 * commands print the message and exit 1; nothing has been changed when it is thrown.
 */
export class BackupRefusal extends Error {
  override name = "BackupRefusal";
}
