// How the page writes an instant and a status.

/** An ISO instant as the page shows it: a space for the T, no milliseconds. */
export const shortTime = (iso: string) => iso.replace('T', ' ').replace(/\.\d{3}Z$/, 'Z')

/** The class that colours a status by its hundred (`s2` to `s5`; `s0` for a dropped connection). */
export const statusClass = (status: number) => `s${Math.floor(status / 100)}`
