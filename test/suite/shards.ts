/**
 * `npm test` runs the suite in a few processes instead of one per file: each `test/suite/shard-N.test.ts` imports its
 * share of the test files, whose tests then run one after another in that process. A process costs 2–4 s of CPU
 * before its first test (tap's runner, the TypeScript loader, the app's modules); paid once per shard instead of once
 * per file. tap runs the shards side by side (`.taprc` `jobs`) and starts the next as one ends.
 *
 * Every `*.test.ts` under `test/` belongs to exactly one shard, found from the tree (a new file needs no list), and
 * still runs alone: `npx tap test/path/to/file.test.ts`.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { basename, dirname, join, relative, sep } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import tap from 'tap'

const TEST_DIR = dirname(dirname(fileURLToPath(import.meta.url)))
const SUITE_DIR = join(TEST_DIR, 'suite')

/** Files run outside `npm test` by `.ci/run`'s own steps (they skip without their services). */
const ELSEWHERE = ['storage/redis-cluster/']

/** The shards (`shard-N.test.ts` files), found from the tree. */
export function shardCount (): number {
  return readdirSync(SUITE_DIR).filter((name) => /^shard-\d+\.test\.ts$/.test(name)).length
}

/** Every test file of the suite, relative to `test/`, in a fixed order. */
export function testFiles (): string[] {
  const found: string[] = []
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) {
        if (path !== SUITE_DIR && entry.name !== 'node_modules') walk(path)
      } else if (entry.name.endsWith('.test.ts')) {
        found.push(relative(TEST_DIR, path).split(sep).join('/'))
      }
    }
  }
  walk(TEST_DIR)
  return found.filter((file) => !ELSEWHERE.some((prefix) => file.startsWith(prefix))).sort()
}

/**
 * The files of shard `index` (from 1) of `count`: files are dealt out in turn, weighing each by its measured cost so
 * that the shards take about as long; a file without a measurement weighs one unit.
 */
export function filesOfShard (index: number, count: number, files: readonly string[], weights: Readonly<Record<string, number>> = {}): string[] {
  const load = Array.from({ length: count }, () => 0)
  const shards: string[][] = Array.from({ length: count }, () => [])
  const weighed = [...files].sort((a, b) => (weights[b] ?? 1) - (weights[a] ?? 1) || a.localeCompare(b))
  for (const file of weighed) {
    let lightest = 0
    for (let i = 1; i < count; i++) if (load[i]! < load[lightest]!) lightest = i
    load[lightest]! += weights[file] ?? 1
    shards[lightest]!.push(file)
  }
  return shards[index - 1]!.sort()
}

/** The seconds each file took in a measured run (`npm run test:times` writes them), if there is one. */
export function measuredWeights (): Record<string, number> {
  const path = join(SUITE_DIR, 'weights.json')
  return existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) as Record<string, number> : {}
}

/** Where each shard leaves the seconds its files' tests took (`npm run test:times` reads them). */
export const TIMES_DIR = join(dirname(TEST_DIR), '.tap', 'svc-times')

/**
 * Imports the test files of the shard whose file is `url`: their tests join this process's run. A file's tests are
 * the ones its import added to the run; their times, summed, are the file's, written to `TIMES_DIR` when the run ends.
 */
export async function runShard (url: string, weights: Readonly<Record<string, number>> = measuredWeights()): Promise<void> {
  const index = Number(/shard-(\d+)\.test\.ts$/.exec(basename(fileURLToPath(url)))?.[1])
  const files = filesOfShard(index, shardCount(), testFiles(), weights)
  const seconds: Record<string, number> = Object.fromEntries(files.map((file) => [file, 0]))
  const owners = new WeakMap<object, string>()
  let importing = ''
  tap.on('subtestAdd', (sub: object) => { owners.set(sub, importing) })
  tap.on('subtestEnd', (sub: { time?: number }) => {
    const file = owners.get(sub)
    if (file !== undefined) seconds[file] = (seconds[file] ?? 0) + (sub.time ?? 0) / 1000
  })
  for (const file of files) {
    importing = file
    await import(pathToFileURL(join(TEST_DIR, file)).href)
  }
  // Only once every file's tests are in: a teardown makes the run end as soon as it has nothing queued.
  tap.teardown(() => {
    mkdirSync(TIMES_DIR, { recursive: true })
    const rounded = Object.fromEntries(Object.entries(seconds).map(([file, value]) => [file, Number(value.toFixed(2))]))
    writeFileSync(join(TIMES_DIR, `shard-${index}.json`), `${JSON.stringify(rounded, null, 2)}\n`)
  })
}
