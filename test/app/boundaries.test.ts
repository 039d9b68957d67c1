import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { test } from 'tap'

// ESLint runs as the project runs it (`npm run lint`), in a process of its own: its configuration loads plugins that
// do not load under the test runner's TypeScript hooks.
const ESLINT = join(process.cwd(), 'node_modules', '.bin', 'eslint')

interface LintResult { filePath: string, messages: Array<{ ruleId: string | null, message: string, line: number }> }

function eslint (args: string[], stdin?: string): Promise<LintResult[]> {
  return new Promise((resolve, reject) => {
    const child = execFile(ESLINT, ['--format', 'json', ...args], { maxBuffer: 64 * 1024 * 1024 }, (error, stdout) => {
      // ESLint exits 1 when it finds problems: the JSON report is what counts.
      try {
        resolve(JSON.parse(stdout) as LintResult[])
      } catch {
        reject(error ?? new Error(`eslint printed no report: ${stdout.slice(0, 200)}`))
      }
    })
    if (stdin !== undefined) child.stdin?.end(stdin)
  })
}

/** The boundary rule's findings for `source` as if it were the file at `filePath`. */
async function boundaryErrors (filePath: string, source: string): Promise<string[]> {
  const [result] = await eslint(['--stdin', '--stdin-filename', filePath], source)
  return (result?.messages ?? []).filter((message) => message.ruleId === 'no-restricted-imports').map((message) => message.message)
}

test("the lint refuses an import into another plugin's private files, and allows its index.ts", async (t) => {
  const cases: Array<[string, string, boolean]> = [
    ['plugins/svc-pro/example.ts', "import { changeCart } from '../svc-free/request-cart.ts'\nexport { changeCart }\n", true],
    ['plugins/svc-pro/example.ts', "import { changeCart } from '../svc-free/index.ts'\nexport { changeCart }\n", false],
    ['plugins/svc-pro/example.ts', "import { restError } from '../../errors/index.ts'\nexport { restError }\n", false],
    ['plugins/svc-pro/example.ts', "import { priceCart } from '../../domain/totals.ts'\nexport { priceCart }\n", false],
    ['plugins/shop/auth/example.ts', "import { DrawerCart } from '../../store-api-extension/drawer-cart.ts'\nexport { DrawerCart }\n", true],
    ['plugins/shop/auth/example.ts', "import { isCartKey } from '../session/cart-key.ts'\nexport { isCartKey }\n", false],
    ['app.ts', "import { CartService } from './plugins/shop/cart/cart-service.ts'\nexport { CartService }\n", true],
    ['seed/example.ts', "import { hashPassword } from '../plugins/shop/auth/password.ts'\nexport { hashPassword }\n", true],
    ['seed/example.ts', "import { hashPassword } from '../plugins/shop/index.ts'\nexport { hashPassword }\n", false]
  ]
  for (const [file, source, refused] of cases) {
    const errors = await boundaryErrors(file, source)
    const line = source.split('\n')[0]
    if (refused) t.match(errors, [/index\.ts only: it is the plugin's public surface/], `${file}: ${line} is refused`)
    else t.same(errors, [], `${file}: ${line} is allowed`)
  }
})

test('no file of the tree imports another plugin past its index.ts', async (t) => {
  const results = await eslint(['plugins', 'app.ts', 'server.ts', 'config', 'seed', 'scripts', 'bench', 'storage', 'lib'])
  const crossings = results.flatMap((result) => result.messages
    .filter((message) => message.ruleId === 'no-restricted-imports')
    .map((message) => `${result.filePath}:${message.line}`))
  t.same(crossings, [], 'none')
  t.ok(results.length > 100, `${results.length} files linted`)
})
