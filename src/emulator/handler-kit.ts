// What makes an emulator's msw handlers. Loaded by createEmulator with `import()`, not with the
// package: msw's main entry (with GraphQL's parser, which it imports whole) is then read only by a
// process that creates an emulator, not by one that only imports the package (a test file that talks
// to a shared server through useSandbox, a client of the types).
// msw's pieces that the handlers use, loaded before any is made: from the same modules as the handlers.
export { loadMswRuntime } from '../../handlers/msw-runtime.js'
export { createAdminHandlers } from '../../handlers/admin/index.js'
export { createHandlers } from '../../handlers/index.js'
export { sandboxRouter } from '../../handlers/sandbox-router.js'
