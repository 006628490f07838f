/**
 * Every wait of the suite on something slower than a function call (a process, a server, a browser, a
 * heavy test) comes from here, times one factor: `ACTIVATION_EMULATOR_TEST_TIMEOUT_FACTOR` (default 1).
 * A loaded or slow machine raises it (`ACTIVATION_EMULATOR_TEST_TIMEOUT_FACTOR=3 npm test`) instead of
 * anyone raising a number in a test. The waits are bounds, never targets: a test that passes waits only
 * as long as the thing it waits for takes.
 */

/** The factor every bound below is multiplied by. */
const TIMEOUT_FACTOR = readFactor(process.env['ACTIVATION_EMULATOR_TEST_TIMEOUT_FACTOR'])

function readFactor(raw: string | undefined): number {
  if (raw === undefined || raw.trim() === '') return 1
  const factor = Number(raw)
  if (!Number.isFinite(factor) || factor <= 0)
    throw new Error(`ACTIVATION_EMULATOR_TEST_TIMEOUT_FACTOR must be a positive number, not "${raw}"`)
  return factor
}

/** `ms` times the factor: for a bound that none of the names below says. */
export function scaled(ms: number): number {
  return Math.round(ms * TIMEOUT_FACTOR)
}

/** How long a wait for something outside the test (a process, a server, a page) may take, at most. */
export const WAIT = {
  /** A server started from the command line writes its banner. */
  banner: scaled(30_000),
  /** A command-line run (dump, openapi, a refused flag) ends. */
  run: scaled(60_000),
  /** A stopped process has exited, before it is killed outright. */
  stop: scaled(5_000),
  /** A port is free again after its server was stopped. */
  portFree: scaled(5_000),
  /** Something a page or a server shows soon after it was asked (a row, a log line, a view). */
  soon: scaled(10_000),
} as const

/** A test's or a hook's timeout: at least every wait it contains. */
export const TEST_MS = {
  /** Vitest's timeout for a test or hook that names none (vitest.config.ts): a banner's wait, twice. */
  default: scaled(60_000),
  /** A test that builds a big world, or starts several servers one after the other. */
  long: scaled(120_000),
  /** A guide's examples, a hostile upstream's walks, a packed project's Vitest. */
  longer: scaled(240_000),
  /** The soaks (vitest.soak.config.ts). */
  soak: scaled(300_000),
  /**
   * A run whose length is its point and grows with the machine's load: 10,000 sandboxes took 40-55 s
   * quiet and over 300 s beside six CPU-bound processes. Only a hang should meet this bound.
   */
  marathon: scaled(1_800_000),
} as const

/**
 * Resolves once `check` holds, polling every 25 ms; rejects naming `what` after `ms`. For what a
 * process shows soon (a log line), instead of a pause that a loaded machine may outlast.
 */
export async function waitUntil(check: () => boolean, what: string, ms: number = WAIT.soon): Promise<void> {
  const end = Date.now() + ms
  while (!check()) {
    if (Date.now() > end) throw new Error(`No ${what} within ${ms} ms`)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}
