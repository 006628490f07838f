import type { z } from 'zod'
import { activationSchema } from '../../contract/activation.js'
import { entrySchemas } from '../../contract/entry.js'
import { FILTER_TYPES, type ActivationType } from '../../contract/enums.js'
import {
  activationEnteredSchema,
  addressSchema,
  bracketVoteSchema,
  choiceSchema,
  extraSchema,
  mediaSchema,
  participantExtraSchema,
  prizeSchema,
  scavengerSeatSchema,
  utmSchema,
} from '../../contract/nested.js'
import { participantSchema } from '../../contract/participant.js'
import { answerText, confirmed, differs, itemsOf, notCheckable, schemaProblem } from './checks.js'
import { activationPath, activationsOf } from './discover.js'
import type { EntriesPage, Probe, ProbeContext, ProbeOutcome } from './probe.js'
import { requestLine } from './probe.js'

type Item = Record<string, unknown>

/** A value found in an answer: where (for the report) and the request that answered it. */
type Found = { value: unknown; where: string; path: string }

/** Every entry discovery read, with its page. */
function allEntries(context: ProbeContext): Array<{ entry: Item; index: number; page: EntriesPage }> {
  return Object.values(context.found.entries).flatMap((page) =>
    page.entries.map((entry, index) => ({ entry, index, page })),
  )
}

/** The participants of the first page, when premium answered. */
function participants(context: ProbeContext): { items: Item[]; path: string } | null {
  const seen = context.found.participants
  const items = seen && itemsOf(seen.answer, 'participants')
  return seen && items ? { items, path: seen.path } : null
}

/** Checks every value found against a schema: the first that does not match makes the probe differ. */
function judgeShapes(found: Found[], schema: z.ZodType, what: string, none: string): ProbeOutcome {
  if (found.length === 0) return notCheckable(none)
  for (const { value, where, path } of found) {
    const problem = schemaProblem(schema, value, where)
    if (problem) return differs(`${what} is not as the emulator assumes: ${problem}`, requestLine(path))
  }
  return confirmed(`${found.length} ${what} as assumed`)
}

/** A probe of a nested structure of entries: every non-null value of `field` (each element, for an array). */
function entryFieldProbe(id: string, assumption: string, field: string, schema: z.ZodType, what: string): Probe {
  return {
    id,
    assumption,
    requests: 0,
    async run(context) {
      const found = allEntries(context).flatMap(({ entry, index, page }) => {
        const value = entry[field]
        const where = `${page.activation.type} entries[${index}].${field}`
        if (Array.isArray(value)) return value.map((v, i) => ({ value: v, where: `${where}[${i}]`, path: page.path }))
        return value === null || value === undefined ? [] : [{ value, where, path: page.path }]
      })
      return judgeShapes(found, schema, what, `no entry read has a non-null ${field}`)
    },
  }
}

/** A probe of a nested structure of participants: every element of `field`. */
function participantFieldProbe(id: string, assumption: string, field: string, schema: z.ZodType): Probe {
  return {
    id,
    assumption,
    requests: 0,
    async run(context) {
      const list = participants(context)
      if (!list) return notCheckable('premium is off for this account')
      const found = list.items.flatMap((p, index) =>
        Array.isArray(p[field])
          ? (p[field] as unknown[]).map((value, i) => ({
              value,
              where: `participants[${index}].${field}[${i}]`,
              path: list.path,
            }))
          : [],
      )
      return judgeShapes(found, schema, `participant ${field} elements`, `no participant read has ${field}`)
    },
  }
}

/** One probe per type: its entries against the emulator's schema of that type's entries. */
function entryShapeProbe(type: ActivationType): Probe {
  return {
    id: `entry-shape-${type}`,
    assumption: `${type} entries: the fields, types and nullability of the emulator's schema`,
    requests: 0,
    async run(context) {
      const page = context.found.entries[type]
      if (!page) return notCheckable(`no started ${type} activation in this account`)
      const found = page.entries.map((value, i) => ({ value, where: `entries[${i}]`, path: page.path }))
      return judgeShapes(found, entrySchemas[type], `${type} entries`, `the ${type} activation read has no entries`)
    },
  }
}

/** The probes of shapes: the activations, participants and entries as the schemas say, and the nested structures. */
export const shapeProbes: Probe[] = [
  {
    id: 'field-presence',
    assumption: 'activations and participants: every field, nullable ones as null, no other field',
    requests: 0,
    async run(context) {
      const seen = context.found.firstPage
      const items = seen && itemsOf(seen.answer, 'activations')
      if (!seen || !items) return notCheckable('the activations list did not answer 200')
      const found: Found[] = items.map((value, i) => ({ value, where: `activations[${i}]`, path: seen.path }))
      const list = participants(context)
      // One at a time: an upstream page may hold more items than a spread's arguments can.
      list?.items.forEach((value, i) => found.push({ value, where: `participants[${i}]`, path: list.path }))
      for (const item of found) {
        const schema = item.where.startsWith('participants') ? participantSchema : activationSchema
        const problem = schemaProblem(schema, item.value, item.where)
        if (problem) return differs(`not as the emulator sends it: ${problem}`, requestLine(item.path))
      }
      return confirmed(`${items.length} activations${list ? ` and ${list.items.length} participants` : ''} as assumed`)
    },
  },
  ...FILTER_TYPES.map(entryShapeProbe),
  entryFieldProbe('extra-shape', 'Extra: { key, label, type, value }', 'extras', extraSchema, 'entry extras'),
  entryFieldProbe(
    'media-shape',
    'Media: { type, url, thumbnailUrl, width, height, durationSec }',
    'media',
    mediaSchema,
    'media',
  ),
  {
    ...entryFieldProbe(
      'address-shape',
      'Address: { line1, line2, city, region, postalCode, country }',
      'address',
      addressSchema,
      'addresses',
    ),
    async run(context) {
      const outcome = await entryFieldProbe('', '', 'address', addressSchema, 'addresses').run(context)
      if (outcome.result !== 'confirmed') return outcome
      const loser = allEntries(context).find(({ entry }) => entry['address'] && entry['isWinner'] === false)
      if (loser)
        return differs(
          `an entry that did not win has an address (${loser.page.activation.type} entries[${loser.index}]); the emulator gives addresses to winners only`,
          requestLine(loser.page.path),
        )
      return outcome
    },
  },
  {
    ...entryFieldProbe(
      'utm-shape',
      'UTM: { source, medium, campaign, term, content }, at most one',
      'utm',
      utmSchema,
      'utm',
    ),
    async run(context) {
      const outcome = await entryFieldProbe('', '', 'utm', utmSchema, 'utm').run(context)
      if (outcome.result !== 'confirmed') return outcome
      const many = allEntries(context).find(({ entry }) => Array.isArray(entry['utm']) && entry['utm'].length > 1)
      if (many)
        return differs(
          `an entry has ${(many.entry['utm'] as unknown[]).length} utm (${many.page.activation.type} entries[${many.index}]); the emulator gives at most one`,
          requestLine(many.page.path),
        )
      return outcome
    },
  },
  entryFieldProbe('choice-shape', 'Choice: { id, label }', 'choices', choiceSchema, 'choices'),
  entryFieldProbe(
    'bracket-vote-shape',
    'BracketVote: { round, seed, contestant }',
    'vote',
    bracketVoteSchema,
    'bracket votes',
  ),
  entryFieldProbe('seat-shape', 'ScavengerSeat: { section, row, seat }', 'seat', scavengerSeatSchema, 'seats'),
  entryFieldProbe('prize-shape', 'Prize: { id, title, subtitle, imageUrl }', 'prize', prizeSchema, 'prizes'),
  participantFieldProbe(
    'participant-extras-shape',
    'participant extras: { key, label, value, answeredAt }',
    'extras',
    participantExtraSchema,
  ),
  participantFieldProbe(
    'participant-activations-shape',
    'participant activationsEntered: { id, type, title, firstEnteredAt }',
    'activationsEntered',
    activationEnteredSchema,
  ),
  {
    id: 'contest-rank',
    assumption: 'contests: no rank and no winner until ended; then every entry ranked',
    requests: 1,
    async run(context) {
      const ended = new Set(activationsOf(context.found.byState.ended).map((a) => a.id))
      const running = new Set(activationsOf(context.found.byState.running).map((a) => a.id))
      const page = context.found.entries['contest']
      const checked: string[] = []
      if (page && ended.has(page.activation.id) && page.entries.length > 0) {
        const at = page.entries.findIndex((e) => typeof e['rank'] !== 'number')
        if (at >= 0)
          return differs(
            `an ended contest's entries[${at}] has no rank; the emulator ranks every entry once ended`,
            requestLine(page.path),
          )
        checked.push('an ended contest ranked')
      }
      const live = activationsOf(context.found.byType['contest']).find((a) => running.has(a.id))
      if (live) {
        const path = activationPath(live.id, '?limit=100')
        const answer = await context.request(path)
        const entries = itemsOf(answer, 'entries')
        if (!entries) return differs(`a running contest answered ${answerText(answer)}`, requestLine(path))
        const at = entries.findIndex((e) => e['rank'] !== undefined || e['isWinner'] === true)
        if (at >= 0)
          return differs(
            `a running contest's entries[${at}] has a rank or is a winner; the emulator has neither before the end`,
            requestLine(path),
          )
        if (entries.length) checked.push('a running contest with neither')
      }
      return checked.length
        ? confirmed(checked.join('; '))
        : notCheckable('no ended or running contest with entries in this account')
    },
  },
  {
    id: 'replays',
    assumption: 'only giveaways have repeat entrants',
    requests: 0,
    async run(context) {
      const pages = Object.values(context.found.entries).filter(
        (p) => p.activation.type !== 'giveaway' && p.entries.length > 1,
      )
      if (pages.length === 0) return notCheckable('no activation other than a giveaway with two entries read')
      for (const page of pages) {
        const emails = page.entries.map((e) => String(e['email']))
        const twice = emails.find((e, i) => emails.indexOf(e) !== i)
        if (twice !== undefined)
          return differs(
            `a ${page.activation.type} has two entries by the same e-mail; the emulator enters each person once`,
            requestLine(page.path),
          )
      }
      return confirmed(`no e-mail twice in ${pages.length} activations' first pages`)
    },
  },
]
