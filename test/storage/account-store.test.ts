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

    const session = { idHash: randomUUID(), userId: created.id, createdAt: '2025-03-01T10:00:00.000Z', expiresAt: '2025-03-15T10:00:00.000Z', capabilities: ['manage_options'] }
    await storage.createSession(session)
    t.strictSame(await storage.getSession(session.idHash), session)
    t.equal(await storage.getSession('missing'), null)
    await storage.deleteSession(session.idHash)
    t.equal(await storage.getSession(session.idHash), null)
    await storage.deleteSession(session.idHash)
  })

  t.test('sessions: times as instants, refused for an unknown user or a taken id hash', async (t) => {
    const user = await storage.ensureUser({ email: 'lin@example.com', displayName: 'Lin', passwordHash: 'h', capabilities: [] })
    const idHash = randomUUID()
    await storage.createSession({ idHash, userId: user.id, createdAt: '2025-03-01T12:00:00+02:00', expiresAt: '2025-03-02T00:00:00Z', capabilities: [] })
    t.strictSame(await storage.getSession(idHash),
      { idHash, userId: user.id, createdAt: '2025-03-01T10:00:00.000Z', expiresAt: '2025-03-02T00:00:00.000Z', capabilities: [] }, 'read back in UTC')
    await t.rejects(storage.createSession({ idHash, userId: user.id, createdAt: '2025-03-01T10:00:00.000Z', expiresAt: '2025-03-02T10:00:00.000Z', capabilities: [] }),
      'a session id hash is stored once')
    await t.rejects(storage.createSession({ idHash: randomUUID(), userId: user.id + 1000, createdAt: '2025-03-01T10:00:00.000Z', expiresAt: '2025-03-02T10:00:00.000Z', capabilities: [] }),
      'a session names a stored user')
  })

  t.test('touchSession moves a session\'s expiry on, never back', async (t) => {
    const user = await storage.ensureUser({ email: 'kai@example.com', displayName: 'Kai', passwordHash: 'h', capabilities: ['read'] })
    const idHash = randomUUID()
    await storage.createSession({ idHash, userId: user.id, createdAt: '2025-03-01T10:00:00.000Z', expiresAt: '2025-03-01T10:30:00.000Z', capabilities: ['read'] })
    await storage.touchSession(idHash, '2025-03-01T11:00:00+01:00')
    t.equal((await storage.getSession(idHash))?.expiresAt, '2025-03-01T10:30:00.000Z', 'an earlier instant changes nothing')
    await storage.touchSession(idHash, '2025-03-01T10:45:00.000Z')
    t.strictSame(await storage.getSession(idHash),
      { idHash, userId: user.id, createdAt: '2025-03-01T10:00:00.000Z', expiresAt: '2025-03-01T10:45:00.000Z', capabilities: ['read'] }, 'a later one is kept')
    await storage.touchSession('missing', '2025-03-01T11:00:00.000Z')
    t.equal(await storage.getSession('missing'), null, 'a session not stored stays so')
    t.equal(await storage.purgeExpiredSessions('2025-03-01T10:40:00.000Z', 10), 0, 'the moved expiry is what the sweep reads')
    t.equal(await storage.purgeExpiredSessions('2025-03-01T10:46:00.000Z', 10), 1)
  })

  t.test('replacePasswordHash replaces only the hash it was given; setUserCapabilities', async (t) => {
    const user = await storage.ensureUser({ email: 'ines@example.com', displayName: 'Ines', passwordHash: 'old-hash', capabilities: ['read'] })
    t.equal(await storage.replacePasswordHash(user.id, 'not-the-hash', 'new-hash'), false, 'a hash changed meanwhile is kept')
    t.equal((await storage.getUser(user.id))?.passwordHash, 'old-hash')
    t.equal(await storage.replacePasswordHash(user.id, 'old-hash', 'new-hash'), true)
    t.equal((await storage.getUserByEmail('ines@example.com'))?.passwordHash, 'new-hash')
    t.equal(await storage.replacePasswordHash(user.id + 1000, 'old-hash', 'x'), false, 'an unknown user')

    await storage.setUserCapabilities(user.id, ['read', 'manage_shop'])
    t.strictSame((await storage.getUser(user.id))?.capabilities, ['read', 'manage_shop'])
    await storage.setUserCapabilities(user.id + 1000, ['manage_shop'])
    t.equal(await storage.getUser(user.id + 1000), null, 'an unknown user is not created')
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
