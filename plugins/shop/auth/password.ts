import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type ScryptOptions } from 'node:crypto'

// N=2^15, r=8, p=1: about 32 MiB and tens of milliseconds per hash, within Node's default maxmem once raised.
const PARAMS = { N: 2 ** 15, r: 8, p: 1 }
const KEY_LENGTH = 32
const MAXMEM = 64 * 1024 * 1024

function scrypt (password: string, salt: Buffer, keyLength: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scryptCallback(password, salt, keyLength, options, (error, key) => error ? reject(error) : resolve(key))
  })
}

/** `scrypt$N$r$p$salt$hash`, salt and hash in base64url. */
export async function hashPassword (password: string): Promise<string> {
  const salt = randomBytes(16)
  const key = await scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, { ...PARAMS, maxmem: MAXMEM })
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64url'), key.toString('base64url')].join('$')
}

export async function verifyPassword (password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$')
  if (scheme !== 'scrypt' || !salt || !hash) return false
  const expected = Buffer.from(hash, 'base64url')
  const key = await scrypt(password.normalize('NFKC'), Buffer.from(salt, 'base64url'), expected.length, {
    N: Number(n), r: Number(r), p: Number(p), maxmem: MAXMEM
  })
  return key.length === expected.length && timingSafeEqual(key, expected)
}

let decoy: Promise<string> | undefined
/** A hash to check against when no user matches, so a wrong e-mail costs the same time as a wrong password. */
export function decoyHash (): Promise<string> {
  decoy ??= hashPassword(randomBytes(16).toString('hex'))
  return decoy
}
