import { defineConfig } from 'vite'

export default defineConfig({
  // One msw for the worker and the handlers, also when activation-emulator is linked from a folder
  // (`file:../..`, `npm link`), where its own node_modules would bring a second copy.
  resolve: { dedupe: ['msw'] },
  build: { target: 'es2022' },
})
