#!/usr/bin/env node
// The `activation-emulator` command. Everything it does is in run.ts, over the library.
import { loadMswInNode } from '../msw-in-node.js'
import { encodeUtf8InNode } from '../utf8-in-node.js'
import { run } from './run.js'

// msw's pieces read as Node can (see msw-in-node.ts), and records' bytes written by Buffer (see
// utf8-in-node.ts), as the package's Node entry has them.
loadMswInNode()
encodeUtf8InNode()

// Timed from the start of the process (performance.now() counts from there), module loading included.
const code = await run(process.argv.slice(2), 0)
if (code !== 0) process.exit(code)
