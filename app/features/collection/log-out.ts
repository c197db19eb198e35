import { clearCollectionQueues } from "#app/features/collection/components/use-count-saver.ts";

/**
 * The collection's part of logging out, run by the site header before the log-out is sent: on a
 * shared browser, count changes still queued are not left for the next player.
 */
export async function onLogOut(): Promise<void> {
  clearCollectionQueues();
}
