import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import * as z from 'zod'
import { resolveScenario } from '../../src/world/resolve-scenario.js'
import { parseScenario, scenarioSchema } from '../../src/world/scenario.js'
import { readDocBlocks, ROOT } from '../support/doc-blocks.js'

// docs/scenario-reference.md lists every field of a scenario: this test walks the zod schema and
// holds the page to it, field by field, with whether it is required and its default.

const REFERENCE = 'docs/scenario-reference.md'
/** Fields the page documents that the schema does not hold: `extends` is read before the schema. */
const NOT_IN_SCHEMA = new Set(['extends'])

/** A field of the schema: its dotted path, whether it must be given, and its default when zod fills one. */
type SchemaField = { path: string; required: boolean; default?: unknown }

/** The schema's fields, nested objects (in arrays, unions, optionals and defaults) as dotted paths. */
function schemaFields(schema: z.ZodType, prefix = ''): SchemaField[] {
  const object = objectsIn(schema)
  return object.flatMap((o) =>
    Object.entries(o.shape as Record<string, z.ZodType>).flatMap(([key, field]) => {
      const path = prefix + key
      const own: SchemaField = { path, required: !field.safeParse(undefined).success }
      if (field instanceof z.ZodDefault) own.default = field.def.defaultValue
      return [own, ...schemaFields(field, `${path}.`)]
    }),
  )
}

/** The object schemas a field holds: itself, or inside its wrappers, its array or its union's options. */
function objectsIn(schema: z.ZodType): z.ZodObject[] {
  if (schema instanceof z.ZodObject) return [schema]
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodNullable || schema instanceof z.ZodDefault)
    return objectsIn(schema.def.innerType as z.ZodType)
  if (schema instanceof z.ZodArray) return objectsIn(schema.element as z.ZodType)
  if (schema instanceof z.ZodUnion) return (schema.options as z.ZodType[]).flatMap((o) => objectsIn(o))
  return []
}

/** A row of the page's field tables: its path (the first cell's code), and the cells as written. */
type Row = { path: string; required: string; default: string; line: number }

function referenceRows(text: string): Row[] {
  return text.split('\n').flatMap((line, i) => {
    const cells = /^\|\s*`([\w.]+)`\s*\|/.test(line) ? line.split('|').map((c) => c.trim()) : null
    if (!cells) return []
    return [{ path: cells[1]!.slice(1, -1), required: cells[2]!, default: cells[3]!, line: i + 1 }]
  })
}

const text = readFileSync(join(ROOT, REFERENCE), 'utf8')
const rows = referenceRows(text)
const byPath = new Map(rows.map((r) => [r.path, r]))
const fields = schemaFields(scenarioSchema)

describe('the scenario reference', () => {
  it('reads the schema: nested fields as dotted paths', () => {
    const paths = fields.map((f) => f.path)
    expect(paths).toContain('seed')
    expect(paths).toContain('accounts.activations.live.entriesPerHour')
    expect(paths).toContain('faults.latency.min')
    expect(paths).toContain('endpoints.defaultLimits.entries')
  })

  it('lists every field of the schema', () => {
    const missing = fields.map((f) => f.path).filter((path) => !byPath.has(path))
    expect(missing, `fields missing from ${REFERENCE}`).toEqual([])
  })

  it('lists no field the schema does not have', () => {
    const known = new Set(fields.map((f) => f.path))
    const unknown = rows.filter((r) => !known.has(r.path) && !NOT_IN_SCHEMA.has(r.path)).map((r) => r.path)
    expect(unknown, `rows of ${REFERENCE} that are no field of the schema`).toEqual([])
  })

  it('lists each field once', () => {
    expect(rows.length).toBe(byPath.size)
  })

  it('says which fields are required, as the schema does', () => {
    for (const field of fields) {
      const row = byPath.get(field.path)
      if (!row) continue
      const says = row.required.startsWith('yes')
      expect(says, `${REFERENCE}:${row.line}: is ${field.path} required?`).toBe(field.required)
    }
  })

  it('gives the default zod fills in, as written in the schema', () => {
    for (const field of fields) {
      const row = byPath.get(field.path)
      if (!row || !('default' in field)) continue
      expect(row.default, `${REFERENCE}:${row.line}: the default of ${field.path}`).toContain(
        `\`${JSON.stringify(field.default)}\``,
      )
    }
  })

  it("says seed may be left out: 0 without extends, the base's with it", () => {
    expect(byPath.get('seed')!.required).toBe('no')
    const extension = { extends: 'default', name: 'no-seed', description: 'default, without a seed of its own' }
    expect(resolveScenario(extension).seed).toBe(resolveScenario('default').seed)
    const { seed: _seed, ...withoutSeed } = resolveScenario('default')
    expect(parseScenario(withoutSeed)).toEqual({ ...resolveScenario('default'), seed: 0 })
  })

  it('shows scenarios that load', () => {
    const examples = readDocBlocks(REFERENCE, text).filter((b) => b.lang === 'json')
    expect(examples.length).toBeGreaterThan(0)
    for (const example of examples) expect(() => resolveScenario(JSON.parse(example.source))).not.toThrow()
  })
})
