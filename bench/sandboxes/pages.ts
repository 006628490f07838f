// A list read page by page, following `next`: what the in-process reads and the HTTP clients walk.

/** One list to walk, from its first page: its path and what kind of list it is (for the figures by kind). */
export type Walk = { kind: string; path: string }

/** Pages walked of each list at most (its first pages, following `next`). */
export const MOST_PAGES = 25

/** The `next` of a list body (`...],"next":"<id>"}` or `...],"next":null}`), read from its last characters. */
export function nextOf(tail: string): string | null {
  const m = /"next":(?:null|"([^"]+)")\}\s*$/.exec(tail)
  if (!m) throw new Error(`Failed to read next from a body ending ${JSON.stringify(tail.slice(-60))}`)
  return m[1] ?? null
}

export const withNext = (path: string, next: string | null) => (next === null ? path : `${path}&next=${next}`)
