/** The most text held between two writes: past it, written at once, so memory stays bounded. */
const HELD_CHARS = 64 * 1024

/**
 * How long a line may wait for the next write: too short for a person watching the log to notice,
 * long enough that a server answering thousands of requests a second writes hundreds of lines at once.
 */
const HELD_MS = 20

/**
 * Lines for standard output, written together at most HELD_MS after the first of them. A write is a
 * system call (standard output to a pipe or a file is written synchronously on Linux) and a pass
 * through Node's stream, which would cost a small page's answer more than its line: a write a line,
 * or even a turn of the event loop (one request or a few under load), is too often. Lines keep their
 * order; what is still held when the process exits is written then.
 * @example const log = new LogLines(process.stdout); log.write('GET / 200 0.4 ms\n')
 */
export class LogLines {
  readonly #out: { write(text: string): unknown }
  #held = ''
  #due = false

  constructor(out: { write(text: string): unknown }) {
    this.#out = out
    process.once('exit', () => this.flush())
  }

  /** Holds `text` (whole lines, each ending in a newline) for at most HELD_MS. */
  write(text: string): void {
    this.#held += text
    if (this.#held.length >= HELD_CHARS) this.flush()
    else if (!this.#due) {
      this.#due = true
      // Unref'd: held lines never keep the process alive; they are written at its exit.
      setTimeout(() => {
        this.#due = false
        this.flush()
      }, HELD_MS).unref()
    }
  }

  /** Writes what is held now. */
  flush(): void {
    if (this.#held === '') return
    const text = this.#held
    this.#held = ''
    this.#out.write(text)
  }
}
