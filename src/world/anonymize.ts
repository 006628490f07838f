// `record --anonymize`: a recording whose people are fakes. Two passes over every page: the first
// collects who is in the recording and which strings are personal, the second rewrites each page,
// field by field where the field is known and, for what is not (fields the emulator does not know,
// at any depth), by replacing every recorded personal string, e-mail address and phone number it
// finds in it. Each fake is drawn from a Faker seeded by the anonymizing seed and the value it replaces
// (a person's e-mail, an address line, a text), so it does not depend on the order of the pages.

import { Collector } from './anonymize-collect.js'
import { type AnonymizeOptions, Fakes } from './anonymize-fakes.js'
import { Rewriter } from './anonymize-rewrite.js'
import { walkRecording } from './anonymize-walk.js'
import type { Recording } from './recording.js'

export type { AnonymizeOptions } from './anonymize-fakes.js'

/**
 * A copy of `recording` in which names, e-mail addresses, postal addresses, phone numbers, free-text
 * answers and uploaded media URLs are replaced by seeded fakes, consistently: a person (an e-mail,
 * case aside) gets one fake name and one fake e-mail everywhere. Ids, types, dates, counts, flags,
 * cursors, paths and statuses are kept, so the world built from it answers every filter as the
 * recorded one did. The input is not changed. Faker must be loadable synchronously (Node 20.19+, or
 * `loadFaker()` awaited first).
 * @example const shared = anonymizeRecording(recording, { seed: 7, keepEmailDomains: true })
 */
export function anonymizeRecording(recording: Recording, options: AnonymizeOptions = {}): Recording {
  const collected = new Collector()
  walkRecording(recording, collected)
  const fakes = new Fakes(collected, options)
  return walkRecording(recording, new Rewriter(fakes))
}
