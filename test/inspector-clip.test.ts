import { describe, expect, it } from 'vitest'
import { clip } from '../src/inspector/format.js'

// How the inspector's Entries view cuts an entry's JSON: whole up to the size, else before the last
// field or word that would not fit, with an ellipsis.
describe('clip', () => {
  const json = JSON.stringify({ answers: ['a first answer', 'a second'], totalCorrect: 3 })

  it('keeps a text of exactly the size whole', () => {
    expect(clip(json, json.length)).toBe(json)
  })

  it('cuts a text one past the size before its last field, with an ellipsis', () => {
    expect(clip(json, json.length - 1)).toBe('{"answers":["a first answer","a second"]…')
  })

  it('cuts before a word when that comes later than a field', () => {
    const cut = clip(json, 25)
    expect(cut).toBe('{"answers":["a first…')
  })

  it('cuts at the size when the text has no field or word to cut before', () => {
    expect(clip('x'.repeat(10), 9)).toBe(`${'x'.repeat(9)}…`)
  })
})
