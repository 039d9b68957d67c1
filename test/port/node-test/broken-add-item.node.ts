import { test } from 'node:test'
import { commercePortContract, createMemoryHost, type PortContractHost } from '../../../testing/index.ts'

/**
 * The port contract kit under node:test against a broken port: the in-memory host's, with a `carts.addItem` that
 * ignores the quantity asked (it always adds one). The kit must fail, naming that duty. Run by
 * test/port/contract-kit.test.ts.
 */
function ignoringQuantity (host: PortContractHost): PortContractHost {
  const carts = new Proxy(host.commerce.carts, {
    get (target, property) {
      if (property === 'addItem') {
        return (key: string, input: Parameters<typeof target.addItem>[1], viewer?: Parameters<typeof target.addItem>[2]) =>
          target.addItem(key, { ...input, quantity: 1 }, viewer)
      }
      const value: unknown = Reflect.get(target, property, target)
      return typeof value === 'function' ? value.bind(target) : value
    }
  })
  return { ...host, commerce: { ...host.commerce, carts } }
}

commercePortContract(test, {
  name: 'a port whose carts.addItem ignores the quantity',
  start: async (prepare) => ignoringQuantity(await createMemoryHost({ prepare }))
})
