import { test } from 'node:test'
import { commercePortContract, createMemoryHost } from '../../../testing/index.ts'

/**
 * The port contract kit under node:test (no tap): the in-memory host passes it. Run by test/port/contract-kit.test.ts
 * as `node --import tsx --test` runs it in a host's own project.
 */
commercePortContract(test, {
  name: 'the in-memory host under node:test',
  start: (prepare) => createMemoryHost({ prepare })
})
