import { urlOfTarget } from './request-url.js'

/**
 * The most request targets whose URL is kept: a client, or a test suite's few clients, ask the same
 * pages again and again; a walk over pages, whose every target is new, empties it in a few steps.
 */
const KEPT_TARGETS = 256

/**
 * The longest target whose URL is kept (a real request's are a few dozen characters): the URLs kept
 * take at most about KEPT_TARGETS × 3 × KEPT_TARGET_CHARS × 2 bytes (the target, its URL's href and
 * its query), under a megabyte, whatever clients send.
 */
const KEPT_TARGET_CHARS = 512

/**
 * The URLs of a server's request targets (see urlOfTarget), each parsed once while it is kept, with
 * its query: a URL costs more to parse than the rest of a small page's answer, and the server and the
 * handlers only read it, never change it. Kept up to KEPT_TARGETS at once (then all let go), targets
 * up to KEPT_TARGET_CHARS long; a longer one is parsed every time.
 * @example const urls = new TargetUrls('http://127.0.0.1:4010'); urls.of('/v1/activations/list?limit=5')
 */
export class TargetUrls {
  readonly #origin: string
  readonly #kept = new Map<string, URL | null>()

  constructor(origin: string) {
    this.#origin = origin
  }

  /** The URL a request line names at the origin, or null when it names none (see urlOfTarget): the same object for the same target while it is kept. */
  of(target: string): URL | null {
    if (target.length > KEPT_TARGET_CHARS) return urlOfTarget(this.#origin, target)
    let url = this.#kept.get(target)
    if (url === undefined) {
      url = urlOfTarget(this.#origin, target)
      if (this.#kept.size >= KEPT_TARGETS) this.#kept.clear()
      this.#kept.set(target, url)
    }
    return url
  }
}
