import type { JournalEntry } from './journal.js'

// A bundle's journal: its requests as rows of a table, small enough that a test's thousand requests
// fit in a CI artifact of a few tens of kilobytes, and read back as objects by `requestsOf`. A row is
// an array of the columns below in that order; its trailing empty columns are left off.

/** The columns of a row, in order; what each holds is said on `BundledRequest`. */
export const REQUEST_COLUMNS = [
  'request',
  'at',
  'realMs',
  'key',
  'status',
  'durationMs',
  'bodyHash',
  'items',
  'retryInSeconds',
  'fault',
  'error',
  'cut',
  'headers',
] as const

/** One row: see REQUEST_COLUMNS. */
export type RequestRow = ReadonlyArray<string | number | null | readonly string[] | Readonly<Record<string, string>>>

/** A request of the bundle, read from its row. */
export type BundledRequest = {
  /** Its place in the journal of the emulator it was made in. */
  seq: number
  /** When it arrived, on the emulator's clock (ISO). */
  at: string
  /** When it arrived in real time: milliseconds after the bundle's first request. */
  realMs: number
  method: string
  /** The path under the base URL, and its query as a query string (`''` for none). */
  path: string
  search: string
  /** The name of its key (`key:<account>:<n>`, `key:unknown:<n>`), or null without one. */
  key: string | null
  status: number
  /** Milliseconds from arrival to the answer, rounded. */
  durationMs: number
  /** A 200's body, hashed (see body-hash.ts). */
  bodyHash?: string
  /** A list page's count of items (its `next` is in its body, compared by the hash). */
  items?: number
  retryInSeconds?: number
  fault: string | null
  error?: string
  /** Fields the journal kept shortened: a request whose path or query was cut cannot be compared. */
  cut?: readonly string[]
  /** The headers the answer carried beside its content type (the rate limit's, with `rateLimitHeaders`). */
  headers?: Readonly<Record<string, string>>
}

/** The journal of a bundle: where its rows start, the key names they point to, and the rows. */
export type BundleJournal = {
  /** Whether it begins with the first request since the start or the last reset (none dropped or cleared). */
  complete: boolean
  /** The `seq` of the first row (the others follow one by one), and its real time (ms since the epoch). */
  firstSeq: number
  startedAt: number
  /**
   * The clock's instant the first row's `at` counts from: a row's `at` and `realMs` are milliseconds
   * after the row before's (the first's real time is `startedAt`).
   */
  from: string
  columns: typeof REQUEST_COLUMNS
  /** The key names the rows' `key` column points to (a place in this list). */
  keys: string[]
  rows: RequestRow[]
  /** The texts of the last bodies asked for (`bodies`), by `seq`, while the journal kept them. */
  bodies: Record<string, string>
}

/** The request as a row's text: its path and query string, after its method and a space unless it is a GET. */
function requestText(entry: JournalEntry): string {
  const query = new URLSearchParams()
  for (const [name, values] of Object.entries(entry.query)) for (const value of values) query.append(name, value)
  const search = query.toString()
  return `${entry.method === 'GET' ? '' : `${entry.method} `}${entry.path}${search ? `?${search}` : ''}`
}

/**
 * The journal's entries as a bundle's rows; `nameOf` names each key, `from` is the world's instant
 * before the first, `bodies` the texts kept by `seq`.
 * @example const journal = journalRows(entries, (key) => names.name(key), builtAt, true, {})
 */
export function journalRows(
  entries: readonly JournalEntry[],
  nameOf: (key: string) => string,
  from: string,
  complete: boolean,
  bodies: Record<string, string>,
): BundleJournal {
  const keys: string[] = []
  const keyPlace = new Map<string, number>()
  const rows: RequestRow[] = []
  const startedAt = entries[0]?.realAt ?? 0
  let before = Date.parse(from)
  let realBefore = startedAt
  for (const entry of entries) {
    let key: number | null = null
    if (entry.key !== null) {
      const name = nameOf(entry.key)
      key = keyPlace.get(name) ?? null
      if (key === null) keyPlace.set(name, (key = keys.push(name) - 1))
    }
    const at = Date.parse(entry.at)
    const row: Array<RequestRow[number]> = [
      requestText(entry),
      at - before,
      entry.realAt - realBefore,
      key,
      entry.status,
      Math.round(entry.durationMs),
      entry.bodyHash ?? null,
      entry.items ?? null,
      entry.retryInSeconds ?? null,
      entry.fault,
      entry.error ?? null,
      entry.cut ?? null,
      entry.headers ?? null,
    ]
    while (row.length && row[row.length - 1] === null) row.pop()
    rows.push(row)
    before = at
    realBefore = entry.realAt
  }
  return { complete, firstSeq: entries[0]?.seq ?? 1, startedAt, from, columns: REQUEST_COLUMNS, keys, rows, bodies }
}

/** A column's value as a string, or undefined when the row has none there. */
const text = (row: RequestRow, column: number): string | undefined => {
  const value = row[column]
  return typeof value === 'string' ? value : undefined
}
const number = (row: RequestRow, column: number): number | undefined => {
  const value = row[column]
  return typeof value === 'number' ? value : undefined
}

/**
 * The requests of a bundle's journal, read from its rows.
 * @example for (const request of requestsOf(bundle.journal)) send(request)
 */
export function requestsOf(journal: BundleJournal): BundledRequest[] {
  let at = Date.parse(journal.from)
  let realMs = 0
  return journal.rows.map((row, i) => {
    const target = text(row, 0) ?? ''
    // A GET's is its path alone: a path begins with a slash, and no method does.
    const space = target.startsWith('/') ? -1 : target.indexOf(' ')
    const url = target.slice(space + 1)
    const mark = url.indexOf('?')
    at += number(row, 1) ?? 0
    realMs += number(row, 2) ?? 0
    const key = number(row, 3)
    const cut = row[11]
    const headers = row[12]
    const request: BundledRequest = {
      seq: journal.firstSeq + i,
      at: new Date(at).toISOString(),
      realMs,
      method: space < 0 ? 'GET' : target.slice(0, space),
      path: mark < 0 ? url : url.slice(0, mark),
      search: mark < 0 ? '' : url.slice(mark + 1),
      key: key === undefined ? null : (journal.keys[key] ?? null),
      status: number(row, 4) ?? 0,
      durationMs: number(row, 5) ?? 0,
      fault: text(row, 9) ?? null,
    }
    const optional: Partial<BundledRequest> = {
      bodyHash: text(row, 6),
      items: number(row, 7),
      retryInSeconds: number(row, 8),
      error: text(row, 10),
      cut: Array.isArray(cut) ? (cut as string[]) : undefined,
      headers:
        typeof headers === 'object' && headers !== null && !Array.isArray(headers)
          ? (headers as Record<string, string>)
          : undefined,
    }
    for (const [name, value] of Object.entries(optional))
      if (value !== undefined) Object.assign(request, { [name]: value })
    return request
  })
}
