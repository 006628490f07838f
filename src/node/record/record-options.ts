import { LIMIT_MAX } from '../../contract/responses.js'
import type { RemoteClient } from '../remote/client.js'

/** The `limit` each list is read with. */
export type RecordLimits = { activations: number; entries: number; participants: number }

/** The limits a recording uses by default: the maxima the spec allows. */
export const DEFAULT_RECORD_LIMITS: RecordLimits = { ...LIMIT_MAX }

/** Where a recording is, told after every page. */
export type RecordProgress = {
  /** Pages recorded, those of a resumed checkpoint included. */
  pages: number
  /** Activations, entries and participants recorded (the filters' pages not counted). */
  records: number
  /** Records per second in this run. */
  rate: number
  /** Activations listed so far, and those whose every list is recorded, over all accounts. */
  activations: { listed: number; done: number }
  /** The account being recorded (from 1) and how many there are. */
  account: number
  accounts: number
}

/** What recordAccounts needs. */
export type RecordOptions = {
  client: RemoteClient
  /** One account per key, recorded in this order. */
  apiKeys: string[]
  limits?: RecordLimits
  /** The checkpoint file's path. */
  checkpoint: string
  /** Go on with the checkpoint if it exists (it must have been made for the same URL, keys and limits). */
  resume?: boolean
  /** Delete the checkpoint if it exists, and record afresh (not with `resume`). */
  restart?: boolean
  /** Stops the recording (Ctrl-C), its requests in flight and its waits: recordAccounts then rejects with a RecordInterruptedError. */
  signal?: AbortSignal
  onProgress?: (progress: RecordProgress) => void
}

/**
 * Checks a recording's options before anything is asked (each limit within the spec's, a key at least,
 * not both resume and restart). Returns the limits to read with.
 */
export function checkRecordOptions(options: RecordOptions): RecordLimits {
  const limits = options.limits ?? DEFAULT_RECORD_LIMITS
  for (const name of Object.keys(LIMIT_MAX) as Array<keyof RecordLimits>) {
    const value = limits[name]
    const max = LIMIT_MAX[name]
    if (!Number.isInteger(value) || value < 1 || value > max) {
      throw new Error(`The ${name} limit must be a whole number from 1 to ${max}, got ${value}`)
    }
  }
  if (options.apiKeys.length === 0) throw new Error('At least one API key is needed to record')
  if (options.resume && options.restart) throw new Error('Resume or restart a recording, not both')
  return limits
}
