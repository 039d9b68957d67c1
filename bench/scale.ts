/** The scale runs' own measurements: carts stored, Redis memory of the rate limiter, the app's RSS over time. */
import { readFile } from 'node:fs/promises'
import { setTimeout as sleep } from 'node:timers/promises'
import { Redis } from 'ioredis'

type Sql = <Row = Record<string, unknown>>(statement: string, params?: unknown[]) => Promise<Row[]>

/**
 * Makes the cart table hold exactly `size` carts: the measured cart and `size - 1` others with its data, their keys
 * made by SQL (`generate_series`, one statement) in the platform's key shape so the index looks like a real one.
 */
export async function fillCarts (sql: Sql, keep: string, size: number): Promise<number> {
  const [model] = await sql<{ data: unknown }>('SELECT data FROM svc_carts WHERE key = $1', [keep])
  if (model === undefined) throw new Error(`the measured cart ${keep} is not stored`)
  const [{ count } = { count: 0 }] = await sql<{ count: number }>('SELECT count(*)::int AS count FROM svc_carts')
  if (count > size) {
    await sql('DELETE FROM svc_carts WHERE key <> $1', [keep])
    await sql('VACUUM ANALYZE svc_carts')
    return fillCarts(sql, keep, size)
  }
  if (count < size) {
    await sql(`INSERT INTO svc_carts (key, data, version)
      SELECT 't_' || substr(md5('filler:' || i::text), 1, 30), $1::jsonb, 1 FROM generate_series($2::int, $3::int) AS i
      ON CONFLICT (key) DO NOTHING`, [JSON.stringify(model.data), count, size - 1])
    await sql('ANALYZE svc_carts')
  }
  const [after = { count: 0 }] = await sql<{ count: number }>('SELECT count(*)::int AS count FROM svc_carts')
  return after.count
}

/**
 * The sizes of the carts run in the order they are measured: ascending, then the smallest once more when there are
 * several. Measured one after the other, the first size would run on a machine still busy with what came before it
 * (the write scenarios' dirty pages, autovacuum) and the last on a calmer one; measuring the smallest at both ends
 * shows that drift, and the largest is judged against both.
 */
export function cartsRunOrder (sizes: readonly number[]): number[] {
  const ascending = [...new Set(sizes)].sort((a, b) => a - b)
  return ascending.length < 2 ? ascending : [...ascending, ascending[0]!]
}

/**
 * Before a carts-run measurement: the table's dirty pages written out (`CHECKPOINT`) and its statistics fresh, so that
 * each size is measured with no flush of the previous step's writes under way. `CHECKPOINT` needs a superuser (or
 * pg_checkpoint); without one the step is skipped and said so.
 */
export async function settleDatabase (sql: Sql, log: (line: string) => void): Promise<void> {
  try {
    await sql('CHECKPOINT')
  } catch (error) {
    log(`carts run: CHECKPOINT refused (${error instanceof Error ? error.message : String(error)}): measured without it`)
  }
  await sql('VACUUM ANALYZE svc_carts')
}

export interface RedisSnapshot {
  usedMemoryBytes: number
  /** Keys under the run's prefix. */
  keys: number
}

export interface RedisProbe {
  snapshot: () => Promise<RedisSnapshot>
  usedMemory: () => Promise<number>
  close: () => Promise<void>
}

export function redisProbe (url: string, prefix: string): RedisProbe {
  const client = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 1 })
  client.on('error', () => {})
  const usedMemory = async (): Promise<number> => Number(/^used_memory:(\d+)/m.exec(await client.info('memory'))?.[1] ?? 0)
  return {
    usedMemory,
    async snapshot () {
      const used = await usedMemory()
      let keys = 0
      let cursor = '0'
      do {
        const [next, found] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 10_000)
        cursor = next
        keys += found.length
      } while (cursor !== '0')
      return { usedMemoryBytes: used, keys }
    },
    async close () { await client.quit().catch(() => client.disconnect()) }
  }
}

/** Polls until no key under the prefix is left, or `limitMs` passes; returns the last snapshot and the time taken. */
export async function waitForKeysGone (probe: RedisProbe, limitMs: number): Promise<{ snapshot: RedisSnapshot, waitedMs: number }> {
  const started = Date.now()
  for (;;) {
    const snapshot = await probe.snapshot()
    const waitedMs = Date.now() - started
    if (snapshot.keys === 0 || waitedMs >= limitMs) return { snapshot, waitedMs }
    await sleep(500)
  }
}

export interface RssSample {
  /** Seconds since the start of the run. */
  t: number
  rssMiB: number
}

/** The resident set size of a process (Linux: /proc), in MiB. */
export async function rssMiB (pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8')
  const kib = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1]
  if (kib === undefined) throw new Error(`no VmRSS for process ${pid}`)
  return Math.round(Number(kib) / 1024 * 10) / 10
}

/** Samples a process's RSS every second until stopped. */
export function sampleRss (pid: number): { stop: () => RssSample[] } {
  const samples: RssSample[] = []
  const started = Date.now()
  const take = (): void => {
    rssMiB(pid).then((value) => { samples.push({ t: Math.round((Date.now() - started) / 100) / 10, rssMiB: value }) }, () => {})
  }
  take()
  const timer = setInterval(take, 1000)
  return { stop: () => { clearInterval(timer); return samples } }
}

export interface RssSummary {
  samples: RssSample[]
  /** The RSS once warmed up: the first sample after the first fifth of the run. */
  referenceMiB: number
  minMiB: number
  maxMiB: number
  lastMiB: number
  /** (last − reference) / reference. */
  drift: number
  /** (max − min) / reference, over the samples after the reference. */
  spread: number
  /**
   * The lowest RSS of the first and of the last minute after warm-up: the process after its garbage collections,
   * which a leak raises. Single samples fall anywhere on the collector's saw-tooth (`spread`).
   */
  firstMinuteFloorMiB: number
  lastMinuteFloorMiB: number
  /** (last minute's floor − first minute's floor) / first minute's floor. */
  floorDrift: number
  /**
   * The app's heap right after a full garbage collection the bench asked for, halfway through the warm-up and near the
   * end of the run (`collectionTimes`): what the process keeps, which a leak raises, wherever the RSS's saw-tooth
   * stands. Shown, not judged. Absent when the collections could not be made.
   */
  heapAfterCollection?: { first: HeapSample, last: HeapSample, drift: number }
}

export interface HeapSample {
  /** Seconds since the start of the run. */
  t: number
  heapMiB: number
}

/**
 * When the soak asks for a full collection: seconds after its start. The first, halfway through the warm-up, also
 * settles the heap limit the runs before the soak left (docs/decisions/bench-method.md),
 * so the judged minutes start from the soak's own state; the second comes after the last minute's samples but three.
 */
export function collectionTimes (seconds: number): [number, number] {
  return [seconds / 10, Math.max(seconds - 3, seconds / 10 + 1)]
}

const FLOOR_WINDOW_SECONDS = 60

export function summarizeRss (samples: RssSample[], seconds: number, collected?: readonly [HeapSample, HeapSample]): RssSummary {
  const after = samples.filter((sample) => sample.t >= seconds / 5)
  const steady = after.length > 0 ? after : samples
  const reference = steady[0]?.rssMiB ?? 0
  const values = steady.map((sample) => sample.rssMiB)
  const min = Math.min(...values)
  const max = Math.max(...values)
  const last = samples.at(-1)?.rssMiB ?? 0
  const round = (value: number): number => Math.round(value * 1000) / 1000
  const start = steady[0]?.t ?? 0
  const end = steady.at(-1)?.t ?? 0
  const floor = (from: number, to: number): number =>
    Math.min(...steady.filter((sample) => sample.t >= from && sample.t <= to).map((sample) => sample.rssMiB))
  const firstFloor = floor(start, start + FLOOR_WINDOW_SECONDS)
  const lastFloor = floor(end - FLOOR_WINDOW_SECONDS, end)
  return {
    samples,
    referenceMiB: reference,
    minMiB: min,
    maxMiB: max,
    lastMiB: last,
    drift: reference === 0 ? 0 : round((last - reference) / reference),
    spread: reference === 0 ? 0 : round((max - min) / reference),
    firstMinuteFloorMiB: firstFloor,
    lastMinuteFloorMiB: lastFloor,
    floorDrift: firstFloor === 0 ? 0 : round((lastFloor - firstFloor) / firstFloor),
    ...(collected === undefined
      ? {}
      : { heapAfterCollection: { first: collected[0], last: collected[1], drift: round((collected[1].heapMiB - collected[0].heapMiB) / collected[0].heapMiB) } })
  }
}
