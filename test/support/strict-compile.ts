import { fileURLToPath } from 'node:url'
import ts from 'typescript'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

/**
 * Compiles a file as a strict client project would (NodeNext, strict, noUncheckedIndexedAccess,
 * verbatimModuleSyntax, the DOM's fetch), with some files' text replaced: its type errors, each as
 * `path:line: message` (the path from the repository's root).
 */
export function strictErrors(file: string, replaced: Record<string, string> = {}): string[] {
  const options: ts.CompilerOptions = {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
    types: [],
    strict: true,
    noUncheckedIndexedAccess: true,
    verbatimModuleSyntax: true,
    skipLibCheck: true,
    noEmit: true,
  }
  const host = ts.createCompilerHost(options)
  const readFile = host.readFile.bind(host)
  host.readFile = (name) => replaced[name] ?? readFile(name)
  const getSourceFile = host.getSourceFile.bind(host)
  host.getSourceFile = (name, language, onError) =>
    name in replaced ? ts.createSourceFile(name, replaced[name]!, language) : getSourceFile(name, language, onError)
  const program = ts.createProgram([file], options, host)
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where =
      d.file && d.start !== undefined
        ? `${d.file.fileName.slice(ROOT.length)}:${d.file.getLineAndCharacterOfPosition(d.start).line + 1}`
        : ''
    return `${where}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`
  })
}
