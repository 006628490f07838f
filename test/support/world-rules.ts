/**
 * The rules every world keeps, at its build instant and at every instant the clock is moved to: each
 * a check over the world as the API shows it at `w.now` (records left out or shown as they stood then).
 * test/world.test.ts runs them over 200 generated worlds; test/live/consistency.test.ts over live
 * worlds at instants before, between and after everything.
 */
import { expect } from 'vitest'
import { activationSchema } from '../../src/contract/activation.js'
import { toMillis } from '../../src/contract/date-object.js'
import { hasSubtype, SUBTYPES_BY_TYPE } from '../../src/contract/enums.js'
import { ENTRY_KEYS, entrySchemas } from '../../src/contract/entry.js'
import { stateOf } from '../../src/contract/state.js'
import { toActivation, toEntry } from '../../handlers/serialize.js'
import { entryField, type StoredActivation, type StoredEntry, type World } from '../../src/contract/stored-records.js'
import { TYPE_RULES } from '../../src/contract/type-rules.js'
import { bracketVoteOf, isCompletedEntry, isWinningEntry } from '../../src/store/entry-traits.js'
import { titleSlug } from '../../factories/random-helpers.js'

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

function entriesByActivation(entries: StoredEntry[]): Map<string, StoredEntry[]> {
  const map = new Map<string, StoredEntry[]>()
  for (const e of entries) {
    const list = map.get(e.activationId)
    if (list) list.push(e)
    else map.set(e.activationId, [e])
  }
  return map
}

function allDates(value: unknown, out: Array<{ iso: string; ts: number }> = []) {
  if (Array.isArray(value)) value.forEach((v) => allDates(v, out))
  else if (value && typeof value === 'object') {
    if ('iso' in value && 'ts' in value) out.push(value as { iso: string; ts: number })
    else Object.values(value).forEach((v) => allDates(v, out))
  }
  return out
}

/**
 * Collects what breaks a rule instead of asserting item by item: one `expect` per rule and seed keeps
 * 200 seeds fast, and the failure lists every offending record.
 */
export function rule(check: (must: (ok: boolean, what: () => string) => void) => void): void {
  const problems: string[] = []
  check((ok, what) => {
    if (!ok && problems.length < 20) problems.push(what())
  })
  expect(problems).toEqual([])
}

/** A world as the API shows it at the instant `now` (milliseconds). */
export type WorldAt = World & { now: number }

const byId = (w: WorldAt) => new Map(w.activations.map((a) => [a.id, a]))
const each = (w: WorldAt, fn: (e: StoredEntry, a: StoredActivation) => void) => {
  const activations = byId(w)
  for (const e of w.entries) fn(e, activations.get(e.activationId)!)
}

/** Each rule: its name, and a check that fails (through `expect`) listing every record that breaks it. */
export const WORLD_RULES: ReadonlyArray<{ name: string; check(w: WorldAt): void }> = [
  {
    name: 'serves activations that match the contract exactly',
    check(w) {
      rule((must) => {
        for (const a of w.activations) {
          const error = activationSchema.safeParse(toActivation(a)).error
          must(!error, () => `${a.id}: ${error?.message}`)
        }
      })
    },
  },
  {
    name: 'has a subtype only for giveaway and sweepstakes, always one valid for the type',
    check(w) {
      rule((must) => {
        for (const a of w.activations) {
          const valid = hasSubtype(a.type)
            ? (SUBTYPES_BY_TYPE[a.type] as readonly string[]).includes(a.subtype!)
            : !('subtype' in a)
          must(valid, () => `${a.id} (${a.type}) has subtype ${a.subtype}`)
        }
      })
    },
  },
  {
    name: 'writes every DateObject with a millisecond iso ending in Z and ts its floored seconds',
    check(w) {
      const dates = allDates([w.activations, w.entries, w.participants])
      if (w.activations.length) expect(dates.length).toBeGreaterThan(0)
      rule((must) => {
        for (const d of dates)
          must(ISO_MS.test(d.iso) && d.ts === Math.floor(Date.parse(d.iso) / 1000), () => JSON.stringify(d))
      })
    },
  },
  {
    name: 'orders createdAt <= updatedAt <= now and createdAt <= startTime < endTime',
    check(w) {
      rule((must) => {
        for (const a of w.activations) {
          const [created, updated, start, end] = [a.createdAt, a.updatedAt, a.startTime, a.endTime].map(toMillis) as [
            number,
            number,
            number,
            number,
          ]
          must(
            created <= updated && updated <= w.now && created <= start && start < end,
            () => `${a.id}: ${created} ${updated} ${start} ${end}`,
          )
        }
      })
    },
  },
  {
    name: 'derives unique slugs from titles, puts the slug in publicUrl, and gives unique mixed-case ids',
    check(w) {
      const activations = w.activations
      expect(new Set(activations.map((a) => a.slug)).size).toBe(activations.length)
      expect(new Set(activations.map((a) => a.id)).size).toBe(activations.length)
      const entryIds = w.entries.map((e) => e.id)
      expect(new Set(entryIds).size).toBe(entryIds.length)
      rule((must) => {
        for (const a of activations) {
          must(
            a.slug.startsWith(`${titleSlug(a.title)}-`) && a.publicUrl.includes(a.slug),
            () => `${a.id}: ${a.title} / ${a.slug} / ${a.publicUrl}`,
          )
          must(/[A-Z]/.test(a.id) && /[a-z]/.test(a.id), () => `${a.id} is not mixed case`)
        }
      })
    },
  },
  {
    name: 'sets sponsorName and sponsorUrl together or neither',
    check(w) {
      rule((must) => {
        for (const a of w.activations) must((a.sponsorName === null) === (a.sponsorUrl === null), () => a.id)
      })
    },
  },
  {
    name: 'has entries only for started activations, entered between startTime and the earlier of endTime and now',
    check(w) {
      rule((must) =>
        each(w, (e, a) => {
          const t = toMillis(e.enteredAt)
          must(
            toMillis(a.startTime) <= t && t <= Math.min(toMillis(a.endTime), w.now),
            () => `${e.id} at ${e.enteredAt.iso}`,
          )
        }),
      )
    },
  },
  {
    name: 'gives every entry the common fields plus exactly the fields of its activation type',
    check(w) {
      const optional = new Set(['rank', 'voidedAt'])
      rule((must) =>
        each(w, (e, a) => {
          const served = toEntry(e, a)
          const error = entrySchemas[a.type].safeParse(served).error
          must(!error, () => `${e.id} (${a.type}): ${error?.message}`)
          const missing = ENTRY_KEYS[a.type].filter((k) => !optional.has(k) && !(k in served))
          must(missing.length === 0, () => `${e.id} lacks ${missing.join(', ')}`)
        }),
      )
    },
  },
  {
    name: 'gives a prize, confirmation and fulfilment only to winners, and voidedAt only to a voided winner who is not fulfilled',
    check(w) {
      rule((must) =>
        each(w, (e, a) => {
          if (!TYPE_RULES[a.type].prizes) return
          const winner = entryField(e, 'isWinner') === true
          must(
            (entryField(e, 'prize') !== null) === winner,
            () => `${e.id}: prize ${JSON.stringify(entryField(e, 'prize'))}, winner ${winner}`,
          )
          must(
            winner || (!entryField(e, 'isFulfilled') && !entryField(e, 'isConfirmed')),
            () => `${e.id}: confirmed or fulfilled but not a winner`,
          )
          if ('voidedAt' in e) {
            must(
              winner && entryField(e, 'prize') !== null && entryField(e, 'isFulfilled') === false,
              () => `${e.id}: voided but ${JSON.stringify(e)}`,
            )
            must(
              toMillis(entryField(e, 'voidedAt') as never) >= toMillis(e.enteredAt),
              () => `${e.id}: voided before it was entered`,
            )
          }
        }),
      )
    },
  },
  {
    name: "ranks a contest's entries only once it has ended, winners first",
    check(w) {
      rule((must) => {
        for (const [id, entries] of entriesByActivation(w.entries)) {
          const a = byId(w).get(id)!
          if (a.type !== 'contest') continue
          const ended = stateOf(a, w.now) === 'ended'
          for (const e of entries)
            must(
              'rank' in e === ended && (ended || entryField(e, 'isWinner') === false),
              () => `${e.id}: rank ${entryField(e, 'rank')}`,
            )
          if (!ended) continue
          const ranks = entries.map((e) => entryField(e, 'rank') as number).sort((x, y) => x - y)
          must(
            ranks.every((r, i) => r === i + 1),
            () => `${id}: ranks ${ranks.join(',')}`,
          )
          const winners = entries.filter((e) => entryField(e, 'isWinner'))
          must(
            winners.every((w) => (entryField(w, 'rank') as number) <= winners.length),
            () => `${id}: a winner is not in the top ranks`,
          )
        }
      })
    },
  },
  {
    name: "makes trivia and pick'em winners exactly those who answered every question correctly, and completion agree with the question count",
    check(w) {
      rule((must) =>
        each(w, (e, a) => {
          const q = a.config.questionCount
          const rules = TYPE_RULES[a.type]
          if (rules.winners === 'allCorrect') {
            must(
              entryField(e, 'isWinner') === (entryField(e, 'totalCorrect') === q),
              () => `${e.id}: winner ${entryField(e, 'isWinner')} with ${entryField(e, 'totalCorrect')}/${q}`,
            )
            must(
              (entryField(e, 'totalCorrect') as number) <= e.questionsAnswered!,
              () => `${e.id}: more correct than answered`,
            )
          }
          if (rules.completion === 'allAnswered') {
            must(isCompletedEntry(e, a) === (e.questionsAnswered === q), () => `${e.id}: completion`)
          }
          if (rules.completion === 'allCorrect') {
            must(
              (entryField(e, 'totalCorrect') as number) <= q!,
              () => `${e.id}: ${entryField(e, 'totalCorrect')}/${q}`,
            )
            must(isCompletedEntry(e, a) === (entryField(e, 'totalCorrect') === q), () => `${e.id}: completion`)
          }
          if (rules.completion !== null && entryField(e, 'isWinner')) {
            must(isCompletedEntry(e, a), () => `${e.id}: a winner who did not complete`)
          }
        }),
      )
    },
  },
  {
    name: 'gives sweepstakes choices only for vote_to_win, from its options',
    check(w) {
      rule((must) =>
        each(w, (e, a) => {
          if (a.type !== 'sweepstakes') return
          const choices = entryField(e, 'choices') as Array<{ id: string }>
          const options = a.config.voteChoices.map((v) => v.id)
          must(
            a.subtype === 'vote_to_win'
              ? choices.length > 0 && choices.every((c) => options.includes(c.id))
              : choices.length === 0,
            () => `${e.id} (${a.subtype}): ${JSON.stringify(choices)}`,
          )
        }),
      )
    },
  },
  {
    name: 'names in every bracket vote a round and a seed that exist in that bracket',
    check(w) {
      rule((must) =>
        each(w, (e, a) => {
          if (a.type !== 'bracket') return
          const vote = bracketVoteOf(e)!
          const round = a.config.bracket!.rounds.find((r) => r.round === vote.round)
          must(!!round?.seeds.includes(vote.seed), () => `${e.id}: ${JSON.stringify(entryField(e, 'vote'))}`)
        }),
      )
    },
  },
  {
    name: 'marks isReplay exactly on the repeat entries of an entrant in the same giveaway',
    check(w) {
      rule((must) => {
        for (const [id, entries] of entriesByActivation(w.entries)) {
          if (!TYPE_RULES[byId(w).get(id)!.type].replays) continue
          const seen = new Set<string>()
          for (const e of entries) {
            must(
              entryField(e, 'isReplay') === seen.has(e.participantId),
              () => `${e.id}: isReplay ${entryField(e, 'isReplay')}`,
            )
            seen.add(e.participantId)
          }
        }
      })
    },
  },
  {
    name: 'enters each person at most once in activations without replays',
    check(w) {
      rule((must) => {
        for (const [id, entries] of entriesByActivation(w.entries)) {
          if (TYPE_RULES[byId(w).get(id)!.type].replays) continue
          must(new Set(entries.map((e) => e.participantId)).size === entries.length, () => `${id} has a repeat entrant`)
        }
      })
    },
  },
  {
    name: 'gives an address only to giveaway winners of giveaways that collect one',
    check(w) {
      rule((must) =>
        each(w, (e, a) => {
          if (a.type === 'giveaway')
            must(
              (entryField(e, 'address') !== null) === (entryField(e, 'isWinner') === true && a.config.collectsAddress),
              () => e.id,
            )
        }),
      )
    },
  },
  {
    name: 'asks every entry of an activation the same extra questions',
    check(w) {
      rule((must) =>
        each(w, (e, a) => {
          const asked = a.config.extraQuestions.map((q) => q.key).join()
          must(e.extras.map((x) => x.key).join() === asked, () => `${e.id}: ${e.extras.map((x) => x.key)} not ${asked}`)
        }),
      )
    },
  },
  {
    name: 'draws entrants from a pool: one person per participant, with the same name and e-mail in every entry',
    check(w) {
      const participants = new Map(w.participants.map((p) => [p.id, p]))
      expect(new Set(w.participants.map((p) => p.email)).size).toBe(participants.size)
      const entrants = new Set<string>()
      const activationsOf = new Map<string, Set<string>>()
      rule((must) =>
        each(w, (e) => {
          const p = participants.get(e.participantId)
          must(!!p && e.email === p.email && e.firstName === p.firstName && e.lastName === p.lastName, () => e.id)
          entrants.add(e.participantId)
          activationsOf.set(e.participantId, (activationsOf.get(e.participantId) ?? new Set()).add(e.activationId))
        }),
      )
      expect(entrants.size).toBe(participants.size)
      if (w.entries.length >= 200) expect([...activationsOf.values()].some((set) => set.size > 1)).toBe(true)
    },
  },
  {
    name: "dates each profile answer at one of the participant's entries",
    check(w) {
      const times = new Map<string, Set<string>>()
      for (const e of w.entries)
        times.set(e.participantId, (times.get(e.participantId) ?? new Set()).add(e.enteredAt.iso))
      rule((must) => {
        for (const p of w.participants)
          for (const x of p.extras) must(!!times.get(p.id)?.has(x.answeredAt.iso), () => p.id)
      })
    },
  },
  {
    name: 'selects as winners, for is_winner, the entries marked isWinner in giveaways, contests and scavenger hunts',
    check(w) {
      rule((must) =>
        each(w, (e, a) => {
          if (TYPE_RULES[a.type].winners === 'isWinner')
            must(isWinningEntry(e, a) === entryField(e, 'isWinner'), () => e.id)
        }),
      )
    },
  },
]
