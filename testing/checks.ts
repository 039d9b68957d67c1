import assert, { AssertionError } from 'node:assert/strict'
import { inspect } from 'node:util'
import { CartActionError } from '../kernel/domain/cart-action-error.ts'

/**
 * The contract's assertions, on Node's own `node:assert/strict` so the kit runs under any test runner (a failed check
 * throws, which tap and node:test both report as the test's failure). Every message starts with the port's duty that
 * was broken (`carts.addItem: …`); the error's `actual` and `expected` give the difference.
 */

function named (duty: string, check: () => void): void {
  try {
    check()
  } catch (error) {
    if (!(error instanceof AssertionError)) throw error
    // A new error rather than a changed message: reporters print the stack, which holds the message it was made with.
    // They print the difference of `actual` and `expected` themselves; other checks say in their message what failed.
    const message = /deepstrictequal/i.test(error.operator) ? duty : `${duty}\n${error.message}`
    throw new AssertionError({ message, actual: error.actual, expected: error.expected, operator: error.operator, stackStartFn: named })
  }
}

const shown = (value: unknown): string => inspect(value, { depth: 4, breakLength: Infinity })

/** `actual` deep-equals `expected` (strictly: same types, same keys). */
export function same (actual: unknown, expected: unknown, duty: string): void {
  named(duty, () => { assert.deepStrictEqual(actual, expected) })
}

/** `actual` does not deep-equal `unexpected`. */
export function differs (actual: unknown, unexpected: unknown, duty: string): void {
  named(duty, () => { assert.notDeepStrictEqual(actual, unexpected) })
}

/** `value` is truthy; `found` is shown when it is not. */
export function ok (value: unknown, duty: string, found?: unknown): void {
  if (!value) throw new AssertionError({ message: found === undefined ? duty : `${duty} (found ${shown(found)})`, actual: value, expected: true, operator: '==' })
}

/** `actual` is a string matching `pattern` (a string: contained in it). */
export function matches (actual: unknown, pattern: RegExp | string, duty: string): void {
  named(duty, () => {
    assert.equal(typeof actual, 'string', 'a string')
    if (typeof pattern === 'string') assert.ok((actual as string).includes(pattern), `${shown(actual)} contains ${shown(pattern)}`)
    else assert.match(actual as string, pattern)
  })
}

export function fail (duty: string): never {
  throw new AssertionError({ message: duty, operator: 'fail' })
}

/**
 * `promise` rejects with a `CartActionError` whose domain reason is one of `reasons` (a host may say more precisely
 * why than another). Anything else fails: the drawer's routes catch that one class, so a host that refused with
 * another error would answer 500 where the drawer promises 400/404/409.
 */
export async function refuses (promise: Promise<unknown>, reasons: string | readonly string[], duty: string): Promise<void> {
  const expected = typeof reasons === 'string' ? [reasons] : reasons
  let refusal: unknown
  try {
    await promise
  } catch (error) {
    refusal = error
  }
  if (refusal === undefined) fail(`${duty}: must refuse (with ${expected.join(' or ')}), but the change was made`)
  ok(refusal instanceof CartActionError, `${duty}: must refuse with a CartActionError (the drawer answers any other error 500)`, refusal)
  const given = (refusal as CartActionError).domainError?.reason
  ok(given !== undefined && expected.includes(given), `${duty}: must refuse with the reason ${expected.join(' or ')}`, given)
}
