import { toMillis } from '../contract/date-object.js'
import { accountList } from './accounts.js'
import { admin, view } from './api.js'
import { $, act, say } from './dom.js'
import { shortTime } from './format.js'
import { refreshView } from './tabs.js'

// The clock in the top bar: read from the admin API, run on between reads when it is not frozen.

let clock = { now: Date.now(), frozen: true, readAt: performance.now() }

/** The emulator's instant now, as last read and run on since. */
export function clockNow(): number {
  return clock.frozen ? clock.now : clock.now + (performance.now() - clock.readAt)
}

/** Writes the clock, its mode and its toggle's label. */
export function showClock(): void {
  $('#clock-now').textContent = shortTime(new Date(clockNow()).toISOString())
  $('#clock-mode').textContent = clock.frozen ? 'frozen' : 'running'
  $('#clock-toggle').textContent = clock.frozen ? 'Run' : 'Freeze'
}

/** Takes the admin API's clock (`GET /__emulator/clock`, or the `clock` of a state) and shows it. */
export function tookClock(answer: { now: string; frozen: boolean }): void {
  clock = { now: Date.parse(answer.now), frozen: answer.frozen, readAt: performance.now() }
  showClock()
}

/** Sets, advances, freezes or runs the clock (`POST /__emulator/clock`), then shows the world as it is then. */
async function moveClock(body: Record<string, unknown>, what: string): Promise<void> {
  tookClock(await admin('POST', '/clock', body))
  await refreshView()
  say(`Clock: ${what}; now ${shortTime(new Date(clock.now).toISOString())}`)
}

/** The first instant after now at which an activation starts (`start`) or a running one ends (`end`), over every account. */
async function nextInstant(kind: 'start' | 'end'): Promise<number | null> {
  const now = clockNow()
  let best = Infinity
  for (const account of accountList()) {
    let next: string | null = null
    do {
      const query = new URLSearchParams({ state: kind === 'start' ? 'not_started' : 'running', limit: '100' })
      if (next) query.set('next', next)
      const { status, body } = await view(account.name, '/activations/list', query)
      if (status !== 200) break
      for (const a of body.activations) {
        const at = toMillis(kind === 'start' ? a.startTime : a.endTime)
        if (at > now && at < best) best = at
      }
      next = body.next
    } while (next)
  }
  return best === Infinity ? null : best
}

/** The top bar's buttons: +1 h, +1 d, the next start or end, Freeze or Run, and Reset. */
export function wireClock(): void {
  for (const button of document.querySelectorAll<HTMLButtonElement>('[data-advance]')) {
    button.addEventListener('click', () =>
      act(() => moveClock({ advance: button.dataset['advance'] }, `advanced ${button.dataset['advance']}`)),
    )
  }
  for (const kind of ['start', 'end'] as const) {
    $(`#next-${kind}`).addEventListener('click', () =>
      act(async () => {
        const at = await nextInstant(kind)
        if (at === null)
          say(kind === 'start' ? 'No activation starts after now' : 'No running activation ends after now')
        else await moveClock({ set: new Date(at).toISOString() }, `set to the next ${kind}`)
      }),
    )
  }
  $('#clock-toggle').addEventListener('click', () =>
    act(() => moveClock({ freeze: !clock.frozen }, clock.frozen ? 'running' : 'frozen')),
  )
  $('#reset').addEventListener('click', () =>
    act(async () => {
      const state = await admin('POST', '/reset')
      tookClock(state.clock)
      await refreshView()
      say('Reset: the world, accounts, clock, fault rules and journal are back to the start')
    }),
  )
}
