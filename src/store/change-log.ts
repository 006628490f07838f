/**
 * The store's writes since a mark, so that going back to the mark costs what changed, not the
 * world's size. Each collection keeps here the step that undoes each write it makes, whoever asked
 * for it (a test through the collections, `addEntries`, anything the emulator does over time); a
 * writer that undoes its changes in one piece (an index layer, dropped whole) only counts them.
 * `revert()` undoes them newest first, synchronously, so that no request sees half of it.
 */
export class ChangeLog {
  /** The undo steps since the mark, oldest first; null before the first mark, when nothing is kept. */
  #undo: Array<() => void> | null = null
  /** The writes since the mark that a watcher undoes in one piece (see `count`). */
  #counted = 0
  #reverting = false
  #paused = false
  readonly #watchers: Array<{ marked(): void; reverted(): void }> = []

  /**
   * Tells a writer when the mark is set and when a revert has run every undo step: for a writer that
   * undoes its changes in one piece at the end (a list put back from a copy taken at the mark).
   */
  watch(watcher: { marked(): void; reverted(): void }): void {
    this.#watchers.push(watcher)
  }

  /** Keeps an undo step, if a mark is set; undo steps themselves write, and are not kept. */
  record(undo: () => void): void {
    if (this.recording) this.#undo!.push(undo)
  }

  /**
   * Counts a write, if a mark is set, without an undo step: for a writer whose watcher undoes all its
   * writes at once when a revert ends (an index layer, which forgets its changes in one step).
   */
  count(): void {
    if (this.recording) this.#counted++
  }

  /**
   * Runs `write` without keeping its undo steps: for records that count as part of what was marked
   * (a world's records loaded after the mark, when first needed).
   */
  unrecorded(write: () => void): void {
    const paused = this.#paused
    this.#paused = true
    try {
      write()
    } finally {
      this.#paused = paused
    }
  }

  /** Sets the mark here: what is written from now on can be reverted. */
  mark(): void {
    this.#undo = []
    this.#counted = 0
    for (const watcher of this.#watchers) watcher.marked()
  }

  /** Whether writes are kept now: a writer may skip finding what its undo needs when they are not. */
  get recording(): boolean {
    return this.#undo !== null && !this.#reverting && !this.#paused
  }

  /** The writes kept since the mark. */
  get size(): number {
    return (this.#undo?.length ?? 0) + this.#counted
  }

  /** Undoes every write since the mark, newest first; the mark stays. Returns how many were undone. */
  revert(): number {
    const undo = this.#undo
    if (undo === null) throw new Error('Failed to revert the store: it has no mark')
    const undone = undo.length + this.#counted
    this.#reverting = true
    try {
      for (let i = undo.length - 1; i >= 0; i--) undo[i]!()
      for (const watcher of this.#watchers) watcher.reverted()
    } finally {
      this.#reverting = false
      this.#undo = []
      this.#counted = 0
    }
    return undone
  }
}
