/**
 * The bench's child processes (the app, the baselines) and how the orchestrator talks to them: calls by name over the
 * IPC channel, each answered once. A child closes its servers and exits when the orchestrator goes away (the channel
 * closes) or on SIGINT/SIGTERM (Ctrl-C reaches the whole process group).
 */
import { fork } from 'node:child_process'
import { fileURLToPath } from 'node:url'

interface Call { id: number, name: string, args: unknown[] }
interface Answer { id: number, value?: unknown, error?: string }
type Handler = (...args: never[]) => unknown

/** The child's side: answers calls with `handlers`, closes with `close`. */
export function serve (handlers: Record<string, Handler>, close: () => Promise<void>): void {
  if (process.send === undefined) {
    console.error('bench: this file is a child process of bench/run.ts; run `npm run bench`')
    process.exit(2)
  }
  const answer = (message: Answer): void => { if (process.connected) process.send!(message) }
  process.on('message', ({ id, name, args }: Call) => {
    Promise.resolve().then(() => (handlers[name] as (...args: unknown[]) => unknown)(...args))
      .then((value) => answer({ id, value }), (error: unknown) => answer({ id, error: error instanceof Error ? error.stack ?? error.message : String(error) }))
  })
  let closing = false
  const exit = (): void => {
    if (closing) return
    closing = true
    setTimeout(() => process.exit(1), 5000).unref()
    close().then(() => process.exit(0), (error: unknown) => {
      console.error('bench: closing a child process failed:', error)
      process.exit(1)
    })
  }
  for (const event of ['disconnect', 'SIGINT', 'SIGTERM'] as const) process.on(event, exit)
}

export interface Child {
  pid: number
  alive: () => boolean
  call: <Value>(name: string, ...args: unknown[]) => Promise<Value>
  /** Closes the channel, which closes the child; kills it if it has not exited 10 s later. */
  stop: () => Promise<void>
}

/** The orchestrator's side: forks `entry` (a TypeScript file next to this one) under tsx. */
export function spawnChild (entry: string, nodeArgs: string[] = []): Child {
  const child = fork(fileURLToPath(new URL(entry, import.meta.url)), [], {
    execArgv: [...nodeArgs, '--import', import.meta.resolve('tsx')],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc']
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const alive = (): boolean => child.exitCode === null && child.signalCode === null
  const pending = new Map<number, { resolve: (value: unknown) => void, reject: (error: Error) => void }>()
  let nextId = 0
  child.on('error', (error) => console.error(`bench: ${entry}: ${error.message}`))
  child.on('message', ({ id, value, error }: Answer) => {
    const waiting = pending.get(id)
    pending.delete(id)
    if (error === undefined) waiting?.resolve(value)
    else waiting?.reject(new Error(`${entry}: ${error}`))
  })
  child.once('exit', (code, signal) => {
    for (const waiting of pending.values()) waiting.reject(new Error(`${entry} exited (${signal ?? `code ${code}`})`))
    pending.clear()
  })
  return {
    pid: child.pid!,
    alive,
    call: <Value>(name: string, ...args: unknown[]) => new Promise<Value>((resolve, reject) => {
      if (!alive()) return reject(new Error(`${entry} has exited`))
      const id = nextId++
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject })
      child.send({ id, name, args } satisfies Call)
    }),
    async stop () {
      if (!alive()) return
      if (child.connected) child.disconnect()
      else child.kill('SIGTERM')
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000)
      await exited
      clearTimeout(timer)
    }
  }
}
