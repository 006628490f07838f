/**
 * A seed's world is a promise to users' snapshots (docs/world-stability.md): every built-in
 * scenario, at its own seed and a frozen instant, serves the pages and writes the dump pinned in
 * world-stability.hashes.json, endpoint by endpoint. A change that moves one fails here, naming the
 * scenario and the endpoint, until its author gives the worlds a new version on purpose:
 *
 *   UPDATE_WORLD_HASHES=<the next world version> npx vitest run test/world-stability.test.ts
 *
 * rewrites the file (refusing a version that is not the next one when a hash moved), and CHANGELOG.md
 * must then name that world version under the new major release.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { scenarios } from '../scenarios/index.js'
import { NOW_ISO } from './support/api.js'
import { TEST_MS } from './support/timeouts.js'
import { worldHashes } from './support/world-hashes.js'

// busy's walk (about 920 pages, every one of its 205,000 entries) is the longest.
vi.setConfig({ testTimeout: TEST_MS.long })

type Pinned = { worldVersion: number; now: string; scenarios: Record<string, Record<string, string>> }

const FILE = new URL('./world-stability.hashes.json', import.meta.url)
const pinned = JSON.parse(readFileSync(FILE, 'utf8')) as Pinned
const UPDATE = process.env['UPDATE_WORLD_HASHES']
const updated: Record<string, Record<string, string>> = {}
const moved: string[] = []

function howToUpdate(): string {
  const next = pinned.worldVersion + 1
  return (
    `If this change is meant to alter worlds, it needs a new major version: run ` +
    `UPDATE_WORLD_HASHES=${next} npx vitest run test/world-stability.test.ts, and add "World version ${next}" ` +
    `and what changed to CHANGELOG.md. Otherwise the change must leave every world byte-identical.`
  )
}

/** The parts whose hash differs; a part missing on either side counts. */
function movedParts(now: Record<string, string>, then: Record<string, string>): string[] {
  const parts = new Set([...Object.keys(now), ...Object.keys(then)])
  return [...parts].filter((part) => now[part] !== then[part])
}

describe(`every built-in scenario's world at ${pinned.now}, world version ${pinned.worldVersion}`, () => {
  it('pins the instant the endpoint tests use', () => {
    expect(pinned.now).toBe(NOW_ISO)
  })

  it.each(Object.keys(scenarios))('serves the pinned pages and dump of %s', async (scenario) => {
    const hashes = await worldHashes(scenario, pinned.now)
    const was = pinned.scenarios[scenario]
    if (UPDATE !== undefined) {
      updated[scenario] = hashes
      if (was) moved.push(...movedParts(hashes, was).map((part) => `${scenario}: ${part}`))
      return
    }
    if (!was) throw new Error(`${scenario} has no pinned hashes in test/world-stability.hashes.json. ${howToUpdate()}`)
    const parts = movedParts(hashes, was)
    if (parts.length > 0)
      throw new Error(`The world of ${scenario} moved: ${parts.join(', ')} (not the pinned hash). ${howToUpdate()}`)
  })

  it('pins no scenario that is not built in', () => {
    expect(Object.keys(pinned.scenarios).filter((name) => !(name in scenarios))).toEqual([])
  })

  it('names the pinned world version in CHANGELOG.md', () => {
    const changelog = readFileSync(new URL('../CHANGELOG.md', import.meta.url), 'utf8')
    expect(changelog).toContain(`World version ${pinned.worldVersion}`)
  })

  afterAll(() => {
    if (UPDATE === undefined) return
    const missing = Object.keys(scenarios).filter((name) => !(name in updated))
    if (missing.length > 0) throw new Error(`Not rewritten: run every scenario (${missing.join(', ')} did not run)`)
    const version = Number(UPDATE)
    const worldVersion = moved.length > 0 ? version : pinned.worldVersion
    if (moved.length > 0 && version !== pinned.worldVersion + 1)
      throw new Error(
        `Not rewritten: ${moved.join(', ')} moved, so UPDATE_WORLD_HASHES must be the next world version, ${pinned.worldVersion + 1}`,
      )
    const file: Pinned = { worldVersion, now: pinned.now, scenarios: updated }
    writeFileSync(FILE, `${JSON.stringify(file, null, 2)}\n`)
  })
})
