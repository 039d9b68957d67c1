/**
 * `cart-drawer-service/testing`: the commerce port's contract kit for hosts. A shop that implements `CommercePort`
 * runs `commercePortContract` in its own test suite (tap or node:test; the kit asserts with `node:assert/strict` and
 * needs no test library), and plugin-level tests use `createMemoryHost`, the example host in memory. The guide is
 * docs/port-contract-kit.md. This file is the module's only public surface.
 */
export {
  commercePortContract,
  type ContractTest, type ContractTestContext, type HostCartResponse, type PortContractFixtures, type PortContractHost,
  type PortContractOptions, type PortContractStart
} from './contract.ts'
export { createMemoryHost, MEMORY_HOST_FIXTURES, MEMORY_HOST_URL, type MemoryHost, type MemoryHostOptions } from './memory-host.ts'
