import assert from 'node:assert/strict'
import { test } from 'node:test'
import { commercePortContract, createMemoryHost } from '../../../testing/index.ts'

/**
 * The port contract kit under node:test (no tap): the in-memory host passes it, and serves a test of code over its
 * port (the examples of docs/port-contract-kit.md). Run by test/port/contract-kit.test.ts as
 * `node --import tsx --test` runs it in a host's own project.
 */
commercePortContract(test, {
  name: 'the in-memory host under node:test',
  start: (prepare) => createMemoryHost({ prepare })
})

test('the in-memory host: a plugin over the port adds a header link to the storefront', async () => {
  const host = await createMemoryHost({
    prepare: (app, commerce) => {
      commerce.filters!.add('storefront_header_links', (links) => [...links, { href: '/help', label: 'Help' }])
    }
  })
  try {
    const page = await host.app.inject({ method: 'GET', url: '/' })
    assert.equal(page.statusCode, 200)
    assert.match(page.body, /href="\/help"/)
  } finally {
    await host.close()
  }
})
