import type { SeededFaker } from '../src/time/random.js'
import { pick, slugify } from './random-helpers.js'

/** A person of an account's pool: who enters activations. Becomes a participant with a first entry. */
export type Person = {
  id: string
  email: string
  firstName: string
  lastName: string
}

const DOMAINS = ['example.com', 'example.org', 'example.net', 'mail.example.com'] as const

/**
 * Builds the person at position `index` of an account's pool, with the id the world gives them. The
 * index is part of the e-mail, so e-mails are unique within the pool without looking at the other people.
 * @example createPerson(faker, 17, 'Qe8k2Lm0aZ1x') // { id: 'Qe8k2Lm0aZ1x', email: 'ana.diaz17@example.org', ... }
 */
export function createPerson(faker: SeededFaker, index: number, id: string): Person {
  const names = faker.names
  if (names) {
    // The same draws as Faker's, from its locale's lists read once; each name with its e-mail form.
    const first = names.firstName(faker)
    const last = names.lastName(faker)
    const local =
      first.compact === ''
        ? last.compact || 'fan'
        : last.compact === ''
          ? first.compact
          : `${first.compact}.${last.compact}`
    return { id, email: [local, index, '@', pick(faker, DOMAINS)].join(''), firstName: first.text, lastName: last.text }
  }
  const firstName = faker.person.firstName()
  const lastName = faker.person.lastName()
  const local = [slugify(firstName), slugify(lastName)].filter(Boolean).join('.').replace(/-/g, '') || 'fan'
  return {
    id,
    // Joined, not a template: a flat string rather than a tree of pieces, in every one of the person's entries.
    email: [local, index, '@', pick(faker, DOMAINS)].join(''),
    firstName,
    lastName,
  }
}
