/**
 * The package as a shop installs it: `npm pack` builds the tarball, a new project outside the repository installs it
 * (with fastify and @fastify/cookie, as the example asks, and tsx to run its TypeScript), the example host
 * (examples/memory-shop/) is copied in unchanged, a node:test file runs the port contract kit of the installed
 * `cart-drawer-service/testing` against the package's in-memory host and the copied example, then the example is
 * started and Chromium adds a tea to the cart on its shop page and sees the drawer open with the line. The second
 * example (examples/own-cart-shop/, a shop whose cart, totals and coupons are its own) is copied in too: the kit runs
 * against it, and it is started in both editions for Chromium (test/packed/own-cart-browser.ts). Run by
 * `npm run test:packed` (and by .ci/run); its browser part needs Chromium.
 */
import { execFile } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium } from 'playwright-core'
import tap, { test, type Test } from 'tap'
import { CHROMIUM_FLAGS, chromiumPath, SCREENSHOTS } from '../browser/helpers.ts'
import { startExample } from './example-server.ts'
import { ownCartChecks } from './own-cart-browser.ts'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
tap.setTimeout(600_000)

function run (command: string, args: string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { cwd, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, npm_config_update_notifier: 'false' } }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${command} ${args.join(' ')} failed in ${cwd}: ${stderr.slice(-2000)}`))
      else resolve(stdout)
    })
  })
}

const executablePath = chromiumPath()
// Without Chromium: skipped on a development machine, failed under CI=true (.ci/run installs it first).
const skip = executablePath === null && process.env.CI !== 'true' ? 'Chromium is not installed (apt-get install -y chromium)' : false

/**
 * A host's own node:test file in the project: the port contract kit from the installed package's `testing` entry,
 * against the kit's in-memory host (compiled into the package) and against the example host copied in as a shop's
 * own code. Run with `node --import tsx --test`.
 */
const KIT_TEST = `import { test } from 'node:test'
import { commercePortContract, createMemoryHost, MEMORY_HOST_FIXTURES } from 'cart-drawer-service/testing'
import { buildTeaShop } from './shop/app.ts'
import { buildInkShop } from './own-shop/app.ts'

commercePortContract(test, { name: 'the in-memory host of the package', start: (prepare) => createMemoryHost({ prepare }) })

const admin = { email: 'manager@tea.test', password: 'steep-and-sip-123' }
commercePortContract(test, {
  name: 'the example host as a project of its own',
  start: async (prepare) => {
    const { app, commerce } = await buildTeaShop({ secret: 'a-packed-test-secret-of-at-least-32-bytes', admin, homeUrl: 'http://tea.test', edition: 'free' })
    prepare(app)
    await app.ready()
    return {
      app,
      commerce,
      fixtures: MEMORY_HOST_FIXTURES,
      newCartToken: async () => String((await app.inject({ method: 'GET', url: '/api/cart' })).headers['cart-token']),
      loginAsAdmin: async () => {
        const response = await app.inject({ method: 'POST', url: '/account/login', payload: admin })
        return { headers: { cookie: response.cookies.map(({ name, value }) => name + '=' + value).join('; ') }, nonce: response.json().nonce }
      },
      cartResponse: async (token) => (await app.inject({ method: 'GET', url: '/api/cart', headers: { 'cart-token': token } })).json(),
      close: () => app.close()
    }
  }
})

const inkAdmin = { email: 'manager@ink.test', password: 'nib-and-quill-123' }
commercePortContract(test, {
  name: 'the own-cart example host as a project of its own',
  start: async (prepare) => {
    const { app, commerce } = await buildInkShop({ secret: 'a-packed-test-secret-of-at-least-32-bytes', admin: inkAdmin, homeUrl: 'http://ink.test', edition: 'free', demoSettings: false })
    prepare(app)
    await app.ready()
    return {
      app,
      commerce,
      fixtures: {
        products: [1, 3],
        crossSells: { productId: 1, expected: [3, 4] },
        search: { term: 'desk', ids: [5, 9] },
        percentCoupon: { code: 'ink10', percent: 10 },
        variation: { parentId: 5, variationId: 52, attributes: { pa_colour: 'white' } },
        unknownProductId: 999
      },
      newCartToken: async () => String((await app.inject({ method: 'GET', url: '/api/cart' })).headers['cart-token']),
      loginAsAdmin: async () => {
        const response = await app.inject({ method: 'POST', url: '/account/login', payload: inkAdmin })
        return { headers: { cookie: response.cookies.map(({ name, value }) => name + '=' + value).join('; ') }, nonce: response.json().nonce }
      },
      cartResponse: async (token) => (await app.inject({ method: 'GET', url: '/api/cart', headers: { 'cart-token': token } })).json(),
      close: () => app.close()
    }
  }
})
`

test('the packed package in a project of its own', async (t) => {
  const project = mkdtempSync(join(tmpdir(), 'svc-packed-'))
  t.teardown(() => rmSync(project, { recursive: true, force: true }))

  // npm pack runs prepack (the build): the tarball holds dist/ and no sources.
  await run('npm', ['pack', '--silent', '--pack-destination', project], ROOT)
  const tarball = readdirSync(project).find((name) => name.endsWith('.tgz'))
  t.ok(tarball, `npm pack wrote ${tarball ?? 'nothing'}`)
  const repo = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { devDependencies: Record<string, string>, dependencies: Record<string, string> }
  const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version?: string }> }
  const locked = (name: string) => lock.packages[`node_modules/${name}`]?.version ?? repo.dependencies[name] ?? repo.devDependencies[name]
  writeFileSync(join(project, 'package.json'), JSON.stringify({
    name: 'tea-shop',
    private: true,
    type: 'module',
    dependencies: {
      'cart-drawer-service': `file:./${tarball}`,
      fastify: locked('fastify'),
      '@fastify/cookie': locked('@fastify/cookie'),
      tsx: locked('tsx')
    }
  }, null, 2))
  // From npm's cache where it can (npm ci filled it), from the registry otherwise.
  await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], project)
  const installed = readdirSync(join(project, 'node_modules', 'cart-drawer-service'))
  t.ok(installed.includes('dist'), 'the installed package holds dist/')
  t.notOk(installed.includes('plugins') || installed.includes('test'), 'and no sources or tests')

  mkdirSync(join(project, 'shop'))
  cpSync(join(ROOT, 'examples', 'memory-shop'), join(project, 'shop'), { recursive: true })
  mkdirSync(join(project, 'own-shop'))
  cpSync(join(ROOT, 'examples', 'own-cart-shop'), join(project, 'own-shop'), { recursive: true })

  await t.test('cart-drawer-service/testing: the port contract kit passes under node:test', async (t) => {
    writeFileSync(join(project, 'kit.test.ts'), KIT_TEST)
    const output = await new Promise<{ code: number, text: string }>((resolve) => {
      const { NODE_OPTIONS: _loaders, ...env } = process.env
      execFile(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=tap', 'kit.test.ts'], { cwd: project, env, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
        resolve({ code: error === null ? 0 : Number(error.code ?? 1), text: stdout + stderr })
      })
    })
    const count = (what: string) => Number(new RegExp(`^# ${what} (\\d+)$`, 'm').exec(output.text)?.[1] ?? NaN)
    t.equal(output.code, 0, 'node --test exits 0', { output: output.text.slice(-4000) })
    t.equal(count('fail'), 0, 'no duty failed')
    t.ok(count('pass') > 40, `the three hosts' duties passed (${count('pass')})`)
  })

  await t.test('the example shop gets the drawer', { skip }, async (t) => {
    if (executablePath === null) {
      t.fail('Chromium is not installed, and CI=true: this test must run')
      return
    }
    await browserCheck(t, project, executablePath)
  })

  await t.test('the own-cart example in Free and Pro', { skip }, async (t) => {
    if (executablePath === null) {
      t.fail('Chromium is not installed, and CI=true: this test must run')
      return
    }
    await ownCartChecks(t, project, executablePath)
  })
})

/** The example started from the project: Chromium adds a tea to the cart and sees the drawer open with the line. */
async function browserCheck (t: Test, project: string, executablePath: string): Promise<void> {
  const url = await startExample(t, project, 'shop/server.ts', (home) => ({ TEA_SHOP_URL: home }))

  const browser = await chromium.launch({ executablePath, args: CHROMIUM_FLAGS })
  t.teardown(() => browser.close())
  const page = await browser.newPage({ viewport: { width: 1280, height: 860 }, reducedMotion: 'reduce' })
  const errors: string[] = []
  page.on('pageerror', (error) => errors.push(String(error)))
  await page.goto(`${url}/`)
  await page.waitForSelector('[data-svc="root"][data-state="ready"]', { state: 'attached' })
  const button = page.locator('button[data-add]').first()
  const name = await button.evaluate((element) => element.closest('li')?.querySelector('h2, h3, a, strong')?.textContent?.trim() ?? '')
  await button.click()
  await page.waitForSelector('[data-svc="drawer"]:not([hidden])')
  t.pass('the drawer opened after the add to cart')
  const lines = await page.$$eval('[data-svc="drawer"] .svc-line .svc-name', (elements) => elements.map((element) => element.textContent?.trim() ?? ''))
  t.equal(lines.length, 1, 'one line in the drawer')
  if (name !== '') t.equal(lines[0], name, `the line is the tea added (${name})`)
  mkdirSync(SCREENSHOTS, { recursive: true })
  await page.screenshot({ path: join(SCREENSHOTS, 'packed-example-drawer.png') })
  t.same(errors, [], 'no script errors')
}
