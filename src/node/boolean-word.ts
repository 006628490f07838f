const YES = ['1', 'true', 'yes', 'on']
const NO = ['0', 'false', 'no', 'off']

/** The spellings a yes-or-no value may take, as an error message lists them. */
export const BOOLEAN_SPELLINGS = '1/0, true/false, yes/no or on/off (any case)'

/** A yes-or-no word (`1/0`, `true/false`, `yes/no`, `on/off`, any case) as a boolean, or undefined for any other text. */
export function booleanWord(text: string): boolean | undefined {
  const word = text.trim().toLowerCase()
  return YES.includes(word) ? true : NO.includes(word) ? false : undefined
}
