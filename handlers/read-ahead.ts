import type { StoredActivation, StoredEntry } from '../src/contract/stored-records.js'

/**
 * The fewest entries a page asks for before the page after it is read ahead: a walk in pages this
 * large spends about as long reading each page (the client's parse) as the server spends making it,
 * and a list page (100 or less) costs too little for the wait to matter.
 */
export const READ_AHEAD_MIN = 500
/** The entries made in one turn of a read-ahead: about a millisecond, so a request that arrives waits no longer. */
const READ_AHEAD_TURN = 100

/** A page of the world as loaded (see entries-page.ts `loadedPage`): its list by position, what it was asked and where it ends. */
type LoadedRun = {
  activation: StoredActivation
  idAt: (n: number) => string
  itemAt: (n: number, id: string) => StoredEntry
  /** The `next` the page was asked with (undefined for a first page). */
  cursor: string | undefined
  /** The page's size as asked, and where the list's entries shown end. */
  limit: number
  end: number
  nowIso: string
}

/** Makes an entry's bytes and keeps them, as a page that serves it does (json.ts `loadedEntryBytes`). */
type MakeBytes = (run: LoadedRun, n: number) => void

/**
 * The page after a page a client reached by following `next`, made while the client reads this one:
 * a walk through an activation in pages of `READ_AHEAD_MIN` or more then finds each page's entries'
 * bytes kept when it asks for it, where it would wait for them to be made. Made in turns of
 * `READ_AHEAD_TURN` entries (a request arriving meanwhile is answered between two), stopped when the
 * next page read ahead starts, and only what a page asked for would make: the bytes are the same.
 * Only a walk is read ahead (the page's cursor is the `next` of the last page served), so a reader of
 * pages at random places costs nothing more. Each emulator's `MadeBodies` has one.
 * @example readAhead.afterPage(run, from + count) // after serving entries from..from+count-1
 */
export class ReadAhead {
  readonly #make: MakeBytes
  /** The `next` of the last large page served: a request that sends it is a walk's. */
  #lastNext: string | undefined = undefined
  /** The read-ahead under way, stopped by the next one. */
  #current = 0

  constructor(make: MakeBytes) {
    this.#make = make
  }

  /**
   * After a page of `run` that ends before position `after`: reads ahead the page from `after` when
   * the page was a walk's (its cursor the last page's `next`) and it asked for `READ_AHEAD_MIN` or more.
   */
  afterPage(run: LoadedRun, after: number): void {
    if (run.limit < READ_AHEAD_MIN || after >= run.end) {
      this.#lastNext = undefined
      return
    }
    const walking = run.cursor !== undefined && run.cursor === this.#lastNext
    this.#lastNext = run.idAt(after)
    if (!walking) return
    const current = ++this.#current
    const stop = Math.min(run.end, after + run.limit)
    const turn = (from: number) => {
      if (current !== this.#current) return
      const to = Math.min(stop, from + READ_AHEAD_TURN)
      for (let n = from; n < to; n++) this.#make(run, n)
      if (to < stop) later(() => turn(to))
    }
    later(() => turn(after))
  }
}

/** Runs `work` after the requests already arrived (setImmediate where there is one, as in Node). */
function later(work: () => void): void {
  if (typeof setImmediate === 'function') setImmediate(work)
  else setTimeout(work, 0)
}
