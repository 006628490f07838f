/**
 * How many cases a heavy property test tries: `npm test` runs fewer (the `quick` count, under the same
 * fixed seeds, so that CI answers the same every time), `npm run test:deep` (ACTIVATION_EMULATOR_DEEP=1,
 * vitest.deep.config.ts) the full count. A file that reads FC_RUNS to hunt still lets it win over both.
 */
const DEEP = process.env['ACTIVATION_EMULATOR_DEEP'] === '1'

/** `quick` in `npm test`, `deep` in `npm run test:deep`. */
export function numRuns(quick: number, deep: number): number {
  return DEEP ? deep : quick
}
