/** Origins compared as scheme, host and port, the way browsers compare them. */

/** The normalised origin of a URL (`https://shop.example:8443`), or null when it has none. */
export function originOf (url: string): string | null {
  try {
    const { origin } = new URL(url)
    return origin === 'null' ? null : origin
  } catch {
    return null
  }
}

export type OriginVerdict =
  /** Neither `Origin` nor `Referer`: a server-to-server call, for example. */
  | { kind: 'absent' }
  | { kind: 'allowed', origin: string, crossOrigin: boolean }
  | { kind: 'refused' }

/**
 * `Origin` when present, else `Referer`'s origin. `Origin: null` (sandboxed frames, some redirects) and an
 * unparsable value are refused; so is any origin not in the lists.
 */
export function checkOrigin (
  headers: { origin?: string | string[], referer?: string | string[] },
  siteOrigins: ReadonlySet<string>,
  extraOrigins: ReadonlySet<string>
): OriginVerdict {
  const origin = headers.origin
  const referer = headers.referer
  let claimed: string | null
  if (origin !== undefined) {
    if (typeof origin !== 'string' || origin.trim() === 'null') return { kind: 'refused' }
    claimed = originOf(origin.trim())
  } else if (referer !== undefined) {
    if (typeof referer !== 'string') return { kind: 'refused' }
    claimed = originOf(referer.trim())
  } else {
    return { kind: 'absent' }
  }
  if (claimed === null) return { kind: 'refused' }
  if (siteOrigins.has(claimed)) return { kind: 'allowed', origin: claimed, crossOrigin: false }
  if (extraOrigins.has(claimed)) return { kind: 'allowed', origin: claimed, crossOrigin: true }
  return { kind: 'refused' }
}

/** Normalises configured origins; entries that are not origins are returned separately, to be reported. */
export function normaliseOrigins (values: readonly unknown[]): { origins: Set<string>, invalid: unknown[] } {
  const origins = new Set<string>()
  const invalid: unknown[] = []
  for (const value of values) {
    const origin = typeof value === 'string' ? originOf(value.trim()) : null
    if (origin === null) invalid.push(value)
    else origins.add(origin)
  }
  return { origins, invalid }
}
