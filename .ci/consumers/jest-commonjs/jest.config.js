// ts-jest's default preset (TypeScript compiled to CommonJS, type-checked), and what msw needs under
// Jest: its ES-module-only dependencies compiled to CommonJS by babel-jest (babel.config.js).
const { createDefaultPreset } = require('ts-jest')

const preset = createDefaultPreset()

/** @type {import('jest').Config} */
module.exports = {
  ...preset,
  testEnvironment: 'node',
  transform: { ...preset.transform, '^.+\\.m?js$': 'babel-jest' },
  transformIgnorePatterns: ['/node_modules/(?!(rettime|until-async|@open-draft/deferred-promise)/)'],
}
