import type { Address, BillingAddress } from '../../../kernel/domain/types.ts'

/** An address as the Store API sends and takes it (snake_case, every field a string). */
export interface WireAddress {
  first_name: string
  last_name: string
  company: string
  address_1: string
  address_2: string
  city: string
  state: string
  postcode: string
  country: string
  phone: string
}

export interface WireBillingAddress extends WireAddress {
  email: string
}

export function toWireAddress (address: Address): WireAddress {
  return {
    first_name: address.firstName,
    last_name: address.lastName,
    company: address.company,
    address_1: address.address1,
    address_2: address.address2,
    city: address.city,
    state: address.state,
    postcode: address.postcode,
    country: address.country,
    phone: address.phone
  }
}

export function toWireBilling (address: BillingAddress): WireBillingAddress {
  return { ...toWireAddress(address), email: address.email }
}

/** A request's (partial) address over a base: fields the request leaves out keep the base's value. */
export function fromWireAddress (wire: Partial<WireAddress>, base: Address): Address {
  return {
    firstName: wire.first_name ?? base.firstName,
    lastName: wire.last_name ?? base.lastName,
    company: wire.company ?? base.company,
    address1: wire.address_1 ?? base.address1,
    address2: wire.address_2 ?? base.address2,
    city: wire.city ?? base.city,
    state: wire.state ?? base.state,
    postcode: wire.postcode ?? base.postcode,
    country: wire.country ?? base.country,
    phone: wire.phone ?? base.phone
  }
}

export function fromWireBilling (wire: Partial<WireBillingAddress>, base: BillingAddress): BillingAddress {
  return { ...fromWireAddress(wire, base), email: wire.email ?? base.email }
}
