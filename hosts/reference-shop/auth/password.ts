import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto'

/** scrypt's cost (`N`, a power of two), block size (`r`) and parallelization (`p`). */
export interface ScryptParams {
  N: number
  r: number
  p: number
}

/**
 * OWASP's Password Storage Cheat Sheet: scrypt with N=2^17, r=8 (1024-byte blocks), p=1 where Argon2id is not
 * available (Node 20 and 22 have none). 128 MiB and a few hundred milliseconds per hash.
 */
export const OWASP_SCRYPT: ScryptParams = { N: 2 ** 17, r: 8, p: 1 }

const KEY_LENGTH = 32
/** No stored hash or option may ask for more than this (a hash of 1 GiB is a mistake or an attack, not a setting). */
const MAX_MEMORY = 1024 * 1024 * 1024

/**
 * The memory OpenSSL's scrypt checks against `maxmem`: the `N`+2 blocks of 128·r bytes it works in and the `p` blocks
 * it mixes (Node's default `maxmem` of 32 MiB is below OWASP's 128 MiB).
 */
function memoryOf ({ N, r, p }: ScryptParams): number {
  return 128 * r * (N + 2 + p)
}

/** Whether scrypt can run with these parameters here: N a power of two above 1, r and p whole and within bounds. */
export function validScryptParams (params: ScryptParams): boolean {
  const { N, r, p } = params
  return Number.isSafeInteger(N) && N > 1 && (N & (N - 1)) === 0 &&
    Number.isSafeInteger(r) && r >= 1 && r <= 1024 &&
    Number.isSafeInteger(p) && p >= 1 && p <= 64 &&
    memoryOf(params) <= MAX_MEMORY
}

function scrypt (password: string, salt: Buffer, keyLength: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scryptCallback(password, salt, keyLength, options, (error, key) => error ? reject(error) : resolve(key))
  })
}

function derive (password: string, salt: Buffer, keyLength: number, params: ScryptParams): Promise<Buffer> {
  return scrypt(password.normalize('NFKC'), salt, keyLength, { ...params, maxmem: memoryOf(params) })
}

/** A stored hash `scrypt$N$r$p$salt$hash` taken apart, or null when it is not one this module can check. */
function parse (stored: string): { params: ScryptParams, salt: Buffer, hash: Buffer } | null {
  const parts = stored.split('$')
  if (parts.length !== 6 || parts[0] !== 'scrypt') return null
  const [, n, r, p, salt, hash] = parts as [string, string, string, string, string, string]
  if (![n, r, p].every((part) => /^[1-9][0-9]{0,9}$/.test(part)) || salt === '' || hash === '') return null
  const params = { N: Number(n), r: Number(r), p: Number(p) }
  if (!validScryptParams(params)) return null
  return { params, salt: Buffer.from(salt, 'base64url'), hash: Buffer.from(hash, 'base64url') }
}

/** `scrypt$N$r$p$salt$hash`, salt and hash in base64url; OWASP's parameters unless others are given. */
export async function hashPassword (password: string, params: ScryptParams = OWASP_SCRYPT): Promise<string> {
  if (!validScryptParams(params)) throw new RangeError(`scrypt parameters out of range: ${JSON.stringify(params)}`)
  const salt = randomBytes(16)
  const key = await derive(password, salt, KEY_LENGTH, params)
  return ['scrypt', params.N, params.r, params.p, salt.toString('base64url'), key.toString('base64url')].join('$')
}

/** Whether `password` is the one `stored` was made from, with the parameters `stored` names. */
export async function verifyPassword (password: string, stored: string): Promise<boolean> {
  const parsed = parse(stored)
  if (parsed === null || parsed.hash.length === 0) return false
  const key = await derive(password, parsed.salt, parsed.hash.length, parsed.params)
  return key.length === parsed.hash.length && timingSafeEqual(key, parsed.hash)
}

/**
 * The platform's password hashing with its configured parameters (the shop plugin's `passwordHashing` option):
 * new hashes use them, any stored scrypt hash still verifies, and a hash made with other parameters is made again
 * at the user's next login (`needsRehash`).
 */
export class PasswordHasher {
  readonly params: ScryptParams
  #decoy: Promise<string> | undefined

  constructor (params: ScryptParams = OWASP_SCRYPT) {
    if (!validScryptParams(params)) throw new RangeError(`passwordHashing: scrypt parameters out of range: ${JSON.stringify(params)}`)
    this.params = { N: params.N, r: params.r, p: params.p }
  }

  hash (password: string): Promise<string> {
    return hashPassword(password, this.params)
  }

  verify (password: string, stored: string): Promise<boolean> {
    return verifyPassword(password, stored)
  }

  /** Whether a stored hash was made otherwise than `hash` makes one now (other parameters, key length or scheme). */
  needsRehash (stored: string): boolean {
    const parsed = parse(stored)
    if (parsed === null) return true
    const { N, r, p } = parsed.params
    return N !== this.params.N || r !== this.params.r || p !== this.params.p || parsed.hash.length !== KEY_LENGTH
  }

  /** A hash to check against when no user matches, so a wrong e-mail costs the same time as a wrong password. */
  decoy (): Promise<string> {
    this.#decoy ??= this.hash(randomBytes(16).toString('hex'))
    return this.#decoy
  }
}
