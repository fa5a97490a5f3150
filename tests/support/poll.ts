/**
 * The tests' one way to wait for something: read, check, and read again a moment later
 * until the check holds or the time is up. A test waits for a condition, never for a
 * fixed time, so it is as fast as the machine allows and still patient on a busy one.
 */

/**
 * Reads until `done` holds for what was read, and returns that. Fails after `timeoutMs`
 * with `what` and the last reading, so a timeout says what the test was waiting for.
 */
export async function until<T>(
  read: () => T | Promise<T>,
  done: (value: T) => boolean,
  timeoutMs: number,
  what: string,
  intervalMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T = await read();
  while (!done(last)) {
    if (Date.now() > deadline) throw new Error(`${what} not reached within ${timeoutMs} ms; last: ${describe(last)}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
    last = await read();
  }
  return last;
}

/** Until `check` answers true (a condition with nothing to report but yes or no). */
export async function untilTrue(check: () => boolean | Promise<boolean>, timeoutMs: number, what = 'the condition', intervalMs = 10): Promise<void> {
  await until(check, (yes) => yes, timeoutMs, what, intervalMs);
}

function describe(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
