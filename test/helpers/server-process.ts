import { spawn, type ChildProcess } from 'node:child_process'
import { createServer } from 'node:net'
import { fileURLToPath } from 'node:url'
import { waitFor } from '../helper.ts'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))

export interface ServerProcess {
  url: string
  child: ChildProcess
  /** Everything the process wrote (stdout and stderr). */
  output: () => string
  /** SIGTERM; resolves with the exit code. */
  stop: () => Promise<number | null>
  exited: Promise<number | null>
}

/** A TCP port free on 127.0.0.1 at the time of asking. */
export async function freePort (): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  const port = typeof address === 'object' && address !== null ? address.port : 0
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

export interface SpawnedServer {
  child: ChildProcess
  /** Everything the process wrote so far (stdout and stderr). */
  output: () => string
  /** Resolves with the exit code. */
  exited: Promise<number | null>
}

/** `tsx server.ts` in a process of its own with exactly this environment, its output collected. */
export function spawnServer (env: NodeJS.ProcessEnv): SpawnedServer {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server.ts'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stdout!.on('data', (chunk: Buffer) => { output += chunk.toString() })
  child.stderr!.on('data', (chunk: Buffer) => { output += chunk.toString() })
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  return { child, output: () => output, exited }
}

/** `tsx server.ts` as `npm start` runs it (without the client build), on a free port, ready when `/healthz` answers. */
export async function startServerProcess (env: Record<string, string>, timeoutMs = 60_000): Promise<ServerProcess> {
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const { child, output, exited } = spawnServer({ ...process.env, PORT: String(port), HOST: '127.0.0.1', SVC_SITE_URL: url, LOG_LEVEL: 'warn', ...env })
  let state: 'ready' | 'exited'
  try {
    state = await waitFor(async () => child.exitCode !== null ? 'exited' : (await fetch(`${url}/healthz`)).ok && 'ready',
      { timeoutMs, intervalMs: 100, what: '/healthz answering' })
  } catch {
    child.kill('SIGKILL')
    throw new Error(`the server did not answer within ${timeoutMs} ms:\n${output()}`)
  }
  if (state === 'exited') throw new Error(`the server exited with ${child.exitCode}:\n${output()}`)
  return {
    url,
    child,
    output,
    exited,
    async stop () {
      if (child.exitCode === null) child.kill('SIGTERM')
      return exited
    }
  }
}
