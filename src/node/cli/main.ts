#!/usr/bin/env node
// The `activation-emulator` command. Everything it does is in run.ts, over the library.
import { run } from './run.js'

// Timed from the start of the process (performance.now() counts from there), module loading included.
const code = await run(process.argv.slice(2), 0)
if (code !== 0) process.exit(code)
