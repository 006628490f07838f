import { writeFile } from 'node:fs/promises'
import { openApiDocument } from '../../contract/openapi.js'

export type OpenApiArgs = { out?: string | undefined; serverUrl?: string | undefined }

/** `activation-emulator openapi`: prints the OpenAPI 3.1 document of the API, to stdout or --out. */
export async function openApiCommand(args: OpenApiArgs, version: string): Promise<void> {
  const text = `${JSON.stringify(openApiDocument({ baseUrl: args.serverUrl, version }), null, 2)}\n`
  if (args.out === undefined) {
    process.stdout.write(text)
    return
  }
  try {
    await writeFile(args.out, text)
  } catch (error) {
    throw new Error(`Failed to write the OpenAPI document to ${args.out}: ${(error as Error).message}`, {
      cause: error,
    })
  }
}
