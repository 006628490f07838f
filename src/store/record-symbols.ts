import { Collection } from '@msw/data'

/** The two symbols @msw/data puts on every record: its primary key and its relation map. */
export type RecordSymbols = { primaryKey: symbol; relationMap: symbol }

let symbols: Promise<RecordSymbols> | undefined

/**
 * Reads @msw/data's record symbols off a record it creates. @msw/data does not export them, and the
 * store needs them to key its indexes by record identity (an update replaces the record object) and
 * to load a large world without a clone and a validation per record.
 */
export function recordSymbols(): Promise<RecordSymbols> {
  symbols ??= (async () => {
    const probe = new Collection({
      schema: { '~standard': { version: 1, vendor: 'activation-emulator', validate: (value: unknown) => ({ value }) } },
    })
    const record = await probe.create({})
    const found = Object.getOwnPropertySymbols(record)
    const primaryKey = found.find((s) => s.description === 'kPrimaryKey')
    const relationMap = found.find((s) => s.description === 'kRelationMap')
    if (!primaryKey || !relationMap) {
      throw new Error('Failed to read the record symbols of @msw/data: this version of @msw/data is not supported')
    }
    return { primaryKey, relationMap }
  })()
  return symbols
}
