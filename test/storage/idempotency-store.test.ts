/** The `IdempotencyStore` contract: claims, kept answers, locks and expiry, and the purge. */
import { randomUUID } from 'node:crypto'
import type { IdempotencyKeyClaim, IdempotentAnswer } from '../../storage/contract/index.ts'
import { contract } from './fixtures/contract.ts'

const T0 = Date.parse('2030-01-01T00:00:00.000Z')
const MINUTE = 60_000
const DAY = 24 * 60 * MINUTE
const at = (ms: number) => new Date(T0 + ms).toISOString()

/** A claim at `offset` ms after T0, locked for a minute, kept for a day. */
function claim (id: string, fingerprint: string, owner: string, offset = 0): IdempotencyKeyClaim {
  return { id, fingerprint, owner, now: at(offset), lockedUntil: at(offset + MINUTE), expiresAt: at(offset + DAY) }
}

const ANSWER: IdempotentAnswer = {
  status: 201,
  headers: { 'content-type': 'application/json; charset=utf-8', 'cart-token': 'token-1' },
  body: JSON.stringify({ items: [{ name: 'Bonnet « été » ☂', quantity: 1 }] })
}

contract('IdempotencyStore', async (t, storage) => {
  t.test('the first claim holds the key; a second finds it running, then its kept answer', async (t) => {
    const id = randomUUID()
    t.same(await storage.claimIdempotencyKey(claim(id, 'fp', 'first')), { state: 'claimed' })
    t.same(await storage.claimIdempotencyKey(claim(id, 'fp', 'second', 1000)), { state: 'running', fingerprint: 'fp' })
    t.same(await storage.claimIdempotencyKey(claim(id, 'other', 'third', 1000)), { state: 'running', fingerprint: 'fp' }, 'the holder\'s fingerprint, whatever the asker\'s')
    t.equal(await storage.completeIdempotencyKey(id, 'second', ANSWER), false, 'only the holder completes it')
    t.equal(await storage.completeIdempotencyKey(id, 'first', ANSWER), true)
    t.equal(await storage.completeIdempotencyKey(id, 'first', { ...ANSWER, status: 500 }), false, 'an answer is kept once')
    t.same(await storage.claimIdempotencyKey(claim(id, 'fp', 'fourth', 2000)), { state: 'done', fingerprint: 'fp', answer: ANSWER }, 'status, headers and body as kept')
    await storage.releaseIdempotencyKey(id, 'first')
    t.same(await storage.claimIdempotencyKey(claim(id, 'fp', 'fifth', 3000)), { state: 'done', fingerprint: 'fp', answer: ANSWER }, 'a kept answer is never released')
  })

  t.test('released by its holder only, a key is free again', async (t) => {
    const id = randomUUID()
    await storage.claimIdempotencyKey(claim(id, 'fp', 'first'))
    await storage.releaseIdempotencyKey(id, 'someone-else')
    t.same(await storage.claimIdempotencyKey(claim(id, 'fp', 'second')), { state: 'running', fingerprint: 'fp' }, 'another owner cannot release it')
    await storage.releaseIdempotencyKey(id, 'first')
    t.same(await storage.claimIdempotencyKey(claim(id, 'fp', 'second', 1000)), { state: 'claimed' })
    t.equal(await storage.completeIdempotencyKey(id, 'first', ANSWER), false, 'the released holder completes nothing')
  })

  t.test('a running claim whose lock ran out is taken over; its first holder can no longer complete it', async (t) => {
    const id = randomUUID()
    await storage.claimIdempotencyKey(claim(id, 'fp', 'stopped'))
    t.same(await storage.claimIdempotencyKey(claim(id, 'fp', 'retry', MINUTE - 1)), { state: 'running', fingerprint: 'fp' }, 'held until its lock ends')
    t.same(await storage.claimIdempotencyKey(claim(id, 'fp', 'retry', MINUTE)), { state: 'claimed' }, 'free from then on')
    t.equal(await storage.completeIdempotencyKey(id, 'stopped', ANSWER), false)
    t.equal(await storage.completeIdempotencyKey(id, 'retry', ANSWER), true)
    t.same(await storage.claimIdempotencyKey(claim(id, 'fp', 'later', 10 * MINUTE)), { state: 'done', fingerprint: 'fp', answer: ANSWER }, 'a kept answer has no lock to run out')
  })

  t.test('a key past its expiry is free: a new claim replaces it and its answer', async (t) => {
    const id = randomUUID()
    await storage.claimIdempotencyKey(claim(id, 'fp', 'first'))
    await storage.completeIdempotencyKey(id, 'first', ANSWER)
    t.equal((await storage.claimIdempotencyKey(claim(id, 'fp', 'second', DAY - 1))).state, 'done', 'kept until it expires')
    t.same(await storage.claimIdempotencyKey(claim(id, 'other', 'second', DAY)), { state: 'claimed' }, 'then anything may claim it')
    t.same(await storage.claimIdempotencyKey(claim(id, 'fp', 'third', DAY + 1)), { state: 'running', fingerprint: 'other' })
  })

  t.test('of concurrent claims of a free key exactly one holds it', async (t) => {
    const id = randomUUID()
    const claims = await Promise.all(Array.from({ length: 12 }, (_, index) => storage.claimIdempotencyKey(claim(id, 'fp', `owner-${index}`))))
    t.equal(claims.filter((found) => found.state === 'claimed').length, 1)
    t.equal(claims.filter((found) => found.state === 'running').length, 11)
  })

  t.test('purge deletes the keys expired before the cutoff, at most `limit`', async (t) => {
    const expired = [randomUUID(), randomUUID(), randomUUID()]
    for (const [index, id] of expired.entries()) {
      await storage.claimIdempotencyKey(claim(id, 'fp', 'owner', -2 * DAY - index))
    }
    const live = randomUUID()
    await storage.claimIdempotencyKey(claim(live, 'fp', 'owner'))
    await storage.completeIdempotencyKey(live, 'owner', ANSWER)
    t.equal(await storage.purgeIdempotencyKeys(at(0), 2), 2, 'two of the three, the limit')
    t.equal(await storage.purgeIdempotencyKeys(at(0), 10), 1, 'then the last one')
    t.equal(await storage.purgeIdempotencyKeys(at(0), 10), 0)
    t.equal((await storage.claimIdempotencyKey(claim(live, 'fp', 'again', 1000))).state, 'done', 'an unexpired key stays')
    t.same(await storage.claimIdempotencyKey(claim(expired[0]!, 'fp', 'new')), { state: 'claimed' }, 'a purged key is free')
  })
})
