/**
 * The store's writes since a mark, each kept as the step that undoes it, so that going back to the
 * mark costs what changed, not the world's size. The index and each collection record here every
 * write they make, whoever asked for it (a test through the collections, `addEntries`, anything the
 * emulator does over time); `revert()` undoes them newest first, synchronously, so that no request
 * sees half of it.
 */
export class ChangeLog {
  /** The undo steps since the mark, oldest first; null before the first mark, when nothing is kept. */
  #undo: Array<() => void> | null = null
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
    for (const watcher of this.#watchers) watcher.marked()
  }

  /** Whether writes are kept now: a writer may skip finding what its undo needs when they are not. */
  get recording(): boolean {
    return this.#undo !== null && !this.#reverting && !this.#paused
  }

  /** The writes kept since the mark. */
  get size(): number {
    return this.#undo?.length ?? 0
  }

  /** Undoes every write since the mark, newest first; the mark stays. Returns how many were undone. */
  revert(): number {
    const undo = this.#undo
    if (undo === null) throw new Error('Failed to revert the store: it has no mark')
    this.#reverting = true
    try {
      for (let i = undo.length - 1; i >= 0; i--) undo[i]!()
      for (const watcher of this.#watchers) watcher.reverted()
    } finally {
      this.#reverting = false
      this.#undo = []
    }
    return undo.length
  }
}
