/** The orchestrator's side of its child processes: start one, wait until it listens, stop it. */
import { fork, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import type { Cleanup } from './cleanup.ts'
import type { CallResult, ChildMessage, GcCall, SqlCall } from './ipc.ts'

const READY_TIMEOUT_MS = 60_000
const STOP_TIMEOUT_MS = 8_000

export interface BenchChild<Ready> {
  name: string
  ready: Ready
  pid: number | undefined
  /** Whether the process still runs: a child that dies under load fails the bench. */
  alive: () => boolean
  /** Asks the child to close (its servers, then its storage) and waits; kills it if that takes too long. */
  stop: () => Promise<void>
  /** Runs a statement on the app child's database (seeding); rejects with the child's error. */
  sql: <Row = Record<string, unknown>>(statement: string, params?: unknown[]) => Promise<Row[]>
  /** A full garbage collection in the child (which must run with `--expose-gc`): the heap it kept, in bytes. */
  collectGarbage: () => Promise<number>
}

/**
 * Forks `entry` (a TypeScript file next to this one) under tsx, sends it `start` and resolves once it listens. Its
 * stop is registered with `cleanup` at once, so Ctrl-C during start-up stops it too. A child that fails, exits or
 * stays silent is stopped and the promise rejects.
 */
export async function startChild<Ready> (name: string, entry: string, start: object, cleanup: Cleanup, nodeArgs: string[] = []): Promise<BenchChild<Ready>> {
  const child = fork(fileURLToPath(new URL(entry, import.meta.url)), [], {
    execArgv: [...nodeArgs, '--import', import.meta.resolve('tsx')],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc']
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  // Once started, an IPC error (a message to a child that is going away) is only worth a line.
  child.on('error', (error) => console.error(`bench: ${name}: ${error.message}`))
  const stop = (): Promise<void> => stopProcess(child, exited)
  cleanup.add(`stop ${name}`, stop)
  try {
    const ready = await new Promise<Ready>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${name}: not ready after ${READY_TIMEOUT_MS / 1000} s`)), READY_TIMEOUT_MS)
      const fail = (error: Error): void => {
        clearTimeout(timer)
        reject(error)
      }
      child.on('message', (message: ChildMessage<Ready>) => {
        if (message.type === 'ready') {
          clearTimeout(timer)
          resolve(message.ready)
        } else if (message.type === 'failed') {
          fail(new Error(`${name} failed to start:\n${message.message}`))
        }
      })
      child.once('exit', (code, signal) => fail(new Error(`${name} exited before it was ready (${signal ?? `code ${code}`})`)))
      child.once('error', fail)
      child.send(start)
    })
    const pending = new Map<number, { resolve: (rows: unknown[]) => void, reject: (error: Error) => void }>()
    let nextId = 1
    child.on('message', (message: CallResult | { type: string }) => {
      if (message.type !== 'result' && message.type !== 'error') return
      const result = message as CallResult
      const waiting = pending.get(result.id)
      pending.delete(result.id)
      if (result.type === 'result') waiting?.resolve(result.rows)
      else waiting?.reject(new Error(`${name}: ${result.message}`))
    })
    child.once('exit', () => {
      for (const waiting of pending.values()) waiting.reject(new Error(`${name} exited`))
      pending.clear()
    })
    /** Sends a call with the next id and resolves with the rows of its `CallResult`. */
    const call = (message: Omit<SqlCall, 'id'> | Omit<GcCall, 'id'>): Promise<unknown[]> => new Promise((resolve, reject) => {
      const id = nextId++
      pending.set(id, { resolve, reject })
      child.send({ ...message, id })
    })
    const sql = async <Row>(statement: string, params: unknown[] = []): Promise<Row[]> => await call({ type: 'sql', statement, params }) as Row[]
    const collectGarbage = async (): Promise<number> => {
      const [row] = await call({ type: 'gc' }) as Array<{ heapUsedBytes?: number } | undefined>
      return Number(row?.heapUsedBytes)
    }
    return { name, ready, pid: child.pid, alive: () => !exitedAlready(child), stop, sql, collectGarbage }
  } catch (error) {
    await stop()
    throw error
  }
}

function exitedAlready (child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null
}

/** A stop message, then SIGTERM, then SIGKILL, each after a grace period; only ever this child, by its handle. */
async function stopProcess (child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (exitedAlready(child)) return
  const within = (ms: number): Promise<boolean> => Promise.race([
    exited.then(() => true),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms).unref())
  ])
  if (child.connected) child.send({ type: 'stop' })
  else child.kill('SIGTERM')
  if (await within(STOP_TIMEOUT_MS)) return
  child.kill('SIGTERM')
  if (await within(2000)) return
  child.kill('SIGKILL')
  await exited
}
