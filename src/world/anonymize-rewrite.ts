// The anonymizer's second pass (anonymize.ts): each page again, with fakes.

import type { Fakes } from './anonymize-fakes.js'
import { isPhone, lookupKey, SPECIAL, WORD } from './anonymize-text.js'
import type { AddressField, AnswerKind, Visitor } from './anonymize-walk.js'

export class Rewriter implements Visitor {
  constructor(private readonly fakes: Fakes) {}

  person(): void {}

  /** A blank e-mail is kept: it is no one's (personKey goes by the names then). */
  email(value: string): string {
    return value.trim() === '' ? value : this.fakes.emailIn(value)
  }

  // A name that is not empty makes its record a person's (personKey).
  firstName(value: string, person: string | null): string {
    return value === '' ? value : this.fakes.people.get(person!)!.firstName
  }

  lastName(value: string, person: string | null): string {
    return value === '' ? value : this.fakes.people.get(person!)!.lastName
  }

  address(field: AddressField, value: string): string {
    return this.fakes.address(field, value)
  }

  answer(kind: AnswerKind, key: string, value: string): string {
    return this.fakes.isFree(kind, key, value) ? this.fakes.text(value) : value
  }

  mediaUrl(value: string): string {
    return this.fakes.mediaUrl(value)
  }

  /**
   * A string of a field the walk does not know: the fake of the whole string when it is a recorded
   * personal string; else each e-mail address, phone number and run of words in it that is one.
   */
  scrub(value: string, person: string | null): string {
    const whole = this.lookup(lookupKey(value), person)
    if (whole !== undefined) return whole
    let out = ''
    let last = 0
    for (const match of value.matchAll(SPECIAL)) {
      const [text, email, phone] = match
      if (email === undefined && !isPhone(phone!)) continue
      out += this.words(value.slice(last, match.index), person)
      out += email !== undefined ? this.fakes.emailIn(email) : this.fakes.phone(text)
      last = match.index + text.length
    }
    return out + this.words(value.slice(last), person)
  }

  private lookup(key: string, person: string | null): string | undefined {
    return (person ? this.fakes.personal.get(person)!.get(key) : undefined) ?? this.fakes.dictionary.get(key)
  }

  /** Replaces each run of words (longest first) that is a recorded personal string. */
  private words(text: string, person: string | null): string {
    const spans = [...text.matchAll(WORD)].map((m) => [m.index, m.index + m[0].length] as const)
    let out = ''
    let last = 0
    for (let i = 0; i < spans.length;) {
      let matched = 0
      for (let n = Math.min(this.fakes.longest, spans.length - i); n >= 1 && !matched; n--) {
        const fake = this.lookup(text.slice(spans[i]![0], spans[i + n - 1]![1]).toLowerCase(), person)
        if (fake !== undefined) {
          out += text.slice(last, spans[i]![0]) + fake
          last = spans[i + n - 1]![1]
          matched = n
        }
      }
      i += matched || 1
    }
    return out + text.slice(last)
  }
}
