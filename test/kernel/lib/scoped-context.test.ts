import { setImmediate as nextTurn } from 'node:timers/promises'
import { test } from 'tap'
import { ScopedContext } from '../../../kernel/lib/index.ts'

test('the value is seen by everything the scope runs, across awaits, and nowhere else', async (t) => {
  const context = new ScopedContext<string>()
  t.equal(context.get(), undefined, 'none before any scope')
  const seen = await context.run('a', async () => {
    const before = context.get()
    await nextTurn()
    const after = await Promise.resolve().then(() => context.get())
    return [before, after]
  })
  t.same(seen, ['a', 'a'])
  t.equal(context.get(), undefined, 'none after the scope')
  t.equal(context.open, 0)
})

test('concurrent scopes keep their own values, and one ending leaves the other its value', async (t) => {
  const context = new ScopedContext<string>()
  let releaseFirst!: () => void
  const firstMayEnd = new Promise<void>((resolve) => { releaseFirst = resolve })
  const first = context.run('first', async () => {
    await firstMayEnd
    return context.get()
  })
  const second = context.run('second', async () => {
    t.equal(context.open, 2, 'both scopes are open')
    releaseFirst()
    t.equal(await first, 'first', 'the first scope saw its own value')
    t.equal(context.open, 1, 'the first scope has ended')
    await nextTurn()
    return context.get()
  })
  t.equal(await second, 'second', 'the second still sees its value after the first ended')
  t.equal(context.open, 0)
})

test('an inner scope shadows the outer one until it ends', async (t) => {
  const context = new ScopedContext<string>()
  const seen = await context.run('outer', async () => {
    const inner = await context.run('inner', async () => {
      await nextTurn()
      return context.get()
    })
    return [inner, context.get()]
  })
  t.same(seen, ['inner', 'outer'])
})

test('a scope that fails ends, and its error comes through', async (t) => {
  const context = new ScopedContext<string>()
  await t.rejects(context.run('failing', async () => {
    await nextTurn()
    throw new Error('the work failed')
  }), { message: 'the work failed' })
  t.equal(context.open, 0)
  t.equal(context.get(), undefined)
})

test('once the last scope has ended, work it left behind no longer sees its value', async (t) => {
  const context = new ScopedContext<string>()
  let late!: Promise<string | undefined>
  await context.run('over', async () => {
    // Started inside the scope, runs after it ended: its transaction or its response is over.
    late = nextTurn().then(() => nextTurn()).then(() => context.get())
  })
  t.equal(await late, undefined)
  t.equal(await context.run('again', async () => context.get()), 'again', 'a new scope works as before')
})
