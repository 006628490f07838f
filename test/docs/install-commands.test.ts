import { describe, expect, it } from 'vitest'
import { guideFiles, readDocBlocks } from '../support/doc-blocks.js'

// The package is not on the npm registry yet: every guide installs it the one way the README shows,
// from the tarball `npm pack` writes, and says how to make a project an ES module where it installs it.
const installs = guideFiles().flatMap((file) =>
  readDocBlocks(file)
    .filter((block) => block.kind === 'shell')
    .flatMap((block) => block.source.split('\n').map((line) => ({ file, line })))
    .filter(({ line }) => /\bnpm (install|i|add)\b.*activation-emulator/.test(line)),
)

describe('installing the package, as the guides say it', () => {
  it('is from the packed tarball, in every guide', () => {
    expect(installs.length).toBeGreaterThan(1)
    expect(installs.filter(({ line }) => !/activation-emulator-[\d.]+\.tgz/.test(line))).toEqual([])
  })

  it('makes the project an ES module first, in the README', () => {
    const readme = installs.filter(({ file }) => file === 'README.md')
    expect(readme).toHaveLength(1)
    const block = readDocBlocks('README.md').find((b) => b.source.includes(readme[0]!.line))!
    expect(block.source.indexOf('npm pkg set type=module')).toBeGreaterThan(-1)
    expect(block.source.indexOf('npm pkg set type=module')).toBeLessThan(block.source.indexOf(readme[0]!.line))
  })
})
