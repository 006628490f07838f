// Jest runs the TypeScript tests as ES modules (`node --experimental-vm-modules`, see package.json):
// ts-jest's ESM preset transforms .ts files, the mapper lets `../src/client.js` name client.ts, as
// TypeScript's NodeNext imports do, and isolatedModules (tsconfig.json) has ts-jest transpile each
// file without type-checking it (tsc --noEmit does that once, before Jest).
import { createDefaultEsmPreset } from 'ts-jest'

/** @type {import('jest').Config} */
export default {
  ...createDefaultEsmPreset(),
  testEnvironment: 'node',
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  globalSetup: './test/global-setup.ts',
  globalTeardown: './test/global-teardown.ts',
}
