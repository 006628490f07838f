#!/usr/bin/env node
// The `activation-emulator` command. Everything it does is in run.ts, over the library.
import { run } from './run.js'

const started = performance.now()
const code = await run(process.argv.slice(2), started)
if (code !== 0) process.exit(code)
