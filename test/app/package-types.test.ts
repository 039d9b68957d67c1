import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { test } from 'tap'

const APP = fileURLToPath(new URL('../../app.ts', import.meta.url))
const PORT_INDEX = fileURLToPath(new URL('../../drawer/port/index.ts', import.meta.url))
const PORT = fileURLToPath(new URL('../../drawer/port/port.ts', import.meta.url))

test('every type the commerce port declares or names is exported from the package root', async (t) => {
  const program = ts.createProgram([APP, PORT_INDEX], {
    noEmit: true,
    allowImportingTsExtensions: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    skipLibCheck: true,
    types: []
  })
  const checker = program.getTypeChecker()
  const exportsOf = (file: string) => {
    const symbol = checker.getSymbolAtLocation(program.getSourceFile(file)!)!
    return new Set(checker.getExportsOfModule(symbol).map((exported) => exported.name))
  }
  const root = exportsOf(APP)
  // What the port's one page offers a host, and the shapes it names from the domain and the storage contract.
  const named = new Set(exportsOf(PORT_INDEX))
  for (const statement of program.getSourceFile(PORT)!.statements) {
    if (!ts.isImportDeclaration(statement)) continue
    const bindings = statement.importClause?.namedBindings
    if (bindings !== undefined && ts.isNamedImports(bindings)) {
      for (const element of bindings.elements) {
        if (!statement.moduleSpecifier.getText().includes('fastify')) named.add(element.name.text)
      }
    }
  }
  t.ok(named.size > 20, `the port names its types (${named.size} found)`)
  const missing = [...named].filter((name) => !root.has(name)).sort()
  t.same(missing, [], 'no type of the port is missing from app.ts\'s exports')
})
