import { test } from 'tap'
import '../../../hosts/reference-shop/filters/hooks.ts'
import { FilterRegistry } from '../../../hosts/reference-shop/filters/registry.ts'

test('filters run by priority, then in the order they were added', async (t) => {
  const filters = new FilterRegistry()
  const calls: string[] = []
  filters.add('svc_rest_allowed_origins', (value) => { calls.push('b@10'); return [...value, 'b'] })
  filters.add('svc_rest_allowed_origins', (value) => { calls.push('a@5'); return [...value, 'a'] }, 5)
  filters.add('svc_rest_allowed_origins', (value) => { calls.push('c@10'); return [...value, 'c'] })
  filters.add('svc_rest_allowed_origins', (value) => { calls.push('d@20'); return [...value, 'd'] }, 20)
  filters.add('svc_rest_allowed_origins', (value) => { calls.push('e@-1'); return [...value, 'e'] }, -1)
  t.same(await filters.apply('svc_rest_allowed_origins', ['start']), ['start', 'e', 'a', 'b', 'c', 'd'])
  t.same(calls, ['e@-1', 'a@5', 'b@10', 'c@10', 'd@20'])
})

test('async and sync callbacks chain their values', async (t) => {
  const filters = new FilterRegistry()
  filters.add('svc_rest_trusted_proxy_cidrs', async (value) => {
    await new Promise((resolve) => setImmediate(resolve))
    return [...value, '10.0.0.0/8']
  })
  filters.add('svc_rest_trusted_proxy_cidrs', (value) => value.map((cidr) => cidr.toUpperCase()))
  t.same(await filters.apply('svc_rest_trusted_proxy_cidrs', ['fd00::/8']), ['FD00::/8', '10.0.0.0/8'])
})

test('a throwing callback is reported and the value from before it carries on', async (t) => {
  const reported: Array<[string, string]> = []
  const filters = new FilterRegistry((name, error) => reported.push([name, (error as Error).message]))
  filters.add('svc_rest_allowed_origins', (value) => [...value, 'first'])
  filters.add('svc_rest_allowed_origins', () => { throw new Error('sync boom') })
  filters.add('svc_rest_allowed_origins', async () => { throw new Error('async boom') })
  filters.add('svc_rest_allowed_origins', (value) => [...value, 'last'])
  t.same(await filters.apply('svc_rest_allowed_origins', []), ['first', 'last'])
  t.same(reported, [['svc_rest_allowed_origins', 'sync boom'], ['svc_rest_allowed_origins', 'async boom']])
})

test('no callbacks: the value comes back untouched; removal works', async (t) => {
  const filters = new FilterRegistry()
  const value = ['x']
  t.equal(await filters.apply('svc_rest_allowed_origins', value), value)
  t.notOk(filters.has('svc_rest_allowed_origins'))
  const remove = filters.add('svc_rest_allowed_origins', (origins) => [...origins, 'y'])
  t.ok(filters.has('svc_rest_allowed_origins'))
  t.same(await filters.apply('svc_rest_allowed_origins', ['x']), ['x', 'y'])
  remove()
  t.notOk(filters.has('svc_rest_allowed_origins'))
  t.same(await filters.apply('svc_rest_allowed_origins', ['x']), ['x'])
})

test('a callback that adds another filter affects the next run only', async (t) => {
  const filters = new FilterRegistry()
  filters.add('svc_rest_allowed_origins', (value) => {
    filters.add('svc_rest_allowed_origins', (inner) => [...inner, 'added'], 99)
    return [...value, 'adder']
  })
  t.same(await filters.apply('svc_rest_allowed_origins', []), ['adder'])
  // The second run sees the callback added during the first (and adds one more for the third).
  t.same(await filters.apply('svc_rest_allowed_origins', []), ['adder', 'added'])
})

test('a priority must be a finite number', async (t) => {
  const filters = new FilterRegistry()
  t.throws(() => filters.add('svc_rest_allowed_origins', (value) => value, Number.NaN), TypeError)
})
