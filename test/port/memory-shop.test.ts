import { test } from 'tap'
import { commercePortContract, createMemoryHost } from '../../testing/index.ts'

/**
 * The commerce port's contract (the kit, `cart-drawer-service/testing`) against the example host
 * (examples/memory-shop/) as the kit's in-memory host builds it: the tea shop in the Free edition, with its own
 * in-memory catalog, carts, Cart-Tokens and login.
 */
commercePortContract(test, {
  name: 'the memory shop (examples/memory-shop/)',
  start: (prepare) => createMemoryHost({ prepare })
})
