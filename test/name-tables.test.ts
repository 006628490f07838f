import { describe, expect, it } from 'vitest'
import { createPerson } from '../factories/person.js'
import { slugify } from '../factories/random-helpers.js'
import { createFaker } from '../src/time/random.js'

// A person's names come from the locale's lists read once (src/time/name-tables.ts): the same names,
// from the same draws, as Faker's own person.firstName() and person.lastName(), and the same e-mail.

describe('a person drawn from the name tables', () => {
  it.each([1, 42, 2026])('is the person Faker draws, and leaves the same draws after it (seeds from %i)', (base) => {
    const fast = createFaker(0)
    const reference = createFaker(0)
    expect(fast.names).toBeDefined()
    let hyphenated = 0
    for (let i = 0; i < 20_000; i++) {
      const seed = base * 1_000_003 + i
      fast.seed(seed)
      reference.seed(seed)
      const person = createPerson(fast, i, 'id')
      const firstName = reference.person.firstName()
      const lastName = reference.person.lastName()
      const local = [slugify(firstName), slugify(lastName)].filter(Boolean).join('.').replace(/-/g, '') || 'fan'
      const domain = reference.helpers.arrayElement(['example.com', 'example.org', 'example.net', 'mail.example.com'])
      expect(person).toEqual({ id: 'id', email: `${local}${i}@${domain}`, firstName, lastName })
      expect(fast.randomizer.next()).toBe(reference.randomizer.next())
      if (lastName.includes('-')) hyphenated++
    }
    // Both of the locale's last-name patterns were drawn.
    expect(hyphenated).toBeGreaterThan(100)
  })
})
