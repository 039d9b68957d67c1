/**
 * The nodes of a Redis Cluster as the configuration names them: `host:port` entries (`[::1]:7001` for IPv6), or
 * `redis://` / `rediss://` URLs when the nodes need a password or TLS. Kept free of ioredis so that the environment
 * check can use it.
 */
export interface ClusterNodeList {
  nodes: Array<{ host: string, port: number }>
  username?: string
  password?: string
  /** `rediss://` entries: every node is reached over TLS. */
  tls: boolean
}

/** Parses the entries; throws an Error whose message names the entry at fault. */
export function parseClusterNodes (entries: readonly string[]): ClusterNodeList {
  if (entries.length === 0) throw new Error('no node given: list at least one host:port')
  const parsed = entries.map(parseEntry)
  const [first] = parsed
  // One cluster, one way in: mixed schemes or credentials are a typo, not a design.
  for (const [index, entry] of parsed.entries()) {
    if (entry.tls !== first!.tls) throw new Error(`"${entries[index]}": every node must use the same scheme (redis:// or rediss://)`)
    if ((entry.username ?? first!.username) !== first!.username || (entry.password ?? first!.password) !== first!.password) {
      throw new Error(`"${entries[index]}": every node must give the same credentials (or only the first gives them)`)
    }
  }
  const withCredentials = parsed.find(entry => entry.password !== undefined || entry.username !== undefined)
  return {
    nodes: parsed.map(({ host, port }) => ({ host, port })),
    ...(withCredentials?.username === undefined ? {} : { username: withCredentials.username }),
    ...(withCredentials?.password === undefined ? {} : { password: withCredentials.password }),
    tls: first!.tls
  }
}

interface Entry {
  host: string
  port: number
  username?: string
  password?: string
  tls: boolean
}

function parseEntry (entry: string): Entry {
  const text = entry.includes('://') ? entry : `redis://${entry}`
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw new Error(`"${entry}" is not host:port`)
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') throw new Error(`"${entry}" must be host:port or a redis:// or rediss:// URL`)
  if (url.hostname === '' || url.port === '') throw new Error(`"${entry}" must name a host and a port, e.g. 127.0.0.1:7001`)
  if ((url.pathname !== '' && url.pathname !== '/') || url.search !== '' || url.hash !== '') {
    throw new Error(`"${entry}": a cluster has no database number or options in the address (only host:port)`)
  }
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname
  return {
    host,
    port: Number(url.port),
    ...(url.username === '' ? {} : { username: decodeURIComponent(url.username) }),
    ...(url.password === '' ? {} : { password: decodeURIComponent(url.password) }),
    tls: url.protocol === 'rediss:'
  }
}
