/**
 * What the anonymizer finds in a string, on the functions themselves: e-mail addresses, phone numbers
 * (and what is not one: dates, decimals, counts), words, and the keys of people and personal strings.
 * Found missing by mutation testing (npm run test:mutation).
 */
import { describe, expect, it } from 'vitest'
import {
  isPhone,
  looksLikeEmail,
  looksLikePhone,
  looksNumeric,
  looksPersonal,
  lookupKey,
  personKey,
  SPECIAL,
  WORD,
  wordsKey,
} from '../../src/world/anonymize-text.js'

/** The e-mail addresses and phone-like runs SPECIAL finds in `text`, in order. */
const found = (text: string) =>
  [...text.matchAll(SPECIAL)].map(([, email, phone]) => (email !== undefined ? `email ${email}` : `phone ${phone}`))

/** Which of `values` `test` takes, and which it leaves: each list should hold none of the other. */
const takes = (test: (value: string) => boolean, values: string[]) => values.filter((v) => !test(v))
const leaves = (test: (value: string) => boolean, values: string[]) => values.filter((v) => test(v))

describe('isPhone', () => {
  it('takes 7 to 15 digits, and no fewer or more', () => {
    expect(takes(isPhone, ['555-0101', '+441234567890123', '(555)0101', '555 0101'])).toEqual([])
    expect(leaves(isPhone, ['555-010', '12-34-56', '+4412345678901234', '1234567890123456'])).toEqual([])
  })

  it('takes digits with a plus, a parenthesis, a space or a hyphen, ten digits or more, or three dotted groups', () => {
    expect(takes(isPhone, ['+5550101', '(555)0101', '555 0101', '555\t0101', '555-0101'])).toEqual([])
    expect(takes(isPhone, ['4155550101', '12.345.678', '1.234.567.890'])).toEqual([])
    expect(leaves(isPhone, ['5550101', '415555010', '1234.5678', 'x1.234.567', '1.234.567x'])).toEqual([])
  })

  it('leaves dates and decimal numbers', () => {
    const dates = ['2026-06-01', '2026-06-01 12:00', '06-01-2026', '6-1-2026', '1.6.2026']
    expect(leaves(isPhone, [...dates, '12345678901.5', '1234567890.55'])).toEqual([])
    // Not a date: one that does not start the string, a year of five digits, a day of one digit or three.
    expect(takes(isPhone, ['+12026-06-01', '06-01-20261', '123-01-2026', '0601-2026-1', '2026-06-1 555'])).toEqual([])
  })
})

describe('looksLikeEmail, looksLikePhone, looksPersonal and looksNumeric', () => {
  it('take a whole e-mail address, spaces around it aside', () => {
    const emails = [
      'ana@mail.test',
      ' Ana@Mail.Test ',
      "josé.o'neil_1%+tag@mail-1.club.example",
      'a@b.cd',
      'ana@mail.abc',
    ]
    expect(takes(looksLikeEmail, emails)).toEqual([])
    const not = ['ana@mail', 'ana@mail.t', 'ana@mail.com2', 'ana@@mail.test', 'ana mail.test', 'x ana@mail.test']
    expect(leaves(looksLikeEmail, [...not, 'ana@mail.test x', '@mail.test', 'ana@.test'])).toEqual([])
  })

  it('take a whole phone number, spaces around it aside', () => {
    expect(takes(looksLikePhone, [' 555-0101 ', '+1 (415) 555-0101', '4155550101'])).toEqual([])
    const not = ['555-0101x', 'call 555-0101', '2026-06-01', '5550101', ' 5550101 ', '555 01']
    expect(leaves(looksLikePhone, not)).toEqual([])
    expect(takes(looksPersonal, ['ana@mail.test', '+1 415 555 0101'])).toEqual([])
    expect(leaves(looksPersonal, ['Ana', '2026-06-01'])).toEqual([])
  })

  it('looksNumeric takes digits and separators, with at least one digit', () => {
    expect(takes(looksNumeric, ['94110-2201', '12/05', '(1,5)', '+1 2.3', '7', ' 7'])).toEqual([])
    expect(leaves(looksNumeric, ['Seat 12', 'Seat12', '12a', '---', '', ' '])).toEqual([])
  })
})

describe('SPECIAL and WORD', () => {
  it('find e-mail addresses and phone-like runs inside a sentence', () => {
    expect(found('Mail ana@mail.test or call +1 (415) 555-0101.')).toEqual([
      'email ana@mail.test',
      'phone +1 (415) 555-0101',
    ])
    expect(found('Bo.Berg@Club.Example,4155550101;(415) 555 0101')).toEqual([
      'email Bo.Berg@Club.Example',
      'phone 4155550101',
      'phone (415) 555 0101',
    ])
  })

  it('find no phone run inside a word or a longer number', () => {
    expect(found('A4155550101 _4155550101 x+4155550101 4155550101x 4155550101_ 12345')).toEqual([])
  })

  it('find words with their inner apostrophes, dots, hyphens, underscores and plus signs', () => {
    const words = (text: string) => [...text.matchAll(WORD)].map((m) => m[0])
    expect(words("O’Neil-Smith and jo.ann+1 (x), don't a_b -ana- é")).toEqual([
      'O’Neil-Smith',
      'and',
      'jo.ann+1',
      'x',
      "don't",
      'a_b',
      'ana',
      'é',
    ])
  })
})

describe('the keys of people and personal strings', () => {
  it('personKey is the e-mail trimmed and lower-cased, else the names, else none', () => {
    expect(personKey(' Ana@Mail.Test ', 'Ana', 'Diaz')).toBe('e:ana@mail.test')
    expect(personKey('  ', 'Ana', 'Diaz')).toBe('n:Ana\u0000Diaz')
    expect(personKey(undefined, 'Ana', 5)).toBe('n:Ana\u0000')
    expect(personKey(5, null, 'Diaz')).toBe('n:\u0000Diaz')
    expect(personKey(null, '', '')).toBeNull()
    expect(personKey('', undefined, undefined)).toBeNull()
  })

  it('lookupKey trims and lower-cases; wordsKey also drops the punctuation at both ends', () => {
    expect(lookupKey('  Ana Diaz ')).toBe('ana diaz')
    expect(wordsKey(' "Ana Diaz!" ')).toBe('ana diaz')
    expect(wordsKey('¡Ana!')).toBe('ana')
    expect(wordsKey('((Ana))')).toBe('ana')
    expect(wordsKey('(...)')).toBe('')
    expect(wordsKey('Ana, Bo')).toBe('ana, bo')
  })
})
