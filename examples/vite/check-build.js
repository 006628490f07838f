// What `npm test` checks of the build (CI runs it on the package installed from its tarball): the
// bundler took the package's browser entry, so the emulator is in its own chunk and nothing of the
// Node server (its messages, node:http) came with it.
import { readdirSync, readFileSync } from 'node:fs'

const assets = readdirSync('dist/assets').filter((f) => f.endsWith('.js'))
const mocks = assets.find((f) => f.startsWith('mocks'))
if (!mocks) throw new Error(`No chunk of the emulator among ${assets.join(', ')}`)
for (const file of assets) {
  const code = readFileSync(`dist/assets/${file}`, 'utf8')
  const node = ['node:http', 'is already in use on', 'Request header fields too large'].filter((s) => code.includes(s))
  if (node.length) throw new Error(`${file} carries Node-only code: ${node.join(', ')}`)
}
console.log(`vite build: the emulator in ${mocks}, no Node-only code in ${assets.length} scripts`)
