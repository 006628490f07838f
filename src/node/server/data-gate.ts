/**
 * Work done one at a time, in the order it came: a sandbox's large data is read, parsed and made into
 * a sandbox while the data of the next waits, its body unread. What the server holds for such bodies
 * is then one body and its value, however many clients send one at once.
 * @example const status = await served.dataGate.run(() => readAndAnswer(ctx, served))
 */
export class DataGate {
  #last: Promise<unknown> = Promise.resolve()

  /** Runs `work` once the work given before it has ended (resolved or rejected); resolves to what it does. */
  run<T>(work: () => Promise<T>): Promise<T> {
    const result = this.#last.then(work)
    this.#last = result.catch(() => undefined)
    return result
  }
}
