/**
 * Counts the commerce port's members as a host developer meets them: each required operation and value once, the
 * members of the nested `carts` and `filters` one by one, and the optional ones apart.
 * `npx tsx scripts/port-members.ts`
 */
import { fileURLToPath } from 'node:url'
import ts from 'typescript'

const PORT = fileURLToPath(new URL('../drawer/port/port.ts', import.meta.url))
const NESTED = new Set(['carts', 'filters'])

const program = ts.createProgram([PORT], {
  noEmit: true,
  allowImportingTsExtensions: true,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  target: ts.ScriptTarget.ES2022,
  skipLibCheck: true,
  types: []
})
const checker = program.getTypeChecker()
const declaration = program.getSourceFile(PORT)!.statements
  .find((statement): statement is ts.InterfaceDeclaration => ts.isInterfaceDeclaration(statement) && statement.name.text === 'CommercePort')!

const required: string[] = []
const optional: string[] = []
function count (type: ts.Type, prefix: string): void {
  for (const member of type.getProperties()) {
    const isOptional = (member.flags & ts.SymbolFlags.Optional) !== 0
    if (!isOptional && prefix === '' && NESTED.has(member.name)) {
      count(checker.getTypeOfSymbol(member), `${member.name}.`)
      continue
    }
    (isOptional ? optional : required).push(prefix + member.name)
  }
}
count(checker.getTypeAtLocation(declaration), '')
console.log(`required ${required.length}: ${required.join(', ')}`)
console.log(`optional ${optional.length}: ${optional.join(', ')}`)
