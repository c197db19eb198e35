import { clearChatOutboxes } from "./send-queue";

/**
 * Chat's part of logging out, run by the site header before the log-out is sent: on a shared
 * browser, unsent messages must not wait for the next player.
 */
export async function onLogOut(): Promise<void> {
  clearChatOutboxes();
}
