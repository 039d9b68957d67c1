import { spawn, type ChildProcess } from 'node:child_process'
import { createServer } from 'node:net'
import { join } from 'node:path'

/** Starting an example host copied into the packed project, as its own `server.ts` starts it. */

export function freePort (): Promise<number> {
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
export async function waitForServer (url: string, child: ChildProcess, output: () => string): Promise<void> {
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

/**
 * Runs `script` (a path in `project`) with the project's tsx on a free port, `env(url)` added to the environment,
 * until `t`'s teardown; answers the storefront's URL once its home page answers.
 */
export async function startExample (t: { teardown (fn: () => unknown): void }, project: string, script: string, env: (url: string, port: number) => Record<string, string>): Promise<string> {
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  let printed = ''
  const child = spawn(join(project, 'node_modules', '.bin', 'tsx'), [script], {
    cwd: project,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', ...env(url, port) },
    stdio: ['ignore', 'pipe', 'pipe']
  })
  child.stdout?.on('data', (chunk) => { printed += String(chunk) })
  child.stderr?.on('data', (chunk) => { printed += String(chunk) })
  t.teardown(() => { child.kill('SIGTERM') })
  await waitForServer(`${url}/`, child, () => printed)
  return url
}
