/** The `AccountStore` contract: users and their sessions. */
import { randomUUID } from 'node:crypto'
import { contract } from './fixtures/contract.ts'

contract('AccountStore', async (t, storage) => {
  t.test('users and sessions', async (t) => {
    const created = await storage.ensureUser({
      email: 'Ada@Example.COM', displayName: 'Ada', passwordHash: 'hash-1', capabilities: ['manage_options']
    })
    t.equal(created.email, 'ada@example.com', 'e-mail is stored in lower case')
    t.type(created.id, 'number')
    const again = await storage.ensureUser({ email: 'ada@example.com', displayName: 'Other', passwordHash: 'hash-2', capabilities: [] })
    t.strictSame(again, created, 'ensureUser returns the existing user unchanged')
    t.strictSame(await storage.getUserByEmail('ADA@example.com'), created)
    t.strictSame(await storage.getUser(created.id), created)
    t.equal(await storage.getUserByEmail('nobody@example.com'), null)
    t.equal(await storage.getUser(created.id + 1000), null)

    const [one, two] = await Promise.all([
      storage.ensureUser({ email: 'grace@example.com', displayName: 'Grace', passwordHash: 'h', capabilities: [] }),
      storage.ensureUser({ email: 'Grace@example.com', displayName: 'Grace', passwordHash: 'h', capabilities: [] })
    ])
    t.equal(one.id, two.id, 'concurrent ensureUser calls agree')
    t.not(one.id, created.id, 'another e-mail, another user')

    const session = { id: randomUUID(), userId: created.id, createdAt: '2025-03-01T10:00:00.000Z', expiresAt: '2025-03-15T10:00:00.000Z' }
    await storage.createSession(session)
    t.strictSame(await storage.getSession(session.id), session)
    t.equal(await storage.getSession('missing'), null)
    await storage.deleteSession(session.id)
    t.equal(await storage.getSession(session.id), null)
    await storage.deleteSession(session.id)
  })

  t.test('sessions: times as instants, refused for an unknown user or a taken id', async (t) => {
    const user = await storage.ensureUser({ email: 'lin@example.com', displayName: 'Lin', passwordHash: 'h', capabilities: [] })
    const id = randomUUID()
    await storage.createSession({ id, userId: user.id, createdAt: '2025-03-01T12:00:00+02:00', expiresAt: '2025-03-02T00:00:00Z' })
    t.strictSame(await storage.getSession(id),
      { id, userId: user.id, createdAt: '2025-03-01T10:00:00.000Z', expiresAt: '2025-03-02T00:00:00.000Z' }, 'read back in UTC')
    await t.rejects(storage.createSession({ id, userId: user.id, createdAt: '2025-03-01T10:00:00.000Z', expiresAt: '2025-03-02T10:00:00.000Z' }),
      'a session id is stored once')
    await t.rejects(storage.createSession({ id: randomUUID(), userId: user.id + 1000, createdAt: '2025-03-01T10:00:00.000Z', expiresAt: '2025-03-02T10:00:00.000Z' }),
      'a session names a stored user')
  })

  t.test('a user read is the caller\'s to change', async (t) => {
    const user = await storage.ensureUser({ email: 'mo@example.com', displayName: 'Mo', passwordHash: 'h', capabilities: ['read'] })
    user.capabilities.push('manage_options')
    const read = await storage.getUser(user.id)
    t.same(read?.capabilities, ['read'])
    read!.capabilities.push('edit')
    t.same((await storage.getUserByEmail('mo@example.com'))?.capabilities, ['read'])
  })
})
