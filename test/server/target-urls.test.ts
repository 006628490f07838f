import { describe, expect, it } from 'vitest'
import { TargetUrls } from '../../src/node/server/target-urls.js'

const origin = 'http://127.0.0.1:4010'

describe('TargetUrls', () => {
  it('gives the same URL for the same target, and its own to another', () => {
    const urls = new TargetUrls(origin)
    const first = urls.of('/v1/activations/list?limit=100')
    expect(first?.href).toBe(`${origin}/v1/activations/list?limit=100`)
    expect(urls.of('/v1/activations/list?limit=100')).toBe(first)
    expect(urls.of('/v1/activations/list?limit=99')?.href).toBe(`${origin}/v1/activations/list?limit=99`)
  })

  it('resolves dot segments as urlOfTarget does, and gives null for a target that is no path, kept or not', () => {
    const urls = new TargetUrls(origin)
    expect(urls.of('/x/../__emulator/clock')?.pathname).toBe('/__emulator/clock')
    expect(urls.of('*')).toBeNull()
    expect(urls.of('*')).toBeNull()
  })

  it('keeps a target of 512 characters, and parses one of 513 anew each time', () => {
    const urls = new TargetUrls(origin)
    const at = `/v1/activations/list?q=${'a'.repeat(512 - 23)}`
    expect(at).toHaveLength(512)
    expect(urls.of(at)).toBe(urls.of(at))
    const past = `${at}b`
    const once = urls.of(past)
    const again = urls.of(past)
    expect(again).not.toBe(once)
    expect(again?.href).toBe(`${origin}${past}`)
  })

  it('keeps 256 targets, and lets them all go at the 257th', () => {
    const urls = new TargetUrls(origin)
    const first = urls.of('/t/0')
    for (let i = 1; i < 256; i++) urls.of(`/t/${i}`)
    expect(urls.of('/t/0')).toBe(first)
    urls.of('/t/256')
    const again = urls.of('/t/0')
    expect(again).not.toBe(first)
    expect(again?.href).toBe(first?.href)
  })
})
