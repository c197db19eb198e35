/** What `until` throws when its time is up (a caller may wait again; any other error is the condition's own). */
export class WaitTimeout extends Error {}

/**
 * Waits until `condition()` holds, checking every few milliseconds; fails with `what` after
 * `timeoutMs`. For tests: wait for the state an assertion needs, never for a fixed time.
 */
export async function until(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new WaitTimeout(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
