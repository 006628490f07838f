import { admin, type Json } from './api.js'
import { $, act, cell, el, say } from './dom.js'

// The fault rules' tab: the rules with what they matched and fired, a form to add one, Remove buttons.

/** Reads the fault rules (`GET /__emulator/faults`) and shows them. */
export async function loadFaults(): Promise<void> {
  const { faults } = await admin('GET', '/faults')
  $('#faults').replaceChildren(...faults.map(faultRow))
}

/** A rule's row: the admin API's rule (src/fault-rules.ts's FaultRule), where what it does not have is null. */
function faultRow(f: Json): HTMLElement {
  const remove = el('button', { type: 'button', 'aria-label': `Remove the rule ${f.id}` }, 'Remove')
  remove.addEventListener('click', () =>
    act(async () => {
      await admin('DELETE', `/faults/${encodeURIComponent(f.id)}`)
      await loadFaults()
      say(`Removed the rule ${f.id}`)
    }),
  )
  const appliesTo = [f.endpoint, f.path ?? '', f.key !== null ? `key ${f.key}` : '', f.after ? `after ${f.after}` : '']
    .filter(Boolean)
    .join(', ')
  const effect =
    f.status !== null
      ? `status ${f.status}${f.error !== null ? ` "${f.error}"` : ''}`
      : f.drop !== null
        ? `drop ${f.drop}`
        : f.answer
          ? `answer ${f.answer.status} (${f.answer.body.length} characters)`
          : `delay ${f.delay.min === f.delay.max ? f.delay.min : `${f.delay.min} to ${f.delay.max}`} ms`
  const often =
    [
      f.times === null ? '' : f.times === 1 ? 'once' : `${f.times} times`,
      f.probability === null ? '' : `p ${f.probability}`,
    ]
      .filter(Boolean)
      .join(', ') || 'every time'
  return el(
    'tr',
    { 'data-rule': f.id },
    cell(f.id),
    cell(appliesTo),
    cell(effect),
    cell(f.spent ? `${often} (spent)` : often),
    cell(f.matched),
    cell(f.fired),
    el('td', {}, remove),
  )
}

/** The rule the form describes, as `POST /__emulator/faults` takes it. */
function ruleOfForm(form: HTMLFormElement): Record<string, unknown> {
  const value = (name: string) => (form.elements.namedItem(name) as HTMLInputElement).value.trim()
  const rule: Record<string, unknown> = { endpoint: value('endpoint') }
  if (value('key')) rule['key'] = value('key')
  if (value('after')) rule['after'] = Number(value('after'))
  const effect = value('effect')
  if (effect === 'status') {
    rule['status'] = Number(value('status'))
    if (value('error')) rule['error'] = value('error')
  } else if (effect === 'delay') rule['delay'] = /^\d+$/.test(value('delay')) ? Number(value('delay')) : value('delay')
  else rule['drop'] = value('drop')
  if (value('times')) rule['times'] = Number(value('times'))
  if (value('probability')) rule['probability'] = Number(value('probability'))
  return rule
}

/** The form that adds a rule, and the button that removes every rule. */
export function wireFaults(): void {
  $('#fault-form').addEventListener('submit', (event) => {
    event.preventDefault()
    act(async () => {
      const rule = await admin('POST', '/faults', ruleOfForm(event.target as HTMLFormElement))
      await loadFaults()
      say(`Added the rule ${rule.id}`)
    })
  })
  $('#faults-clear').addEventListener('click', () =>
    act(async () => {
      await admin('DELETE', '/faults')
      await loadFaults()
      say('Removed every rule')
    }),
  )
}
