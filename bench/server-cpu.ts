/**
 * The CPU time the local PostgreSQL and Redis servers have used, read from Linux's `/proc` (every process whose
 * name starts with `postgres` or `redis-server`: backends, writers and the server itself). A development aid beside
 * `cpu-per-write.ts`: the servers' share of a request, which the app's own `process.cpuUsage` leaves out. Meaningful
 * only when the servers run on this machine and nothing else uses them meanwhile; null where `/proc` is not there.
 */
import { readdirSync, readFileSync } from 'node:fs'

export interface ServerCpu {
  postgresMs: number
  redisMs: number
}

// Linux's USER_HZ, the unit of /proc/<pid>/stat's times, is 100 on every architecture Node.js runs on.
const MS_PER_TICK = 10

export function serverCpu (): ServerCpu | null {
  let pids: string[]
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name))
  } catch {
    return null
  }
  const used: ServerCpu = { postgresMs: 0, redisMs: 0 }
  for (const pid of pids) {
    let stat: string
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    } catch {
      continue // The process ended meanwhile.
    }
    const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'))
    const server = name.startsWith('postgres') ? 'postgresMs' : name.startsWith('redis-server') ? 'redisMs' : null
    if (server === null) continue
    // After the name: state is field 3, utime field 14 and stime field 15 of the line.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    used[server] += (Number(fields[11]) + Number(fields[12])) * MS_PER_TICK
  }
  return used
}
