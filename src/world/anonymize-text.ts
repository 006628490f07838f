// What the anonymizer (anonymize.ts) finds in a string: e-mail addresses, phone numbers, words, and the
// keys under which a person and a personal string are looked up.

const EMAIL = String.raw`[\p{L}\p{N}._%+'-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.\p{L}{2,}`
const PHONE = String.raw`(?<![\p{L}\p{N}_+.])\+?\(?\d[\d ().\-]{5,}\d(?![\p{L}\p{N}_])`
/** E-mail addresses (group 1) and phone-like runs of digits (group 2), as they occur in a string. */
export const SPECIAL = new RegExp(`(${EMAIL})|(${PHONE})`, 'gu')
const WHOLE_EMAIL = new RegExp(`^${EMAIL}$`, 'u')
const WHOLE_PHONE = new RegExp(`^${PHONE}$`, 'u')
/** A word: letters and digits, with inner apostrophes, dots, hyphens, underscores and plus signs. */
export const WORD = /[\p{L}\p{N}]+(?:['’._+-][\p{L}\p{N}]+)*/gu

/** Whether a run of digits found by PHONE is a phone number: 7 to 15 digits, not a date, not a decimal number. */
export function isPhone(text: string): boolean {
  const digits = text.replace(/\D/g, '').length
  if (digits < 7 || digits > 15) return false
  // A date (2026-06-01, 06-01-2026, 1.6.2026) or a decimal number.
  if (/^\d{4}-\d{2}-\d{2}|^\d{1,2}[-.]\d{1,2}[-.]\d{4}$|^\d+\.\d+$/.test(text)) return false
  return /[+()\s-]/.test(text) || digits >= 10 || /^\d+(\.\d+){2,}$/.test(text)
}

export const looksLikeEmail = (text: string): boolean => WHOLE_EMAIL.test(text.trim())
export const looksLikePhone = (text: string): boolean => WHOLE_PHONE.test(text.trim()) && isPhone(text.trim())
/** Answers made of digits and separators only (a ZIP code, a number): faked digit for digit. */
export const looksNumeric = (text: string): boolean => /^[\d\s().,+/-]*\d[\d\s().,+/-]*$/.test(text)

/** The key of a person: their e-mail, trimmed and lower-cased; or, without one, their name. */
export function personKey(email: unknown, firstName: unknown, lastName: unknown): string | null {
  if (typeof email === 'string' && email.trim() !== '') return `e:${email.trim().toLowerCase()}`
  const first = typeof firstName === 'string' ? firstName : ''
  const last = typeof lastName === 'string' ? lastName : ''
  return first || last ? `n:${first}\u0000${last}` : null
}

/** The lower-cased, trimmed form under which a personal string is looked up. */
export const lookupKey = (text: string): string => text.trim().toLowerCase()
/** The same, without leading and trailing punctuation: what a run of words found inside a longer string can match. */
export const wordsKey = (text: string): string => lookupKey(text).replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '')

/** A string that must not be kept even in a field that is otherwise kept: an e-mail address or a phone number. */
export const looksPersonal = (text: string): boolean => looksLikeEmail(text) || looksLikePhone(text)
