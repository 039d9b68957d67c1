import { execFile } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { ESLint } from 'eslint'
import { test } from 'tap'
import moduleBoundary from '../../eslint-rules/module-boundary.js'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const DPDM = join(ROOT, 'node_modules', '.bin', 'dpdm')

/** The boundary rule alone, on the project's real tree (which folders are modules is read from it). */
const eslint = new ESLint({
  cwd: ROOT,
  overrideConfigFile: true,
  overrideConfig: [{
    files: ['**/*.ts'],
    plugins: { svc: { rules: { 'module-boundary': moduleBoundary } } },
    rules: { 'svc/module-boundary': 'error' }
  }]
})

async function problems (file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(ROOT, file) })
  return result!.messages.map((message) => message.message)
}

test('an import of another module\'s private file is refused, naming the module', async (t) => {
  const found = await problems('plugins/svc-free/probe.ts', "import { PasswordHasher } from '../shop/auth/password.ts'\n")
  t.equal(found.length, 1)
  t.match(found[0], /plugins\/shop\/ through its index\.ts/)
})

test('an import of another module through its index.ts is allowed', async (t) => {
  t.same(await problems('plugins/svc-free/probe.ts', "import { shopPlugin } from '../shop/index.ts'\n"), [])
})

test('files of one module import each other freely', async (t) => {
  t.same(await problems('plugins/shop/probe.ts', "import { PasswordHasher } from './auth/password.ts'\n"), [])
})

test('browser code and tests are held to the same boundary', async (t) => {
  t.equal((await problems('client/probe.ts', "import { settingsProblems } from '../plugins/settings/document.ts'\n")).length, 1)
  t.equal((await problems('test/app/probe.test.ts', "import { PasswordHasher } from '../../plugins/shop/auth/password.ts'\n")).length, 1)
})

test('a module\'s own tests (under test/<its path>/) may reach its files', async (t) => {
  t.same(await problems('test/plugins/shop/probe.test.ts', "import { PasswordHasher } from '../../../plugins/shop/auth/password.ts'\n"), [])
})

test('lint:cycles fails on an import circle, type-only imports included, and names it', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'svc-cycle-'))
  t.teardown(() => rm(dir, { recursive: true, force: true }))
  await writeFile(join(dir, 'a.ts'), "import type { B } from './b.ts'\nexport interface A { b?: B }\n")
  await writeFile(join(dir, 'b.ts'), "import type { A } from './a.ts'\nexport interface B { a?: A }\n")
  const run = promisify(execFile)(DPDM, ['--no-tree', '--no-warning', '--exit-code', 'circular:1', '--transform', 'false', 'a.ts', 'b.ts'], { cwd: dir })
  const failure = await run.then(() => null, (error: { code: number, stdout: string }) => error)
  t.ok(failure, 'dpdm exits with an error')
  t.equal(failure?.code, 1)
  t.match(failure?.stdout ?? '', /a\.ts -> b\.ts/)
})
