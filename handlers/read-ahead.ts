import { changesAfterOf, entryChangesAfter, showsResults, voidedIsoOf } from '../src/contract/at-instant.js'
import type { StoredActivation, StoredEntry } from '../src/contract/stored-records.js'

/**
 * The fewest entries a page asks for to be a walk's: a walk in pages this large spends about as long
 * reading each page (the client's parse) as the server spends making it, and a list page (100 or
 * less) costs too little for the wait to matter.
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

/** An entry's JSON as shown at an instant (`before`: the face before something still to come), made and not kept. */
type MakeBytes = (entry: StoredEntry, activation: StoredActivation, nowIso: string, before: boolean) => Uint8Array

/** A page made ahead: its first `made` entries' bytes, each with what tells which face an instant shows. */
type AheadPage = {
  activation: StoredActivation
  idAt: (n: number) => string
  from: number
  made: number
  items: Uint8Array[]
  voided: Array<string | undefined>
  results: boolean[]
  before: boolean[]
}

/**
 * A walk through an activation's entries: pages of `READ_AHEAD_MIN` or more, each asked for with the
 * `next` of the page before. Its pages are made without keeping their entries' JSON (each is read
 * once: keeping it would cost every entry a look-up, a place in the cache and the collector's work),
 * and the page after the one served is made while the client reads it, in turns of `READ_AHEAD_TURN`
 * entries (a request arriving meanwhile is answered between two), so that the walk finds it made.
 * A page at any other place reads nothing ahead. Each emulator's `MadeBodies` has one.
 * @example if (readAhead.isWalk(run)) bytes = readAhead.made(run, n) ?? make(...); readAhead.afterPage(run, after)
 */
export class ReadAhead {
  readonly #make: MakeBytes
  /** The `next` of the last large page served: a request that sends it is a walk's. */
  #lastNext: string | undefined = undefined
  /** The read-ahead under way, stopped by the next one. */
  #current = 0
  #ahead: AheadPage | undefined = undefined

  constructor(make: MakeBytes) {
    this.#make = make
  }

  /** Whether a page is a walk's: `READ_AHEAD_MIN` entries or more, asked for with the last large page's `next`. */
  isWalk(run: LoadedRun): boolean {
    return run.limit >= READ_AHEAD_MIN && run.cursor !== undefined && run.cursor === this.#lastNext
  }

  /** The bytes of entry `n` made ahead for this page, if they were and show what `run.nowIso` shows; else undefined. */
  made(run: LoadedRun, n: number): Uint8Array | undefined {
    const ahead = this.#ahead
    if (ahead === undefined || ahead.activation !== run.activation || ahead.idAt !== run.idAt) return undefined
    const i = n - ahead.from
    if (i < 0 || i >= ahead.made) return undefined
    const before = changesAfterOf(ahead.voided[i], ahead.results[i]!, run.activation, run.nowIso)
    return before === ahead.before[i] ? ahead.items[i] : undefined
  }

  /**
   * After a page of `run` that ends before position `after`: makes the page from `after` ahead when the
   * page was a walk's (see `isWalk`, asked before this), and notes its `next` for the next request.
   */
  afterPage(run: LoadedRun, after: number): void {
    if (run.limit < READ_AHEAD_MIN || after >= run.end) {
      this.#lastNext = undefined
      return
    }
    const walking = this.isWalk(run)
    this.#lastNext = run.idAt(after)
    if (!walking) return
    const current = ++this.#current
    const count = Math.min(run.end, after + run.limit) - after
    const { activation, idAt, nowIso } = run
    const page: AheadPage = {
      activation,
      idAt,
      from: after,
      made: 0,
      items: new Array<Uint8Array>(count),
      voided: new Array<string | undefined>(count),
      results: new Array<boolean>(count),
      before: new Array<boolean>(count),
    }
    this.#ahead = page
    const turn = () => {
      if (current !== this.#current) return
      const to = Math.min(count, page.made + READ_AHEAD_TURN)
      for (let i = page.made; i < to; i++) {
        const entry = run.itemAt(after + i, idAt(after + i))
        const before = entryChangesAfter(entry, activation, nowIso)
        page.items[i] = this.#make(entry, activation, nowIso, before)
        page.voided[i] = voidedIsoOf(entry)
        page.results[i] = showsResults(entry)
        page.before[i] = before
        page.made = i + 1
      }
      if (to < count) later(turn)
    }
    later(turn)
  }
}

/** Runs `work` after the requests already arrived (setImmediate where there is one, as in Node). */
function later(work: () => void): void {
  if (typeof setImmediate === 'function') setImmediate(work)
  else setTimeout(work, 0)
}
