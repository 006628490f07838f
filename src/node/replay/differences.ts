import type { BundledRequest } from '../../emulator/bundle-journal.js'
import type { JournalEntry } from '../../emulator/journal.js'
import { bodyDifference } from '../../inspector/body-diff.js'

/** How a replayed answer differs from the one recorded: what differs, in one line, and the bodies when both are known. */
export type Difference = {
  what: string
  /** The body recorded and the body replayed, as text, when the bundle kept the recorded one. */
  bodies?: { recorded: string; replayed: string }
  /** The body replayed, when the bundle kept no text of the one recorded. */
  replayed?: string
}

const UTF8 = new TextDecoder()

/** A value as a short text: JSON, cut at 120 characters. */
const shown = (value: unknown): string => {
  const text = value === undefined ? 'none' : JSON.stringify(value)
  return text.length > 120 ? `${text.slice(0, 117)}...` : text
}

/** The first place (a JSON path) where two JSON values differ, and the two values there. */
function firstDifference(a: unknown, b: unknown, path = '$'): string | undefined {
  if (JSON.stringify(a) === JSON.stringify(b)) return undefined
  if (
    typeof a === 'object' &&
    a !== null &&
    typeof b === 'object' &&
    b !== null &&
    Array.isArray(a) === Array.isArray(b)
  ) {
    const keys = Array.isArray(a)
      ? Array.from({ length: Math.max(a.length, (b as unknown[]).length) }, (_, i) => String(i))
      : [...new Set([...Object.keys(a), ...Object.keys(b)])]
    for (const key of keys) {
      const at = Array.isArray(a) ? `${path}[${key}]` : `${path}.${key}`
      const inner = firstDifference((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key], at)
      if (inner) return inner
    }
  }
  return `${path}: recorded ${shown(a)}, replayed ${shown(b)}`
}

const parsed = (text: string): unknown => {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return text
  }
}

/**
 * How the replayed answer (its journal entry and bytes) differs from the recorded one; undefined when
 * they are the same: the status, the error's message, how many items, the headers the API added, and the body (with its `next`) by its
 * hash. `recordedText`: the recorded body's text, when the bundle kept it (then the two are diffed).
 */
export function answerDifference(
  recorded: BundledRequest,
  recordedText: string | undefined,
  replayed: JournalEntry | undefined,
  bytes: Uint8Array,
): Difference | undefined {
  if (!replayed) return { what: 'the request was not answered by the API' }
  const fields: Array<[string, unknown, unknown]> = [
    ['status', recorded.status, replayed.status],
    ['error', recorded.error, replayed.error],
    ['items', recorded.items, replayed.items],
    ['headers', recorded.headers, replayed.headers],
    ['body', recorded.bodyHash === undefined ? 'none' : 'some', replayed.bodyHash === undefined ? 'none' : 'some'],
  ]
  for (const [name, was, is] of fields) {
    if (JSON.stringify(was) !== JSON.stringify(is))
      return { what: `its ${name} was ${shown(was)} and is now ${shown(is)}` }
  }
  if (recorded.bodyHash === replayed.bodyHash) return undefined
  const text = UTF8.decode(bytes)
  if (recordedText === undefined) {
    return {
      what: `its body differs (hash ${recorded.bodyHash} recorded, ${replayed.bodyHash} replayed); the bundle kept no text of it to compare (make it with bodies)`,
      replayed: text,
    }
  }
  const was = parsed(recordedText)
  const is = parsed(text)
  const where = firstDifference(was, is)
  // The summary of the inspector's comparison: the top-level fields, and the ids of a list of records.
  const inWhat = /differs from the one answered in (.*)\.$/.exec(bodyDifference(was, is))?.[1]
  return {
    what: `its body differs${inWhat ? ` in ${inWhat}` : ''}${where ? `; first at ${where}` : ''}`,
    bodies: { recorded: recordedText, replayed: text },
  }
}
