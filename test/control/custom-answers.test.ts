/**
 * A fault rule's own answer (`answer: { status, headers, body }`), written once against the handle
 * every mode shares and run in the three modes: in-process (useEmulator), over HTTP on the built
 * command line (useServer), and in a sandbox of it (useSandbox). It reproduces a proxy's HTML 502, a
 * truncated 200, and an answer for the third page of a walk only; a bundle of such a run replays with
 * every answer identical.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { useEmulator, useSandbox, useServer, type EmulatorHandle, type FaultRuleInput } from '../../src/index.js'
import { requestsOf } from '../../src/emulator/bundle-journal.js'
import { replayBundle } from '../../src/node/replay/replay.js'
import { NOW_ISO as NOW } from '../support/api.js'
import { startCli, type CliServer } from '../support/cli.js'
import { TEST_MS } from '../support/timeouts.js'

const MODES = ['in-process', 'http', 'sandbox'] as const
const hooks = { beforeAll, beforeEach, afterEach, afterAll }
const HTML = '<html><head><title>502 Bad Gateway</title></head><body><center>nginx</center></body></html>\n'

/** The handle of a mode; the http and sandbox modes start the built command line (its request log on). */
function handleIn(mode: (typeof MODES)[number]): EmulatorHandle {
  if (mode === 'in-process') return useEmulator({ scenario: 'default', now: NOW }, hooks)
  let cli: CliServer | undefined
  beforeAll(async () => {
    cli = await startCli(['--scenario', 'default', '--now', NOW, '--port', '0'])
  }, TEST_MS.default)
  afterAll(async () => void (await cli?.stop()))
  const url = () => cli!.url
  return mode === 'http' ? useServer({ url }, hooks) : useSandbox({ url }, hooks)
}

type Answered = { status: number; type: string | null; text: string }

describe.each(MODES)('a fault rule answers as it is told (%s)', (mode) => {
  const api = handleIn(mode)
  const get = async (path: string, init: RequestInit = {}): Promise<Answered> => {
    const response = await fetch(`${api.baseUrl}${path}`, {
      ...init,
      headers: { Authorization: `Api-Key ${api.apiKey}` },
    })
    return { status: response.status, type: response.headers.get('content-type'), text: await response.text() }
  }

  /** Walks the activations 5 at a time; a page that is not a JSON page is asked again, as a client retries. */
  const walk = async (): Promise<Answered[]> => {
    const pages: Answered[] = []
    let next: string | null = ''
    for (let i = 0; i < 20 && next !== null; i++) {
      const page = await get(`/activations/list?limit=5${next ? `&next=${encodeURIComponent(next)}` : ''}`)
      pages.push(page)
      try {
        next = (JSON.parse(page.text) as { next: string | null }).next
      } catch {
        // Not a page: the same page is asked again.
      }
    }
    return pages
  }

  it("a proxy's 502: an HTML body with Content-Type: text/html, as given; the journal names the rule", async () => {
    const rule = await api.faults.add({
      endpoint: 'list',
      times: 1,
      answer: { status: 502, headers: { 'Content-Type': 'text/html', 'X-Served-By': 'edge 7' }, body: HTML },
    })
    expect(rule).toMatchObject({
      id: 'rule-1',
      endpoint: 'list',
      path: null,
      status: null,
      answer: { status: 502, headers: { 'Content-Type': 'text/html', 'X-Served-By': 'edge 7' }, body: HTML },
    })
    const response = await fetch(`${api.baseUrl}/activations/list`, {
      headers: { Authorization: `Api-Key ${api.apiKey}` },
    })
    expect(response.status).toBe(502)
    expect(response.headers.get('content-type')).toBe('text/html')
    expect(response.headers.get('x-served-by')).toBe('edge 7')
    // Over HTTP a browser's script may read the rule's own headers, as it reads the API's.
    if (mode !== 'in-process') {
      const exposed = response.headers.get('access-control-expose-headers')!.toLowerCase().split(/, */)
      expect(exposed).toEqual(expect.arrayContaining(['retry-after', 'x-served-by', 'content-type']))
    }
    expect(await response.text()).toBe(HTML)
    expect((await get('/activations/list?limit=1')).status).toBe(200)
    const [entry] = await api.requests()
    expect(entry).toMatchObject({
      status: 502,
      fault: 'rule-1',
      endpoint: 'list',
      headers: { 'Content-Type': 'text/html', 'X-Served-By': 'edge 7' },
    })
    expect(entry).not.toHaveProperty('error')
    expect((await api.faults.list())[0]).toMatchObject({ matched: 1, fired: 1, spent: true })
  })

  it('a truncated 200: the first half of the real page, no Content-Type; the journal holds no page of it', async () => {
    const whole = await get('/activations/list?limit=3')
    const half = whole.text.slice(0, Math.floor(whole.text.length / 2))
    await api.faults.add({ endpoint: 'list', times: 1, answer: { status: 200, body: half } })
    const cut = await get('/activations/list?limit=3')
    expect(cut).toEqual({ status: 200, type: null, text: half })
    expect(() => JSON.parse(cut.text) as unknown).toThrow(SyntaxError)
    const entries = await api.requests()
    expect(entries.map((e) => [e.status, e.fault, e.items, e.next])).toEqual([
      [200, null, 3, expect.any(String)],
      [200, 'rule-1', undefined, undefined],
    ])
    // An empty 200: no body at all, and its length says so.
    await api.faults.add({ endpoint: 'latest', times: 1, answer: { status: 200 } })
    expect(await get('/activations/latest')).toEqual({ status: 200, type: null, text: '' })
  })

  for (const match of [{ endpoint: 'list' }, { path: '/activations/list' }] as FaultRuleInput[]) {
    it(`the third page of a walk only (${JSON.stringify(match)}, after: 2, times: 1): pages 1, 2 and 4 on are the real ones`, async () => {
      const real = await walk()
      expect(real.length).toBeGreaterThan(5)
      await api.clearRequests()
      await api.faults.add({ ...match, after: 2, times: 1, answer: { status: 200, body: '{"activations":[' } })
      const faulted = await walk()
      expect(faulted[2]).toEqual({ status: 200, type: null, text: '{"activations":[' })
      expect([...faulted.slice(0, 2), ...faulted.slice(3)]).toEqual(real)
      const entries = await api.requests()
      expect(entries.map((e) => e.fault)).toEqual(faulted.map((_, i) => (i === 2 ? 'rule-1' : null)))
    })
  }

  it('a path with * matches one segment; another path, or the query, is not matched', async () => {
    const id = (JSON.parse((await get('/activations/list?limit=1')).text) as { activations: Array<{ id: string }> })
      .activations[0]!.id
    await api.faults.add({ path: '/activations/*', answer: { status: 504, headers: { 'Retry-After': '3' } } })
    expect(await get(`/activations/${id}?limit=1`)).toEqual({ status: 504, type: null, text: '' })
    expect((await get(`/activations/${id}/?limit=1`)).status).toBe(504)
    expect((await get('/experience/participants?limit=1')).status).toBe(200)
    await api.faults.clear()
    await api.faults.add({ path: '/activations/latest', answer: { status: 418, body: 'teapot' } })
    expect(await get('/activations/latest?limit=1&types[]=giveaway')).toEqual({
      status: 418,
      type: null,
      text: 'teapot',
    })
  })

  it('a bad answer is refused naming its field, and adds nothing', async () => {
    const refused = async (rule: unknown, message: string) => {
      await expect(api.faults.add(rule as FaultRuleInput)).rejects.toThrow(`Invalid fault rule: ${message}`)
    }
    await refused({ answer: { status: 600 } }, 'answer.status: must be an integer from 200 to 599')
    await refused({ answer: { status: 200, headers: { 'X Trace': 'a' } } }, 'answer.headers.X Trace: a header name is')
    await refused(
      { answer: { status: 200, headers: { 'Transfer-Encoding': 'chunked' } } },
      'answer.headers.Transfer-Encoding: the server writes Transfer-Encoding itself (it frames the answer on the connection)',
    )
    await refused(
      { answer: { status: 200 }, drop: 'body' },
      'a rule needs exactly one effect, status, delay, drop or answer',
    )
    await refused(
      { path: '/activation/list', answer: { status: 200 } },
      `path: "/activation/list" is none of the API's paths`,
    )
    expect(await api.faults.list()).toEqual([])
    // A rule without them lists both as null.
    await api.faults.add({ status: 503, times: 1 })
    expect(await api.faults.list()).toMatchObject([{ status: 503, answer: null, path: null }])
  })

  it('a bundle of a run with answer rules replays with every answer identical', async () => {
    await api.faults.add({
      endpoint: 'list',
      after: 1,
      times: 1,
      answer: { status: 502, headers: { 'Content-Type': 'text/html' }, body: HTML },
    })
    await api.faults.add({ path: '/activations/latest', times: 1, answer: { status: 200, body: '{"id":"' } })
    await walk()
    await get('/activations/latest')
    await get('/activations/latest')
    const bundle = await api.bundle()
    const requests = requestsOf(bundle.journal)
    expect(requests.map((r) => r.fault).filter(Boolean)).toEqual(['rule-1', 'rule-2'])
    const { first, sent } = await replayBundle(bundle)
    expect(first).toBeUndefined()
    expect(sent).toBe(requests.length)
    // The comparison reads the rule's body: a bundle whose rule answers another body differs there.
    const changed = JSON.parse(JSON.stringify(bundle)) as typeof bundle
    const added = changed.changes.list.find((c) => c.change === 'faultAdded')! as { rule: FaultRuleInput }
    added.rule.answer!.body = HTML.replace('nginx', 'envoy')
    const replayed = await replayBundle(changed)
    expect(replayed.first?.request.fault).toBe('rule-1')
    expect(replayed.first?.difference.what).toContain('its body differs')
    // And its headers: a bundle whose rule answers another Content-Type differs there.
    added.rule.answer = { status: 502, headers: { 'Content-Type': 'text/plain' }, body: HTML }
    const otherType = await replayBundle(changed)
    expect(otherType.first?.request.fault).toBe('rule-1')
    expect(otherType.first?.difference.what).toBe(
      'its headers was {"Content-Type":"text/html"} and is now {"Content-Type":"text/plain"}',
    )
  })
})
