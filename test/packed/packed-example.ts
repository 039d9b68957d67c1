/**
 * The package as a shop installs it: `npm pack` builds the tarball, a new project outside the repository installs it
 * (with fastify and @fastify/cookie, as the example asks, and tsx to run its TypeScript), the example host
 * (examples/memory-shop/) is copied in unchanged and started, and Chromium adds a tea to the cart on its shop page
 * and sees the drawer open with the line. Run by `npm run test:packed` (and by .ci/run); it needs Chromium.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium } from 'playwright-core'
import tap, { test } from 'tap'
import { CHROMIUM_FLAGS, chromiumPath, SCREENSHOTS } from '../browser/helpers.ts'

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

function freePort (): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.on('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0))
    })
  })
}

/** Polls `url` until it answers, or fails with what the process printed. */
async function waitForServer (url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 60_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the example exited (${child.exitCode}): ${output().slice(-2000)}`)
    try {
      if ((await fetch(url)).ok) return
    } catch {}
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  throw new Error(`the example did not answer at ${url}: ${output().slice(-2000)}`)
}

const executablePath = chromiumPath()
// Without Chromium: skipped on a development machine, failed under CI=true (.ci/run installs it first).
const skip = executablePath === null && process.env.CI !== 'true' ? 'Chromium is not installed (apt-get install -y chromium)' : false

test('the packed package in a project of its own: the example shop gets the drawer', { skip }, async (t) => {
  if (executablePath === null) {
    t.fail('Chromium is not installed, and CI=true: this test must run')
    return
  }
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
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  let printed = ''
  const child = spawn(join(project, 'node_modules', '.bin', 'tsx'), ['shop/server.ts'], {
    cwd: project,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', TEA_SHOP_URL: url },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  child.stdout?.on('data', (chunk) => { printed += String(chunk) })
  child.stderr?.on('data', (chunk) => { printed += String(chunk) })
  t.teardown(() => { child.kill('SIGTERM') })
  await waitForServer(`${url}/`, child, () => printed)

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
})
