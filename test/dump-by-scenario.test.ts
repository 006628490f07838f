/**
 * A world file too large to read whole is read back against the dump its head's scenario makes: over
 * small scenarios and seeds drawn at random (the limit lowered to nothing), a dump read back so and
 * dumped again is the same file, the emulator it makes answers as the one made of the parsed file does,
 * and a change of any one byte of its records, or a file cut short or made longer, is refused.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { storeOf } from './support/store-of.js'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createEmulator, type Emulator } from '../src/index.js'
import { createEmulatorOfDumpHead } from '../src/emulator/emulator.js'
import { readWorldFile } from '../src/node/world-file.js'
import { worldDumpChunks } from '../src/world/dump.js'
import { NOW_ISO, call } from './support/api.js'
import { plannedScenarios } from './support/planned-scenarios.js'
import { TEST_MS } from './support/timeouts.js'

const DAY = 86_400_000
const dir = mkdtempSync(join(tmpdir(), 'ae-dump-by-scenario-'))

/** The dump `activation-emulator dump` writes of an emulator, as text. */
const dumpOf = (emulator: Emulator) =>
  [...worldDumpChunks(storeOf(emulator), emulator.scenario, emulator.state() && emulator.clock.now())].join('')

describe('a dump read back against its scenario', () => {
  it(
    'is the same world, dumped again to the same bytes, and refused with any one byte of its records changed, cut or added',
    async () => {
      let run = 0
      await fc.assert(
        fc.asyncProperty(
          plannedScenarios,
          fc.integer({ min: -30, max: 30 }),
          fc.nat(),
          fc.integer({ min: 1, max: 255 }),
          async (scenario, days, place, flip) => {
            const now = new Date(Date.parse(NOW_ISO) + days * DAY).toISOString()
            const text = dumpOf(await createEmulator({ scenario, now }))
            const file = join(dir, `world-${run++}.json`)
            writeFileSync(file, text)

            const read = await readWorldFile(file, { wholeLimit: 0 })
            expect(read.head?.builtAt).toBe(now)
            const planned = await createEmulatorOfDumpHead(read.head!, {})
            expect(dumpOf(planned) === text, 'dumped again, the same bytes').toBe(true)
            // The emulator --data makes of the parsed file answers the same, with the same key and clock.
            const parsed = await createEmulator({ data: JSON.parse(text) })
            const key = scenario.accounts[0]!.apiKeys[0]!
            for (const path of ['/activations/list?limit=100', '/experience/participants?limit=100']) {
              const [a, b] = await Promise.all([call(planned, path, key), call(parsed, path, key)])
              expect(a.text, path).toBe(b.text)
            }
            expect(planned.state()).toEqual(parsed.state())

            const bytes = Buffer.from(text)
            const at = place % bytes.length
            bytes[at] = bytes[at]! ^ flip
            const changed = join(dir, `changed-${run}.json`)
            writeFileSync(changed, bytes)
            // Refused, or a head changed where it names no part of the world (served as it is).
            const readChanged = await readWorldFile(changed, { wholeLimit: 0 }).catch(() => undefined)
            if (readChanged) {
              expect(at, 'a byte of a record changed').toBeLessThan(text.indexOf('\n'))
              expect(dumpOf(await createEmulatorOfDumpHead(readChanged.head!, {})) === bytes.toString()).toBe(true)
            }
            // Cut short there (an empty file, under any limit, is read whole), or longer by the byte: refused too.
            writeFileSync(changed, Buffer.from(text).subarray(0, Math.max(1, at)))
            await expect(readWorldFile(changed, { wholeLimit: 0 }), `cut at byte ${at}`).rejects.toThrow()
            writeFileSync(changed, Buffer.concat([Buffer.from(text), bytes.subarray(at, at + 1)]))
            await expect(readWorldFile(changed, { wholeLimit: 0 }), 'one byte longer').rejects.toThrow()
          },
        ),
        { numRuns: 30, seed: 20261126 },
      )
    },
    TEST_MS.long,
  )

  it(
    'refuses a byte changed in any record, at the ends of the pieces compared too, and serves a head changed in its words as it is',
    async () => {
      const tiny = JSON.parse(readFileSync(new URL('./fixtures/tiny-scenario.json', import.meta.url), 'utf8'))
      const text = Buffer.from(dumpOf(await createEmulator({ scenario: tiny, now: NOW_ISO })))
      const headEnd = text.indexOf('\n')
      const file = join(dir, 'tiny-changed.json')
      const accepted: number[] = []
      // Every seventh byte, and every byte where a piece of either side may end (a line's, a list's).
      for (let at = 0; at < text.length; at++) {
        if (at % 7 !== 0 && !'\n[],'.includes(String.fromCharCode(text[at]!))) continue
        const bytes = Buffer.from(text)
        bytes[at] = bytes[at] === 0x20 ? 0x21 : 0x20
        writeFileSync(file, bytes)
        const read = await readWorldFile(file, { wholeLimit: 0 }).catch(() => undefined)
        if (!read) continue
        // A head changed where it names no part of the world (the scenario's description): the
        // changed file is what its scenario makes, and is served as it is.
        accepted.push(at)
        expect(dumpOf(await createEmulatorOfDumpHead(read.head!, {})) === bytes.toString()).toBe(true)
      }
      expect(accepted.every((at) => at < headEnd)).toBe(true)
      expect(accepted.length).toBeLessThan(headEnd)
    },
    TEST_MS.long,
  )
})
