import { OpenAPIBackend } from 'openapi-backend'
import { openApiDocument } from '../../src/contract.js'

// Every response the endpoint tests receive is checked against the OpenAPI document by a response
// validator library (openapi-backend, Ajv underneath): the document and the handlers cannot drift apart.

let backend: Promise<OpenAPIBackend> | undefined

/** openapi-backend over the generated document; `quick` skips its own document check, which knows only OpenAPI 3.0 (test/openapi.test.ts checks the document as 3.1). */
function validator(): Promise<OpenAPIBackend> {
  backend ??= new OpenAPIBackend({ definition: openApiDocument() as never, quick: true }).init()
  return backend
}

/**
 * Throws when a response of one of the API's operations does not match the document: its status must
 * be one the operation lists (or `default`), its content type JSON, its body the schema of that status.
 * Requests that reach no operation (another method, an unknown path) are not the document's.
 */
export async function expectMatchesOpenApi(
  baseUrl: string,
  request: { method: string; url: string },
  response: { status: number; headers: Headers; text: string },
): Promise<void> {
  const url = new URL(request.url)
  const base = new URL(baseUrl)
  const prefix = base.pathname.replace(/\/+$/, '')
  if (request.method !== 'GET' || url.origin !== base.origin || !url.pathname.startsWith(`${prefix}/`)) return
  const api = await validator()
  const operation = api.router.matchOperation({
    method: 'get',
    path: decodedPath(url.pathname.slice(prefix.length)),
    headers: {},
    query: {},
  })
  if (!operation) return
  const where = `${request.method} ${url.pathname}${url.search} answered ${response.status}`
  if (response.headers.get('content-type') !== 'application/json') {
    throw new Error(
      `${where} with content type ${response.headers.get('content-type')}, not the document's application/json`,
    )
  }
  const result = api.validateResponse(JSON.parse(response.text), operation, response.status)
  if (!result.valid) {
    const problems = (result.errors ?? []).map((e) => `${e.instancePath || '(body)'} ${e.message}`).join('; ')
    throw new Error(`${where}, which does not match the OpenAPI document (${operation.operationId}): ${problems}`)
  }
}

/** A path with each segment percent-decoded, as the emulator routes it (`/activations/lis%74` is the list). */
function decodedPath(path: string): string {
  try {
    return path
      .split('/')
      .map((segment) => decodeURIComponent(segment).replaceAll('/', '%2F'))
      .join('/')
  } catch {
    return path // broken percent-encoding: the emulator answers 400, checked against the raw path's operation
  }
}
