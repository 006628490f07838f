import {
  activationAt,
  activationChangesAfter,
  changesAfterOf,
  entryAt,
  entryChangesAfter,
  showsResults,
  voidedIsoOf,
} from '../src/contract/at-instant.js'
import type { StoredActivation, StoredEntry, StoredParticipant } from '../src/contract/stored-records.js'
import type { StoreIndex } from '../src/store/store-index.js'
import { ByteCache } from '../src/store/byte-cache.js'
import { entryJson } from './entry-json.js'
import { ReadAhead } from './read-ahead.js'
import { toActivation, toEntry, toParticipant } from './serialize.js'
import { utf8Bytes } from './utf8-bytes.js'

// Response bodies are put together from each record's JSON, kept as UTF-8 bytes until the record is
// replaced: @msw/data's update makes a new record object, so an updated record is serialized anew.
// (A record changed in place is not seen: change records through the collections.) A body is then
// one copy of those bytes, with no string to build and encode on every request.
// A record has at most one other face, shown while something about it is still to come (see
// src/contract/at-instant.ts): kept apart, so that moving the clock to and fro serializes each once.
// Module-level, yet in effect each emulator's: the keys are the records of one emulator's store, so
// their bytes live and go with them, and another emulator's records are other keys. (Bytes are a
// function of the record and its face alone, so even a record shared by two stores would be safe.)
const cache = new WeakMap<object, Uint8Array>()
const earlier = new WeakMap<object, Uint8Array>()
// Entries are many, and a planned world builds them as they are read, anew once it let them go: the
// JSON an emulator served is kept within a budget of bytes, in its `MadeBodies`, which its sandboxes
// share (see `EntryBytesKept`).
/**
 * The bytes of entries' JSON an emulator keeps unless told (`bodyCache`): the pages of a world the
 * size of `busy` served last, within its memory target (a full walk of busy at most 200 MB resident:
 * each kept byte costs about 1.3 in the process, by the byte arrays' own buffers); a larger world
 * keeps the pages it served last.
 */
export const BODY_CACHE_BYTES = 24 * 2 ** 20
// TextEncoder rather than Buffer: the handlers also run in a browser (under msw's setupWorker).
const utf8 = new TextEncoder()

/** The JSON of an activation as the API sends it at `nowIso`. */
export function activationBytes(activation: StoredActivation, nowIso: string): Uint8Array {
  const before = activationChangesAfter(activation, nowIso)
  const kept = before ? earlier : cache
  let bytes = kept.get(activation)
  if (bytes === undefined) {
    const shown = before ? activationAt(activation, nowIso) : activation
    kept.set(activation, (bytes = utf8.encode(JSON.stringify(toActivation(shown)))))
  }
  return bytes
}

/**
 * The JSON of an entry of an activation as the API sends it at `nowIso`. `asLoaded` says that the
 * entry is its world's as loaded, unchanged by the store serving it (`StoreIndex.isLoadedEntry`): such
 * an entry is the same for its id while its world stands, so its bytes are found again by id when a
 * planned world built it anew; any other entry's are found by the object.
 */
export function entryBytes(
  made: MadeBodies,
  entry: StoredEntry,
  activation: StoredActivation,
  nowIso: string,
  asLoaded = false,
): Uint8Array {
  const key = asLoaded ? entry.id : entry
  const held = made.entries.get(key)
  return madeEntryBytes(
    made,
    key,
    held !== undefined && held.activation === activation ? held : undefined,
    entry,
    activation,
    nowIso,
  )
}

/** The bytes of `entry` at `nowIso` from what is kept of it (`scoped`, for this activation), made and kept if they are not. */
function madeEntryBytes(
  made: MadeBodies,
  key: string | StoredEntry,
  scoped: EntryBytesKept | undefined,
  entry: StoredEntry,
  activation: StoredActivation,
  nowIso: string,
): Uint8Array {
  const before = entryChangesAfter(entry, activation, nowIso)
  let bytes = before ? scoped?.earlier : scoped?.now
  if (bytes === undefined) {
    bytes = unkeptEntryBytes(entry, activation, nowIso, before)
    made.entries.set(key, {
      activation,
      now: before ? scoped?.now : bytes,
      earlier: before ? bytes : scoped?.earlier,
      voidedIso: voidedIsoOf(entry),
      results: showsResults(entry),
    })
  }
  return bytes
}

/**
 * The JSON of an entry as shown at `nowIso` (`before`: whether something about it is still to come
 * then, `entryChangesAfter`), made now and not kept: a walk's pages (see `ReadAhead`).
 */
export function unkeptEntryBytes(
  entry: StoredEntry,
  activation: StoredActivation,
  nowIso: string,
  before: boolean,
): Uint8Array {
  const shown = before ? entryAt(entry, activation, nowIso) : entry
  const json = shown.recorded ? JSON.stringify(toEntry(shown, activation)) : entryJson(shown, activation.type)
  return utf8Bytes(json)
}

/**
 * The JSON of entry `id` of the world as loaded (as `entryBytes` with `asLoaded`), as shown at
 * `nowIso`: its kept bytes found by id without the entry, so that a planned world builds the entry
 * (`built(n, id)`, the entry at place `n` of its list) only for bytes it must make. One look-up either way.
 */
export function loadedEntryBytes(
  made: MadeBodies,
  id: string,
  activation: StoredActivation,
  nowIso: string,
  built: (n: number, id: string) => StoredEntry,
  n: number,
): Uint8Array {
  const held = made.entries.get(id)
  const scoped = held !== undefined && held.activation === activation ? held : undefined
  if (scoped !== undefined) {
    const bytes = changesAfterOf(scoped.voidedIso, scoped.results, activation, nowIso) ? scoped.earlier : scoped.now
    if (bytes !== undefined) return bytes
  }
  return madeEntryBytes(made, id, scoped, built(n, id), activation, nowIso)
}

/** The JSON of a participant at `nowIso`. Not kept: what they entered changes with every entry they add. */
export function participantBytes(participant: StoredParticipant, index: StoreIndex, nowIso: string): Uint8Array {
  return utf8.encode(JSON.stringify(toParticipant(participant, index, nowIso)))
}

const COMMA = 0x2c
const OPEN = 0x7b
const BRACKET = 0x5b

/** A body recently put together, with the pieces it was made of. */
type MadeBody = {
  head: string | readonly Uint8Array[]
  items: readonly Uint8Array[]
  next: string | null
  body: Uint8Array
}

// The bodies an emulator last put together, for a page asked for again: a body is a function of its
// pieces, which are each record's bytes (a new array when the record or its face changes), so the same
// pieces, by identity, give the same bytes. A few slots, taken in turn; bodies above a megabyte are not
// kept. Each emulator has its own (on its handler context), which its sandboxes share: one emulator's
// traffic never takes another's slots, and its bodies go with it rather than staying in the process
// for as long as it runs; a sandbox's go with its host, and its traffic takes no more room than the
// host's would.
const MADE_SLOTS = 16
const MADE_MAX_BYTES = 1 << 20

/**
 * An entry's JSON as shown now and as shown before something about it still to come (see
 * at-instant.ts), each made when first served, for the activation object it was made with: the bytes
 * depend on the activation too, and a change to it makes a new object. With what tells which one an
 * instant shows (`changesAfterOf`), so that they are found without the entry.
 */
type EntryBytesKept = {
  readonly activation: StoredActivation
  readonly now: Uint8Array | undefined
  readonly earlier: Uint8Array | undefined
  readonly voidedIso: string | undefined
  readonly results: boolean
}

// What an entry kept costs besides its bytes: the map's slot, the record above and a byte array's
// object and buffer (about 200 bytes in V8).
const KEPT_OVERHEAD = 200

function sizeOfKept(kept: EntryBytesKept): number {
  return KEPT_OVERHEAD + (kept.now?.length ?? 0) + (kept.earlier?.length ?? 0)
}

/** The list bodies one emulator put together last (see `listBody`). */
export class MadeBodies {
  readonly slots: Array<MadeBody | undefined> = new Array<MadeBody | undefined>(MADE_SLOTS).fill(undefined)
  nextSlot = 0
  /** The JSON of the entries served last (see `EntryBytesKept`), within `budget` bytes. */
  readonly entries: ByteCache<string | StoredEntry, EntryBytesKept>
  /** A walk's pages, made without keeping their entries, the next one ahead (see `ReadAhead`). */
  readonly readAhead = new ReadAhead(unkeptEntryBytes)

  constructor(budget = BODY_CACHE_BYTES) {
    this.entries = new ByteCache(budget, sizeOfKept)
  }

  /**
   * The `next` a body put together here was made with, and how many items it lists; undefined for a
   * body not kept (above a megabyte, or made long ago).
   */
  madeOf(body: Uint8Array): { readonly next: string | null; readonly items: readonly Uint8Array[] } | undefined {
    for (const slot of this.slots) if (slot !== undefined && slot.body === body) return slot
    return undefined
  }
}

/** Whether two lists hold the same byte arrays, by identity, in the same order. */
function samePieces(a: readonly Uint8Array[], b: readonly Uint8Array[]): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

function sameHead(a: string | readonly Uint8Array[], b: string | readonly Uint8Array[]): boolean {
  return typeof a === 'string' || typeof b === 'string' ? a === b : samePieces(a, b)
}

/**
 * A body `{<head>[items...],"next":<next>}`. `head` is what stands between the opening brace and the
 * list's bracket, such as `"activations":`, as text or as pieces of bytes. The same pieces as a body
 * made a moment ago by the same emulator (`made`, its context's `bodies`) give that body again: the
 * caller must not write into it.
 * @example listBody(ctx.bodies, '"activations":', page.items.map(activationBytes), page.next)
 */
export function listBody(
  made: MadeBodies,
  head: string | readonly Uint8Array[],
  items: readonly Uint8Array[],
  next: string | null,
): Uint8Array {
  const slots = made.slots
  for (let i = 0; i < MADE_SLOTS; i++) {
    const slot = slots[i]
    if (slot && slot.next === next && sameHead(slot.head, head) && samePieces(slot.items, items)) return slot.body
  }
  const body = joinBody(head, items, next)
  if (body.length <= MADE_MAX_BYTES) {
    slots[made.nextSlot] = { head, items, next, body }
    made.nextSlot = (made.nextSlot + 1) % MADE_SLOTS
  }
  return body
}

function joinBody(head: string | readonly Uint8Array[], items: readonly Uint8Array[], next: string | null): Uint8Array {
  // Copied once into a buffer of the exact length: no array of pieces to build, and so less garbage
  // per request for the collector to chase while other requests are in flight.
  const opening = typeof head === 'string' ? utf8.encode(`{${head}[`) : null
  const closing = utf8.encode(`],"next":${next === null ? 'null' : JSON.stringify(next)}}`)
  let length = (opening ? opening.length : 2) + closing.length + Math.max(0, items.length - 1)
  if (!opening) for (const piece of head as readonly Uint8Array[]) length += piece.length
  for (let i = 0; i < items.length; i++) length += (items[i] as Uint8Array).length
  const body = new Uint8Array(length)
  let at = 0
  if (opening) {
    body.set(opening, at)
    at += opening.length
  } else {
    body[at++] = OPEN
    for (const piece of head as readonly Uint8Array[]) {
      body.set(piece, at)
      at += piece.length
    }
    body[at++] = BRACKET
  }
  for (let i = 0; i < items.length; i++) {
    if (i > 0) body[at++] = COMMA
    const item = items[i] as Uint8Array
    body.set(item, at)
    at += item.length
  }
  body.set(closing, at)
  return body
}
