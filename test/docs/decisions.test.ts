import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { dirname, join, normalize } from 'node:path'
import { describe, expect, it } from 'vitest'
import { headingAnchors, relativeLinks, ROOT } from '../support/doc-blocks.js'

// docs/decisions/ keeps why the code is as it is: one file a decision, each listed in its README.

const FOLDER = 'docs/decisions'
const files = readdirSync(join(ROOT, FOLDER))
  .filter((name) => name.endsWith('.md'))
  .sort()
  .map((name) => `${FOLDER}/${name}`)

describe('the decisions', () => {
  it('are each listed in their README', () => {
    const listed = new Set(relativeLinks(readFileSync(join(ROOT, FOLDER, 'README.md'), 'utf8')))
    const unlisted = files.filter((f) => !f.endsWith('/README.md') && !listed.has(f.slice(FOLDER.length + 1)))
    expect(unlisted).toEqual([])
  })

  it('link to files and headings that exist', () => {
    const broken: string[] = []
    for (const file of files) {
      for (const link of relativeLinks(readFileSync(join(ROOT, file), 'utf8'))) {
        const [path = '', anchor] = link.split('#')
        const target = path === '' ? file : normalize(join(dirname(file), path))
        if (!existsSync(join(ROOT, target))) broken.push(`${file}: ${link} (no file ${target})`)
        else if (anchor && !headingAnchors(readFileSync(join(ROOT, target), 'utf8')).has(anchor))
          broken.push(`${file}: ${link} (no heading or anchor #${anchor} in ${target})`)
      }
    }
    expect(broken).toEqual([])
  })
})
