import { apiError } from './errors.js'

/**
 * The most dumps (`GET /__emulator/dump`) one emulator sends at once, its sandboxes' included. Each
 * holds up to four pieces (about 1 MB) made ahead of its reader and takes a turn of up to TURN_MS
 * (10 ms) whenever its reader asks: four at once keep a small page's wait within 40 ms, under the
 * 50 ms a request may hold the loop, and more than a test suite's workers ask for at one time.
 */
const MAX_DUMPS = 4

/** What a refused dump's client is told to wait (Retry-After, in seconds): a dump of `busy`'s size takes seconds to send. */
const DUMP_RETRY_AFTER_S = 5

/**
 * The dumps being sent by an emulator and its sandboxes, at most MAX_DUMPS: a sandbox shares its
 * host's. A dump takes a slot before it is made and gives it back once its body has been made whole
 * (the last of it waiting for its reader holds no more work), cancelled (its client went away) or failed.
 * @example const giveBack = slots.take(); void response.ended.then(giveBack)
 */
export class DumpSlots {
  #taken = 0

  /**
   * Takes a slot; throws a 503 naming MAX_DUMPS, with a Retry-After, when none is free. Returns the
   * slot's release, which frees it once however often it is called.
   */
  take(): () => void {
    if (this.#taken >= MAX_DUMPS) {
      throw apiError(
        503,
        `Too many dumps at once: ${this.#taken} are being sent, the most this emulator sends at once (MAX_DUMPS, ${MAX_DUMPS}); retry when one has ended`,
        { 'retry-after': String(DUMP_RETRY_AFTER_S) },
      )
    }
    this.#taken++
    let given = false
    return () => {
      if (given) return
      given = true
      this.#taken--
    }
  }
}
