/** The platform's migration of stored cart lines to the drawer's one mark (`0007_cart_line_marks`). */
import { test } from 'tap'
import { migrate, migrations } from '../../storage/sql/migrations.ts'
import { storageBackends } from '../helpers/storage-backends.ts'

const BEFORE = migrations.findIndex((migration) => migration.id === '0007_cart_line_marks')

const line = (key: string, fields: Record<string, unknown> = {}) => ({ key, productId: 1, variationId: 0, variation: {}, quantity: 2, ...fields })

for (const backend of storageBackends()) {
  test(`${backend.name}: a stored line's group, reward id or origin becomes its mark; other lines and fields stay as they were`, { skip: backend.skip }, async (t) => {
    const { clients: [client], dispose } = await backend.createBareClients()
    t.teardown(dispose)
    t.ok(BEFORE > 0, 'the migration is in the list')
    await migrate(client, migrations.slice(0, BEFORE))
    const old = {
      lines: [
        line('own'),
        line('addon', { group: 'addon:wrap', origin: 'addon' }),
        line('bundle', { group: 'bundle:kit', origin: 'bundle' }),
        line('gift', { group: 'reward:t1', rewardId: 't1' }),
        line('gift-without-group', { rewardId: 't2' }),
        line('recommended', { origin: 'recommendation' })
      ],
      coupons: ['ten'],
      customer: { email: 'a@b.example' }
    }
    await client.query('INSERT INTO svc_carts (key, data, version) VALUES ($1, $2, 3), ($3, $4, 1)', ['old', JSON.stringify(old), 'plain', JSON.stringify({ lines: [line('own')], coupons: [] })])
    t.same(await migrate(client), migrations.slice(BEFORE).map((migration) => migration.id), 'the pending migrations run')
    const { rows } = await client.query<{ key: string, data: { lines: Array<Record<string, unknown>>, coupons: string[], customer?: unknown }, version: number }>('SELECT key, data, version FROM svc_carts ORDER BY key')
    const migrated = rows.find((row) => row.key === 'old')!
    t.same(migrated.data.lines.map((stored) => [stored.key, stored.mark ?? null]), [
      ['own', null], ['addon', 'addon:wrap'], ['bundle', 'bundle:kit'], ['gift', 'reward:t1'], ['gift-without-group', 'reward:t2'], ['recommended', 'recommendation']
    ], 'each line\'s mark, in the lines\' order')
    t.notOk(migrated.data.lines.some((stored) => 'group' in stored || 'origin' in stored || 'rewardId' in stored), 'no line keeps a field of the three')
    t.same(migrated.data.lines[1], { key: 'addon', productId: 1, variationId: 0, variation: {}, quantity: 2, mark: 'addon:wrap' }, 'a line\'s other fields are kept')
    t.same([migrated.data.coupons, migrated.data.customer, migrated.version], [['ten'], { email: 'a@b.example' }, 3], 'the cart\'s other data and version are kept')
    t.same(rows.find((row) => row.key === 'plain')!.data, { lines: [line('own')], coupons: [] }, 'a cart without drawer fields is untouched')
  })
}
