import { execFile } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { test } from 'tap'

// ESLint runs in a process of its own: its configuration loads plugins that do not load under the test runner's
// TypeScript hooks.
interface LintResult { filePath: string, messages: Array<{ ruleId: string | null, message: string, line: number }> }

/** Runs `command` with `args`, `stdin` as its input, and parses the JSON report it prints (its exit code aside). */
function jsonReport (command: string, args: string[], stdin?: string): Promise<LintResult[]> {
  return new Promise((resolve, reject) => {
    const child = execFile(command, args, { maxBuffer: 64 * 1024 * 1024 }, (error, stdout) => {
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

/**
 * ESLint in a process of its own with the project's configuration (`eslint.config.js`: its parsers, files, ignores and
 * the module-boundary rule's options as `npm run lint` has them) and every other rule turned off, which makes it
 * fast: the other rules are `npm run lint`'s business. Given `texts`, the findings for each source as if it were the
 * file at its path (what `eslint --stdin --stdin-filename` does); given `patterns`, for the files they match.
 */
const LINT = `
import { ESLint } from 'eslint'
import { pathToFileURL } from 'node:url'
let input = ''
for await (const chunk of process.stdin) input += chunk
const { texts, patterns } = JSON.parse(input)
const config = (await import(pathToFileURL(process.cwd() + '/eslint.config.js').href)).default
const boundaryOnly = config.map((entry) => entry.plugins?.svc !== undefined ? entry : { ...entry, rules: {} })
const eslint = new ESLint({ overrideConfigFile: true, overrideConfig: boundaryOnly })
const results = []
for (const { filePath, source } of texts ?? []) results.push(...await eslint.lintText(source, { filePath }))
if (patterns !== undefined) results.push(...await eslint.lintFiles(patterns))
process.stdout.write(JSON.stringify(results))
`

function boundaryLint (input: { texts?: Array<{ filePath: string, source: string }>, patterns?: string[] }): Promise<LintResult[]> {
  return jsonReport(process.execPath, ['--input-type=module', '--eval', LINT], JSON.stringify(input))
}

function lintTexts (texts: Array<{ filePath: string, source: string }>): Promise<LintResult[]> {
  return boundaryLint({ texts })
}

test("the lint refuses an import into another module's private files, and allows its index.ts", async (t) => {
  const cases: Array<[string, string, boolean]> = [
    ['drawer/plugins/svc-pro/example.ts', "import { changeCart } from '../svc-free/request-cart.ts'\nexport { changeCart }\n", true],
    ['drawer/plugins/svc-pro/example.ts', "import { changeCart } from '../svc-free/index.ts'\nexport { changeCart }\n", false],
    ['drawer/plugins/svc-pro/example.ts', "import { restError } from '../../../kernel/errors/index.ts'\nexport { restError }\n", false],
    ['drawer/plugins/svc-pro/example.ts', "import { priceCart } from '../../../kernel/domain/totals.ts'\nexport { priceCart }\n", false],
    ['drawer/plugins/svc-pro/example.ts', "import { CartHooks } from '../../port/index.ts'\nexport { CartHooks }\n", false],
    ['hosts/reference-shop/auth/example.ts', "import { isCartKey } from '../session/cart-key.ts'\nexport { isCartKey }\n", false],
    // The drawer is sealed: a host reaches only drawer/index.ts, not an inner module's index.
    ['hosts/reference-shop/auth/example.ts', "import { DrawerCart } from '../../../drawer/plugins/store-api-extension/drawer-cart.ts'\nexport { DrawerCart }\n", true],
    ['hosts/reference-shop/auth/example.ts', "import { CartHooks } from '../../../drawer/port/index.ts'\nexport { CartHooks }\n", true],
    ['hosts/reference-shop/auth/example.ts', "import { CartHooks } from '../../../drawer/index.ts'\nexport { CartHooks }\n", false],
    ['examples/example.ts', "import { svcProPlugin } from '../drawer/plugins/svc-pro/index.ts'\nexport { svcProPlugin }\n", true],
    // So is the reference shop.
    ['app.ts', "import { CartService } from './hosts/reference-shop/cart/cart-service.ts'\nexport { CartService }\n", true],
    ['app.ts', "import { healthPlugin } from './hosts/reference-shop/health/index.ts'\nexport { healthPlugin }\n", true],
    ['app.ts', "import { healthPlugin } from './hosts/reference-shop/index.ts'\nexport { healthPlugin }\n", false],
    ['seed/example.ts', "import { hashPassword } from '../hosts/reference-shop/auth/password.ts'\nexport { hashPassword }\n", true],
    ['seed/example.ts', "import { hashPassword } from '../hosts/reference-shop/index.ts'\nexport { hashPassword }\n", false],
    ['testing/example.ts', "import { CartService } from '../hosts/reference-shop/cart/cart-service.ts'\nexport { CartService }\n", true],
    ['testing/example.ts', "import { CartHooks } from '../drawer/index.ts'\nexport { CartHooks }\n", false],
    // An unsealed module's inner modules stay public: storage/contract/ is what the drawer reads without the clients.
    ['kernel/errors/example.ts', "import { StorageUnavailableError } from '../../storage/contract/errors.ts'\nexport { StorageUnavailableError }\n", true],
    ['kernel/errors/example.ts', "import { StorageUnavailableError } from '../../storage/contract/index.ts'\nexport { StorageUnavailableError }\n", false],
    ['drawer/client/example.ts', "import { settingsProblems } from '../plugins/settings/document.ts'\nexport { settingsProblems }\n", true],
    ['test/app/example.test.ts', "import { PasswordHasher } from '../../hosts/reference-shop/auth/password.ts'\nexport { PasswordHasher }\n", true],
    ['test/app/example.test.ts', "import { securityPlugin } from '../../drawer/plugins/security/index.ts'\nexport { securityPlugin }\n", true],
    // A module's own unit tests, under test/<its path>/, may reach its files.
    ['test/hosts/reference-shop/example.test.ts', "import { PasswordHasher } from '../../../hosts/reference-shop/auth/password.ts'\nexport { PasswordHasher }\n", false],
    ['test/drawer/plugins/security/example.test.ts', "import { countRequest } from '../../../../drawer/plugins/security/rate-limit.ts'\nexport { countRequest }\n", false]
  ]
  const results = await lintTexts(cases.map(([filePath, source]) => ({ filePath, source })))
  t.equal(results.length, cases.length, 'one report per source')
  for (const [index, [file, source, refused]] of cases.entries()) {
    const result = results[index]!
    t.equal(result.filePath, join(process.cwd(), file), `${file}: reported as that file`)
    const errors = result.messages.filter((message) => message.ruleId === 'svc/module-boundary').map((message) => message.message)
    const line = source.split('\n')[0]
    if (refused) t.match(errors, [/through its index\.ts: .* is private to that module/], `${file}: ${line} is refused`)
    else t.same(errors, [], `${file}: ${line} is allowed`)
  }
})

test('the lint holds the tests to the port contract kit\'s index.ts, as the package entry cart-drawer-service/testing', async (t) => {
  const cases: Array<[string, string, boolean]> = [
    ['test/port/example.test.ts', "import { same } from '../../testing/checks.ts'\nexport { same }\n", true],
    ['test/port/node-test/example.ts', "import { createMemoryHost } from '../../../testing/memory-host.ts'\nexport { createMemoryHost }\n", true],
    ['test/port/example.test.ts', "import { createMemoryHost } from '../../testing/index.ts'\nexport { createMemoryHost }\n", false]
  ]
  const results = await lintTexts(cases.map(([filePath, source]) => ({ filePath, source })))
  for (const [index, [file, source, refused]] of cases.entries()) {
    const errors = results[index]!.messages.filter((message) => message.ruleId === 'svc/module-boundary').map((message) => message.message)
    const line = source.split('\n')[0]
    if (refused) t.match(errors, [/Import testing\/ through its index\.ts/], `${file}: ${line} is refused`)
    else t.same(errors, [], `${file}: ${line} is allowed`)
  }
})

test('no file of the tree imports another module past its index.ts', async (t) => {
  const results = await boundaryLint({ patterns: ['.'] })
  const crossings = results.flatMap((result) => result.messages
    .filter((message) => message.ruleId === 'svc/module-boundary')
    .map((message) => `${result.filePath}:${message.line}`))
  t.same(crossings, [], 'none')
  t.ok(results.length > 100, `${results.length} files linted`)
})

test('lint:cycles fails on an import circle, type-only imports included, and names it', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'svc-cycle-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  await writeFile(join(dir, 'a.ts'), "import type { B } from './b.ts'\nexport interface A { b?: B }\n")
  await writeFile(join(dir, 'b.ts'), "import type { A } from './a.ts'\nexport interface B { a?: A }\n")
  const dpdm = join(process.cwd(), 'node_modules', '.bin', 'dpdm')
  const args = ['--no-tree', '--no-warning', '--exit-code', 'circular:1', '--transform', 'false', 'a.ts', 'b.ts']
  const failure = await promisify(execFile)(dpdm, args, { cwd: dir }).then(() => null, (error: { code: number, stdout: string }) => error)
  t.equal(failure?.code, 1, 'dpdm exits with 1')
  t.match(failure?.stdout ?? '', /a\.ts -> b\.ts|b\.ts -> a\.ts/, 'and names the circle')
})
