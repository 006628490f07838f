import type { Faker, Randomizer } from '@faker-js/faker'
import { AddressTables } from './address-tables.js'
import { withCompiledPatterns } from './fake-patterns.js'
import { NameTables } from './name-tables.js'

// Faker is loaded when a Faker is first made, not with the package: an emulator whose world comes from
// the cache (or a dump) never needs it, and it is half the package's code. In Node it is then loaded
// with a synchronous `require`; where there is none that loads it (a browser, Jest's own module
// registry when Faker is an ES module), `createEmulator` loads it first (`fakerLoadsWhenNeeded`).
// Its English-only entry: the main one loads every locale. Run from its source, this module loads the
// installed Faker (an ES module, which `require` loads since Node 20.19); in the built package, which
// installs no Faker, the one copy bundled as CommonJS beside the entries and their chunks (faker-en.cjs,
// what the build makes of the `import()` in loadFaker).
const FAKER_ENGLISH = /\/random\.[jt]s$/.test(import.meta.url) ? '@faker-js/faker/locale/en' : './faker-en.cjs'
let english: Faker | undefined

type Require = (id: string) => unknown

/** A `require` for this module's folder, where the runtime offers Node's `node:module`. */
function nodeRequire(): Require | undefined {
  type NodeModule = { createRequire(from: string): Require }
  const process = (globalThis as { process?: { getBuiltinModule?: (id: string) => NodeModule | undefined } }).process
  return process?.getBuiltinModule?.('node:module')?.createRequire(import.meta.url)
}

let requiresEsm: boolean | undefined

/**
 * Whether Faker can be loaded the moment it is needed: whether `require` loads an ES module here,
 * tried on an empty one of this package's own (`esm-probe.js`, beside this module once built, or in
 * `time/` beside the package's bundled `index.js` when this module is part of it).
 */
export function fakerLoadsWhenNeeded(): boolean {
  if (english) return true
  if (requiresEsm === undefined) {
    const require = nodeRequire()
    try {
      require?.(/\/random\.[jt]s$/.test(import.meta.url) ? './esm-probe.js' : './time/esm-probe.js')
      requiresEsm = require !== undefined
    } catch {
      requiresEsm = false
    }
  }
  return requiresEsm
}

/** Loads Faker now, for a runtime where it cannot be loaded when needed (see `fakerLoadsWhenNeeded`). */
export async function loadFaker(): Promise<void> {
  // The bundled CommonJS file, imported as an ES module, may name its exports only on its default.
  const loaded = (await import('@faker-js/faker/locale/en')) as { faker?: Faker; default?: { faker?: Faker } }
  const faker = loaded.faker ?? loaded.default?.faker
  if (!faker) throw new Error('Failed to load Faker: its English entry exports no faker')
  english ??= faker
}

/** Faker's English instance: its class, and the English locale merged with the base one, make ours. */
function englishFaker(): Faker {
  if (english) return english
  const require = nodeRequire()
  if (!require) throw new Error('Failed to make a Faker: Faker is not loaded (await loadFaker() first)')
  return (english = (require(FAKER_ENGLISH) as { faker: Faker }).faker)
}

/**
 * A 32-bit seed derived from a world seed and a position ("account", "giveaway/running", 3, ...).
 * Each activation and each person is generated from the seed of its own position, so growing one
 * part of a scenario leaves every other part byte-identical.
 * @example deriveSeed(42, 'acme', 'activation', 'giveaway/running', 0)
 */
export function deriveSeed(...parts: ReadonlyArray<string | number>): number {
  return finalMix(seedStem(...parts))
}

/**
 * What `deriveSeed` hashes of `parts` before its finaliser: FNV-1a over each part's text
 * `${typeof part}:${part}\u0000`, hashed without building that text. Seeds whose first parts are the
 * same (a pool's people) continue from it with `deriveSeedAfter`.
 * @example deriveSeedAfter(seedStem(42, 'acme', 'person'), 17) === deriveSeed(42, 'acme', 'person', 17)
 */
export function seedStem(...parts: ReadonlyArray<string | number>): number {
  let h = 0x811c9dc5
  for (let p = 0; p < parts.length; p++) h = hashPart(h, parts[p]!)
  return h
}

/** `deriveSeed(...parts, last)` where `stem` is `seedStem(...parts)`: only `last` is hashed. */
export function deriveSeedAfter(stem: number, last: string | number): number {
  return finalMix(hashPart(stem, last))
}

/** FNV-1a's state `h` after the text `${typeof part}:${part}\u0000`. */
function hashPart(h: number, part: string | number): number {
  const text = typeof part === 'string' ? part : String(part)
  const prefix = typeof part === 'string' ? 'string:' : 'number:'
  for (let i = 0; i < prefix.length; i++) h = Math.imul(h ^ prefix.charCodeAt(i), 0x01000193)
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193)
  return Math.imul(h, 0x01000193) // ^ 0, the terminating NUL
}

/** murmur3's finaliser: spreads a 32-bit hash's bits over the whole word (a bijection). */
export function finalMix(h: number): number {
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  h ^= h >>> 16
  return h >>> 0
}

/**
 * Plain random numbers, without Faker: what the helpers that draw only numbers need. A SeededFaker is
 * one; so is `createDraws()`, which costs no Faker at all (an entry skeleton is drawn from one).
 */
export type Draws = { readonly randomizer: Pick<Randomizer, 'next' | 'seed'> }

/**
 * A source of plain random numbers seeded with `seed`: the randomizer a Faker of `createFaker` draws
 * from, alone. Reseed it with `draws.randomizer.seed(n)`.
 * @example const draws = createDraws(deriveSeed(42, 'acme', 'skeleton', 'giveaway/running', 0))
 */
export function createDraws(seed: number): Draws {
  const randomizer = createRandomizer()
  randomizer.seed(seed)
  return { randomizer }
}

/**
 * What a factory draws from: a Faker for names and words, and its `randomizer`, from which the
 * factories' helpers draw plain numbers (faker.number.int costs several times the draw itself).
 */
export type SeededFaker = Faker & {
  readonly randomizer: Randomizer
  /** Its locale's person names as tables, read at first use; undefined where Faker must draw them itself. */
  readonly names: NameTables | undefined
  /** Its locale's addresses as tables, read at first use; undefined where Faker must draw them itself. */
  readonly addresses: AddressTables | undefined
}

/**
 * A Faker instance of its own (English locale, the fast randomizer below), whose reference date is fixed, for factories to use
 * after `faker.seed(...)`. Never the global `faker`: its state is shared with whoever imports it.
 * @example const faker = createFaker(Date.parse('2026-06-01T12:00:00.000Z'))
 */
export function createFaker(referenceDate: number): SeededFaker {
  const randomizer = createRandomizer()
  const loaded = englishFaker()
  const FakerClass = loaded.constructor as new (options: { locale: unknown; randomizer: Randomizer }) => Faker
  const faker = withCompiledPatterns(
    Object.assign(new FakerClass({ locale: loaded.rawDefinitions, randomizer }), { randomizer }),
  )
  faker.setDefaultRefDate(referenceDate)
  let names: NameTables | undefined | null = null
  let addresses: AddressTables | undefined | null = null
  return Object.defineProperties(faker, {
    names: { get: () => (names === null ? (names = NameTables.of(faker)) : names) },
    addresses: {
      get: () => (addresses === null ? (addresses = AddressTables.of(faker, (faker as SeededFaker).names)) : addresses),
    },
  }) as SeededFaker
}

/** A world's two Fakers, one for records and one for people, each made at its first use (which loads Faker). */
export class WorldFakers {
  readonly #referenceDate: number
  #records: SeededFaker | undefined
  #people: SeededFaker | undefined

  constructor(referenceDate: number) {
    this.#referenceDate = referenceDate
  }

  get records(): SeededFaker {
    return (this.#records ??= createFaker(this.#referenceDate))
  }

  get people(): SeededFaker {
    return (this.#people ??= createFaker(this.#referenceDate))
  }
}

/** sfc32, seeded through splitmix32: cheap to reseed, which a world does once per activation, person and participant. */
function createRandomizer(): Randomizer {
  let a = 0
  let b = 0
  let c = 0
  let d = 0
  const next32 = (): number => {
    const t = (((a + b) | 0) + d) | 0
    d = (d + 1) | 0
    a = b ^ (b >>> 9)
    b = (c + (c << 3)) | 0
    c = (c << 21) | (c >>> 11)
    c = (c + t) | 0
    return t >>> 0
  }
  // splitmix32's state while seeding; a closure made once, not one per seed(), which runs ~100,000 times a world.
  let state = 0
  const splitmix = (): number => {
    state = (state + 0x9e3779b9) | 0
    let z = state
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b)
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35)
    return (z ^ (z >>> 16)) >>> 0
  }
  const randomizer: Randomizer = {
    // 53 random bits, as faker's own randomizer gives.
    next: () => ((next32() >>> 5) * 67108864 + (next32() >>> 6)) / 9007199254740992,
    seed(seed) {
      state = Array.isArray(seed) ? deriveSeed(...seed) : seed >>> 0
      let sa = splitmix()
      let sb = splitmix()
      let sc = splitmix()
      let sd = splitmix()
      // next32's 12 first draws, thrown away, on locals (a reseed per entry and per person; the closure's state written once).
      for (let i = 0; i < 12; i++) {
        const t = (((sa + sb) | 0) + sd) | 0
        sd = (sd + 1) | 0
        sa = sb ^ (sb >>> 9)
        sb = (sc + (sc << 3)) | 0
        sc = (sc << 21) | (sc >>> 11)
        sc = (sc + t) | 0
      }
      a = sa
      b = sb
      c = sc
      d = sd
    },
  }
  randomizer.seed(0)
  return randomizer
}
