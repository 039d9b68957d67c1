import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { test } from 'tap'

/**
 * The port contract kit (`cart-drawer-service/testing`) without tap: node:test runs it in a process of its own, as a
 * host that uses Node's runner would (`node --import tsx --test`), against the in-memory host, which passes, and
 * against that host with a broken `carts.change` (it ignores an add's quantity), which fails naming the duty.
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url))

interface Run { code: number, output: string }

function nodeTest (file: string): Promise<Run> {
  // tap's own loaders and coverage stay out of the child: it is a plain node:test run.
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) =>
    !/^(TAP|_TAPJS|NODE_OPTIONS$|NODE_V8_COVERAGE$|FORCE_COLOR$)/.test(name)))
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=tap', file], { cwd: ROOT, env: { ...env, NO_COLOR: '1' }, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error !== null && typeof error.code !== 'number') reject(error)
        else resolve({ code: error === null ? 0 : Number(error.code), output: stdout + stderr })
      })
  })
}

const count = (output: string, what: string): number => Number(new RegExp(`^# ${what} (\\d+)$`, 'm').exec(output)?.[1] ?? NaN)

test('under node:test, the in-memory host passes the contract', async (t) => {
  const { code, output } = await nodeTest('test/port/node-test/memory-host.node.ts')
  t.equal(code, 0, 'node --test exits 0', { output: output.slice(-4000) })
  t.ok(count(output, 'pass') > 10, `every duty passed (${count(output, 'pass')})`)
  t.equal(count(output, 'fail'), 0, 'none failed')
  t.equal(count(output, 'tests'), count(output, 'pass'), 'every test ran and passed')
})

test('under node:test, a port whose carts.change ignores the quantity of an add fails the contract, naming that duty', async (t) => {
  const { code, output } = await nodeTest('test/port/node-test/broken-add-item.node.ts')
  t.equal(code, 1, 'node --test exits 1')
  t.match(output, /^ {4}not ok \d+ - carts\.change applies a list of changes/m, 'the subtest of the duty failed')
  t.match(output, 'carts.change: must add one line with the quantity given (2)', 'the failure says which duty of the port was broken')
  t.match(output, /^ {4}ok \d+ - cartKeyOfToken: /m, 'the duties the port keeps still pass')
  t.ok(count(output, 'fail') >= 1, `failed: ${count(output, 'fail')}`)
})
