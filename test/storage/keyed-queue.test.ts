import { test } from 'tap'
import { KeyedQueue } from '../../storage/keyed-queue.ts'

/** A task whose end the test decides. */
function gate (): { promise: Promise<void>, open: () => void, fail: (error: Error) => void } {
  let open!: () => void
  let fail!: (error: Error) => void
  const promise = new Promise<void>((resolve, reject) => { open = resolve; fail = reject })
  return { promise, open, fail }
}

test('tasks of one key run one after another, in arrival order, whatever the one before did', async (t) => {
  const queue = new KeyedQueue()
  const log: string[] = []
  const first = gate()
  const second = gate()
  const a = queue.run('cart', async () => { log.push('a start'); await first.promise; log.push('a end'); return 'a' })
  const b = queue.run('cart', async () => { log.push('b start'); await second.promise; log.push('b end') })
  const c = queue.run('cart', async () => { log.push('c start'); return 'c' })
  await new Promise((resolve) => setImmediate(resolve))
  t.same(log, ['a start'], 'the second task waits for the first')
  first.open()
  t.equal(await a, 'a')
  second.fail(new Error('refused'))
  await t.rejects(b, { message: 'refused' }, 'a failure reaches its own caller')
  t.equal(await c, 'c', 'and the next task still runs')
  t.same(log, ['a start', 'a end', 'b start', 'c start'])
  await new Promise((resolve) => setImmediate(resolve))
  t.equal(queue.size, 0, 'nothing is kept once the key is idle')
})

test('tasks of different keys run side by side', async (t) => {
  const queue = new KeyedQueue()
  const held = gate()
  let otherRan = false
  const slow = queue.run('one', () => held.promise)
  await queue.run('two', async () => { otherRan = true })
  t.ok(otherRan, 'another key did not wait')
  held.open()
  await slow
})
