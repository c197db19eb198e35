import { forgetPushDevice } from "./use-push-device";

/**
 * Push's part of logging out, run by the site header before the log-out is sent: this browser's
 * push endpoint stops being this player's (deleting it needs the session, so it goes first).
 */
export function onLogOut(): Promise<void> {
  return forgetPushDevice();
}
