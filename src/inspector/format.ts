// How the page writes an instant and a status.

/** An ISO instant as the page shows it: a space for the T, no milliseconds. */
export const shortTime = (iso: string) => iso.replace('T', ' ').replace(/\.\d{3}Z$/, 'Z')

/** The class that colours a status by its hundred (`s2` to `s5`; `s0` for a dropped connection). */
export const statusClass = (status: number) => `s${Math.floor(status / 100)}`

/**
 * A text of at most `max` characters and an ellipsis, cut before the last field (a comma) or word (a
 * space) that would not fit whole; the text itself when it fits.
 */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text
  const head = text.slice(0, max + 1)
  const at = Math.max(head.lastIndexOf(','), head.lastIndexOf(' '))
  return `${at > 0 ? head.slice(0, at) : head.slice(0, max)}…`
}
