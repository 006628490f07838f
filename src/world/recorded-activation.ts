import { hasSubtype, SUBTYPES_BY_TYPE } from '../contract/enums.js'
import type { Choice, Prize } from '../contract/nested.js'
import type { ActivationConfig, StoredActivation } from '../contract/stored-records.js'
import type { Raw } from './recorded-fields.js'

// What a recorded activation needs that the API does not send: its set-up, inferred from its entries,
// and its fields made to agree with the rules that span several of them.

const distinctBy = <T>(items: T[], key: (item: T) => string): T[] => {
  const seen = new Map<string, T>()
  for (const item of items) if (!seen.has(key(item))) seen.set(key(item), item)
  return [...seen.values()]
}

/** An activation's set-up, as far as its entries show it. */
export function inferConfig(
  activation: StoredActivation,
  entries: readonly Raw[],
  questionCount: number | null,
): ActivationConfig {
  const field = <T>(key: string) => entries.map((e) => e[key] as T).filter((v) => v !== undefined && v !== null)
  const strings = (values: unknown[]) => [...new Set(values.filter((v): v is string => typeof v === 'string'))]
  const extras = entries.flatMap((e) => (Array.isArray(e.extras) ? (e.extras as Raw[]) : []))
  const extraQuestions = distinctBy(extras, (x) => String(x.key)).map((x) => ({
    key: String(x.key),
    label: String(x.label),
    type: x.type as 'text' | 'select' | 'checkbox',
    options:
      x.type === 'select' ? strings(extras.filter((y) => y.key === x.key).map((y) => y.value)) : ([] as string[]),
  }))
  const votes = field<{ round: number; seed: number; contestant: string }>('vote')
  const rounds = [...new Set(votes.map((v) => v.round))].sort((a, b) => a - b)
  return {
    questionCount,
    extraQuestions,
    prizes: distinctBy(field<Prize>('prize'), (p) => p.id),
    collectsAddress: field('address').length > 0,
    requestsSeat: field('seat').length > 0,
    voteChoices: distinctBy(
      entries.flatMap((e) => (Array.isArray(e.choices) ? (e.choices as Choice[]) : [])),
      (c) => c.id,
    ),
    options: strings([
      ...field('category'),
      ...field('choice'),
      ...field('result'),
      ...entries.flatMap((e) => (Array.isArray(e.lineup) ? e.lineup : [])),
      ...entries.flatMap((e) => (Array.isArray(e.answers) ? (e.answers as Raw[]).map((a) => a.question) : [])),
    ]),
    bracket:
      activation.type === 'bracket'
        ? {
            contestants: distinctBy(votes, (v) => String(v.seed))
              .map((v) => ({ seed: v.seed, name: v.contestant }))
              .sort((a, b) => a.seed - b.seed),
            rounds: rounds.map((round) => ({
              round,
              seeds: [...new Set(votes.filter((v) => v.round === round).map((v) => v.seed))].sort((a, b) => a - b),
            })),
          }
        : null,
  }
}

/** Makes an activation fit the rules across its fields (a subtype for the types that have one; a sponsor's name and URL together), pinning what it changes. */
export function fitActivationRules(a: StoredActivation, pinned: string[]): void {
  if (hasSubtype(a.type)) {
    const allowed: readonly string[] = SUBTYPES_BY_TYPE[a.type]
    if (a.subtype === undefined || !allowed.includes(a.subtype)) {
      a.subtype = allowed[0] as StoredActivation['subtype']
      pinned.push('subtype')
    }
  } else if (a.subtype !== undefined) {
    delete a.subtype
    pinned.push('subtype')
  }
  if ((a.sponsorName === null) !== (a.sponsorUrl === null)) {
    a.sponsorName = a.sponsorName ?? ''
    a.sponsorUrl = a.sponsorUrl ?? ''
    pinned.push('sponsorName', 'sponsorUrl')
  }
}
