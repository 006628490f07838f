export default async function globalTeardown() {
  await globalThis.activationEmulatorServer?.close()
}
