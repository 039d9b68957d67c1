import { test } from 'node:test'
import type { Viewer } from '../../../app.ts'
import { commercePortContract, createMemoryHost, type PortContractHost } from '../../../testing/index.ts'

/**
 * The port contract kit under node:test against a broken port: the in-memory host's, whose `carts.change` ignores the
 * quantity an add asks (it always adds one) and which has no `addItem` of its own (the drawer's default adds through
 * `change`). The kit must fail, naming that duty. Run by
 * test/port/contract-kit.test.ts.
 */
function ignoringQuantity (host: PortContractHost): PortContractHost {
  const carts = new Proxy(host.commerce.carts, {
    get (target, property) {
      if (property === 'addItem') return undefined
      if (property === 'change') {
        return (key: string, changes: Parameters<typeof target.change>[1], viewer: Viewer, options?: Parameters<typeof target.change>[3]) =>
          target.change(key, changes.map((change) => change.type === 'add' ? { ...change, quantity: 1 } : change), viewer, options)
      }
      const value: unknown = Reflect.get(target, property, target)
      return typeof value === 'function' ? value.bind(target) : value
    }
  })
  return { ...host, commerce: { ...host.commerce, carts } }
}

commercePortContract(test, {
  name: 'a port whose carts.change ignores the quantity of an add',
  start: async (prepare) => ignoringQuantity(await createMemoryHost({ prepare }))
})
