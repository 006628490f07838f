import * as z from 'zod'
import { problemLines } from '../../contract/problems.js'
import { BUNDLE_FORMAT, type Bundle } from '../../emulator/bundle.js'
import { REQUEST_COLUMNS } from '../../emulator/bundle-journal.js'

// A bundle file as `replay` reads it: checked in its outline (what replay reads of it), each problem named.

/** A row: its request (`/path?query`, `HEAD /path`), its instant's step, real time, key and status; the rest optional. */
const rowSchema = z
  .tuple([
    z.string().regex(/^([A-Z]+ )?\//, 'must be a path, after its method and a space unless a GET'),
    z.number(),
    z.number(),
    z.number().int().min(0).nullable(),
    z.number().int(),
  ])
  .rest(z.unknown())

const journalSchema = z.object({
  complete: z.boolean(),
  firstSeq: z.number().int().min(1),
  startedAt: z.number(),
  from: z.iso.datetime(),
  columns: z.array(z.string()).refine((c) => c.join() === REQUEST_COLUMNS.join(), {
    message: `must be ${REQUEST_COLUMNS.join(', ')}`,
  }),
  keys: z.array(z.string()),
  rows: z.array(rowSchema),
  bodies: z.record(z.string(), z.string()),
})

const bundleSchema = z.looseObject({
  format: z.literal(BUNDLE_FORMAT),
  world: z.looseObject({ builtAt: z.iso.datetime(), scenario: z.looseObject({}) }),
  options: z.looseObject({}),
  changes: z.object({
    complete: z.boolean(),
    list: z.array(z.looseObject({ change: z.string(), afterSeq: z.number(), at: z.iso.datetime() })),
  }),
  journal: journalSchema,
  state: z.looseObject({ clock: z.looseObject({ now: z.iso.datetime() }) }),
})

/**
 * A bundle's text, parsed and checked: an Error naming the file and each problem when it is not a
 * bundle, or one whose changes were not all kept (it cannot stand the emulator where it stood).
 * @example const bundle = parseBundle(readFileSync('bundle.json', 'utf8'), 'bundle.json')
 */
export function parseBundle(text: string, source: string): Bundle {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw new Error(`${source} is not JSON: ${(error as Error).message}`, { cause: error })
  }
  // Another file, or a bundle of another version: said alone, not with every field it lacks.
  const format = typeof value === 'object' && value !== null ? (value as { format?: unknown }).format : undefined
  if (format !== BUNDLE_FORMAT) {
    throw new Error(
      `${source} is not a bundle: format must be "${BUNDLE_FORMAT}", got ${JSON.stringify(format) ?? 'none'}`,
    )
  }
  const result = bundleSchema.safeParse(value)
  if (!result.success) throw new Error(`${source} is not a bundle: ${problemLines(result.error.issues).join('; ')}`)
  const bundle = result.data as unknown as Bundle
  if (!bundle.changes.complete) {
    throw new Error(
      `${source} cannot be replayed: it kept only the last of its changes (more were made since the last reset than a bundle keeps)`,
    )
  }
  return bundle
}
