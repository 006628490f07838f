/**
 * `activation-emulator replay <bundle>` as a user runs it, over a bundle from a server started as a user
 * starts it (`GET /__emulator/bundle`): exit 0 when every answer is as recorded, 1 naming the first that
 * differs, and one line for a file that is not a bundle.
 */
import { createHash } from 'node:crypto'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli, startCli, type CliServer } from '../support/cli.js'
import { requestsOf, type RequestRow } from '../../src/emulator/bundle-journal.js'
import type { Bundle } from '../../src/emulator/bundle.js'

const NOW = '2026-06-01T12:00:00.000Z'
const dir = mkdtempSync(join(tmpdir(), 'ae-replay-'))
let cli: CliServer
let bundle: Bundle

beforeAll(async () => {
  cli = await startCli(['--scenario', 'default', '--now', NOW, '--rate-limit', '3'])
  const admin = `${new URL(cli.url).origin}/__emulator`
  const ask = (path: string) => fetch(`${cli.url}${path}`, { headers: { authorization: 'Api-Key demo-key' } })
  const list = (await (await ask('/activations/list?state=running&limit=2')).json()) as {
    activations: Array<{ id: string }>
  }
  const id = list.activations[0]!.id
  const post = (path: string, body: unknown) =>
    fetch(`${admin}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
  await post(`/activations/${id}/entries`, { count: 2 })
  await post('/faults', { endpoint: 'activation', times: 1, status: 500 })
  await ask(`/activations/${id}?limit=5`) // 500
  await ask(`/activations/${id}?limit=5`) // 200, with the 2 added entries
  await ask('/activations/list?limit=1') // 429
  await post('/clock', { advance: '1m' })
  await ask('/activations/list?limit=1') // 200
  await ask('/activations/list') // 200: the default limit
  bundle = (await (await fetch(`${admin}/bundle?bodies=10`)).json()) as typeof bundle
  writeFileSync(join(dir, 'bundle.json'), JSON.stringify(bundle))
})
afterAll(async () => {
  await cli?.stop()
})

describe('replay', () => {
  it('exits 0 when every answer is as recorded, and says how many it compared', async () => {
    expect(requestsOf(bundle.journal).map((r) => r.status)).toEqual([200, 500, 200, 429, 200, 200])
    const run = await runCli(['replay', join(dir, 'bundle.json')])
    expect(run.stderr).toBe('')
    expect(run.stdout).toBe(
      'replay: 6 request(s) replayed, every answer as recorded (status, error, items, headers and body)\n',
    )
    expect(run.code).toBe(0)
  })

  it('exits 1 naming the first request that differs and how', async () => {
    const changed = structuredClone(bundle)
    ;(changed.journal.rows[3] as Array<RequestRow[number]>)[4] = 200
    writeFileSync(join(dir, 'changed.json'), JSON.stringify(changed))
    const run = await runCli(['replay', join(dir, 'changed.json')])
    const { seq } = requestsOf(changed.journal)[3]!
    expect(run.stdout).toBe(
      `replay: request #${seq} GET /activations/list?limit=1 differs: its status was 200 and is now 429\n`,
    )
    expect(run.code).toBe(1)
  })

  it("exits 1 at the first answer the emulator now gives otherwise (a default limit changed), with the bodies' diff", async () => {
    // As a new version of the package that answered a list without `limit` with other pages would.
    const changed = structuredClone(bundle)
    changed.options = { ...changed.options, defaultLimits: { activations: 5 } }
    writeFileSync(join(dir, 'limit.json'), JSON.stringify(changed))
    const run = await runCli(['replay', join(dir, 'limit.json')])
    const { seq } = requestsOf(changed.journal)[5]!
    const lines = run.stdout.split('\n')
    expect(lines[0]).toMatch(
      new RegExp(`^replay: request #${seq} GET /activations/list differs: its items was \\d+ and is now 5$`),
    )
    expect(run.code).toBe(1)

    // Without the texts of the bodies: a body that changed is named by its hash, the new one shown.
    const noTexts = structuredClone(bundle)
    noTexts.journal.bodies = {}
    noTexts.options = { ...noTexts.options, order: { activations: 'oldest-first' } }
    writeFileSync(join(dir, 'order.json'), JSON.stringify(noTexts))
    const order = await runCli(['replay', join(dir, 'order.json')])
    expect(order.code).toBe(1)
    expect(order.stdout).toMatch(
      /^replay: request #\d+ GET \/activations\/list\S* differs: its body differs \(hash [0-9a-f]{16} recorded, [0-9a-f]{16} replayed\)/,
    )
    expect(order.stdout).toContain('\nreplayed body: {"activations":[')
  })

  it('--serve: after the replay, serves the world as it stood when the bundle was made, with the keys it names', async () => {
    const served = await startCli(['replay', join(dir, 'bundle.json'), '--serve'])
    try {
      expect(served.stdout()).toMatch(/^replay: 6 request\(s\) replayed, every answer as recorded/)
      expect(served.stdout()).toContain(', listening on http://127.0.0.1:')
      const admin = `${new URL(served.url).origin}/__emulator`
      const clock = (await (await fetch(`${admin}/clock`)).json()) as { now: string; frozen: boolean }
      expect(clock).toEqual({
        now: (bundle as unknown as { state: { clock: { now: string } } }).state.clock.now,
        frozen: true,
      })
      // The two entries the run added are there: the activation's page as the run's last read of it.
      const page = requestsOf(bundle.journal)[2]!
      const answer = await fetch(`${served.url}${page.path}?limit=5`, {
        headers: { authorization: 'Api-Key key:demo:1' },
      })
      expect(answer.status).toBe(200)
      expect(await answer.text()).toBe(bundle.journal.bodies[page.seq])
    } finally {
      expect((await served.stop('SIGINT')).code).toBe(0)
    }
  })

  it('refuses in one line a file that is missing, not JSON, or not a bundle', async () => {
    writeFileSync(join(dir, 'text.json'), 'hello')
    writeFileSync(join(dir, 'other.json'), '{"format":"something else"}')
    const missing = await runCli(['replay', join(dir, 'nope.json')])
    expect([missing.code, missing.stderr]).toEqual([
      1,
      `activation-emulator: Failed to read the bundle ${join(dir, 'nope.json')}: no such file\n`,
    ])
    const text = await runCli(['replay', join(dir, 'text.json')])
    expect(text.code).toBe(1)
    expect(text.stderr).toMatch(/^activation-emulator: \S+text\.json is not JSON: .+\n$/)
    const other = await runCli(['replay', join(dir, 'other.json')])
    expect(other.code).toBe(1)
    expect(other.stderr).toMatch(
      /^activation-emulator: \S+other\.json is not a bundle: format must be "activation-emulator\/bundle@1", got "something else"\n$/,
    )
    expect(other.stderr.split('\n').length).toBe(2)
  })
})

describe('replay over a world file', () => {
  it('checks the file it is given by the SHA-256 the bundle carries: the same file replays, another is refused in one line', async () => {
    const world = join(dir, 'world.json')
    const other = join(dir, 'other.json')
    expect((await runCli(['dump', '--scenario', 'default', '--now', NOW, '--out', world])).code).toBe(0)
    expect((await runCli(['dump', '--scenario', 'default', '--seed', '2', '--now', NOW, '--out', other])).code).toBe(0)
    const served = await startCli(['--data', world])
    let made: Bundle
    try {
      await fetch(`${served.url}/activations/list?limit=2`, { headers: { authorization: 'Api-Key demo-key' } })
      made = (await (await fetch(`${new URL(served.url).origin}/__emulator/bundle`)).json()) as Bundle
    } finally {
      await served.stop()
    }
    const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex')
    expect(made.world.data).toMatchObject({ sha256: sha256(world) })
    writeFileSync(join(dir, 'over-data.json'), JSON.stringify(made))
    const same = await runCli(['replay', join(dir, 'over-data.json'), '--data', world])
    expect([same.code, same.stderr]).toEqual([0, ''])
    const wrong = await runCli(['replay', join(dir, 'over-data.json'), '--data', other])
    expect([wrong.code, wrong.stderr]).toEqual([
      1,
      `activation-emulator: ${other} is not the world file the bundle ${join(dir, 'over-data.json')} was made over: its SHA-256 is ${sha256(other)}, the bundle's ${sha256(world)}\n`,
    ])
    const none = await runCli(['replay', join(dir, 'over-data.json')])
    expect(none.code).toBe(1)
    expect(none.stderr).toContain('was made over a world file: give it with --data FILE')
  })
})
