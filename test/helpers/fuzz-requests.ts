import fc from 'fast-check'

/**
 * Hostile requests derived from the app's own OpenAPI document (which the routes' TypeBox schemas generate): for
 * every operation, values that follow its schemas, then mutated — wrong types, huge and unicode strings, deep
 * nesting, duplicate keys, prototype keys, broken JSON, wrong content types, oversized bodies, odd methods and
 * paths, bad tokens, nonces, cookies and origins.
 */

export interface Operation {
  method: string
  /** OpenAPI path, `{param}` templates included (the classic actions are a `wc-ajax` query parameter). */
  path: string
  parameters: Array<{ in: string, name: string, required?: boolean, schema?: Schema }>
  body: Schema | null
}

export type Schema = Record<string, any>

export interface FuzzRequest {
  method: string
  url: string
  headers: Record<string, string>
  payload?: string
  /** What was done to the request, for the report of a failure. */
  kind: string
}

export interface Credentials {
  cartToken: string
  admin: { cookie: string, nonce: string }
  shopper: { cookie: string, nonce: string }
}

const HTTP_METHODS = new Set(['get', 'post', 'put', 'patch', 'delete', 'head', 'options'])

/** Every operation of an OpenAPI 3 document, with `$ref`s to components resolved. */
export function operationsOf (document: Schema): Operation[] {
  const components = (document.components?.schemas ?? {}) as Record<string, Schema>
  const resolve = (schema: unknown, depth = 0): Schema => {
    if (schema === null || typeof schema !== 'object' || depth > 20) return (schema ?? {}) as Schema
    if (Array.isArray(schema)) return schema.map((item) => resolve(item, depth + 1)) as unknown as Schema
    const ref = (schema as Schema).$ref
    if (typeof ref === 'string') return resolve(components[ref.replace('#/components/schemas/', '')] ?? {}, depth + 1)
    return Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, resolve(value, depth + 1)]))
  }
  const operations: Operation[] = []
  for (const [path, item] of Object.entries(document.paths as Record<string, Schema>)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!HTTP_METHODS.has(method)) continue
      const body = operation.requestBody?.content?.['application/json']?.schema
      operations.push({
        method: method.toUpperCase(),
        path,
        parameters: resolve(operation.parameters ?? []) as unknown as Operation['parameters'],
        body: body === undefined ? null : resolve(body)
      })
    }
  }
  return operations
}

// ------------------------------------------------------------------------------------------------ values

const hostileStrings = fc.constantFrom(
  '', ' ', '\u0000', '\u202e\u0644\u0627', '𝕏'.repeat(300), 'e\u0301'.repeat(50), '\ud800', '\udfff\ud800',
  '<script>window.__xss=1</script>', '"><img src=x onerror=alert(1)>', '{{constructor.constructor("return 1")()}}',
  '../../etc/passwd', '%00%2e%2e%2f', "' OR 1=1 --", '$(id)', 'a'.repeat(70_000), '\r\nSet-Cookie: x=1',
  '__proto__', 'constructor', 'prototype', 'NaN', 'Infinity', '-0', '1e309', '0x10', ' 42 ', '١٢٣'
)

const anyString = fc.oneof(
  { weight: 3, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 3, arbitrary: hostileStrings }
)

const oddNumbers = fc.oneof(
  fc.integer({ min: -5, max: 200 }),
  fc.constantFrom(0, -1, 2 ** 31, 2 ** 53, -(2 ** 53), Number.MAX_SAFE_INTEGER + 2, 1e308, 0.5, -0.0001),
  fc.double({ noNaN: true, noDefaultInfinity: true })
)

/** Any JSON value, sometimes of the wrong kind for the schema. */
const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  anyString,
  oddNumbers,
  fc.boolean(),
  fc.constant(null),
  fc.constant([]),
  fc.constant({}),
  fc.array(anyString, { maxLength: 5 }),
  fc.dictionary(anyString, anyString, { maxKeys: 5 })
)

/** A value that follows `schema` most of the time (enough to get past validation), with hostile strings. */
export function valueOf (schema: Schema | undefined, depth = 0): fc.Arbitrary<unknown> {
  if (schema === undefined || depth > 6) return wrongValue
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return fc.constantFrom(...(schema.enum as unknown[]))
  if ('const' in schema) return fc.constant(schema.const)
  const choices = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined
  if (Array.isArray(choices) && choices.length > 0) return fc.oneof(...choices.map((choice) => valueOf(choice, depth + 1)))
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type
  switch (type) {
    case 'string':
      if (schema.format === 'date') return fc.oneof(fc.date({ noInvalidDate: true }).map((date) => date.toISOString().slice(0, 10)), anyString)
      if (typeof schema.pattern === 'string' && schema.pattern.includes('0-9a-f')) return fc.oneof(fc.stringMatching(/^[0-9a-f]{32}$/), anyString)
      return fc.oneof(fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 30, 30) }), anyString)
    case 'integer':
      return fc.oneof(
        { weight: 3, arbitrary: fc.integer({ min: schema.minimum ?? 0, max: Math.min(schema.maximum ?? 200, 2 ** 31) }) },
        { weight: 1, arbitrary: oddNumbers }
      )
    case 'number':
      return oddNumbers
    case 'boolean':
      return fc.boolean()
    case 'array':
      return fc.array(valueOf(schema.items as Schema | undefined, depth + 1), { maxLength: Math.min(schema.maxItems ?? 4, 4) })
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, Schema>
      const required = new Set((schema.required ?? []) as string[])
      const model = Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, valueOf(property, depth + 1)]))
      return fc.record(model, { requiredKeys: Object.keys(properties).filter((name) => required.has(name)) })
    }
    default:
      return wrongValue
  }
}

// ------------------------------------------------------------------------------------------------ mutations

/** `[path, value]` with the value replaced by one of the wrong kind somewhere inside. */
function mutateDeep (value: unknown, pick: number, replacement: unknown): unknown {
  if (value === null || typeof value !== 'object') return replacement
  const entries = Array.isArray(value) ? value.map((item, index) => [String(index), item] as const) : Object.entries(value)
  if (entries.length === 0) return replacement
  const [key, inner] = entries[pick % entries.length]!
  const copy: any = Array.isArray(value) ? [...value] : { ...value }
  copy[key] = pick % 3 === 0 ? replacement : mutateDeep(inner, Math.floor(pick / 3), replacement)
  return copy
}

function deepNesting (depth: number, kind: 'array' | 'object'): string {
  return kind === 'array' ? `${'['.repeat(depth)}1${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`
}

/** A JSON text with a second copy of one key, or prototype keys, spliced into an object text. */
function spliceKeys (json: string, extra: string): string {
  return json.startsWith('{') && json !== '{}' ? `{${extra},${json.slice(1)}` : `{${extra}}`
}

type BodyMaker = (valid: unknown) => fc.Arbitrary<{ payload: string | undefined, contentType: string | undefined, kind: string }>
const json = (payload: string, kind: string, contentType = 'application/json') => ({ payload, contentType, kind })

const bodyMakers: Array<{ weight: number, make: BodyMaker }> = [
  { weight: 6, make: (valid) => fc.constant(json(JSON.stringify(valid), 'schema-shaped')) },
  { weight: 4, make: (valid) => fc.tuple(fc.nat(), wrongValue).map(([pick, wrong]) => json(JSON.stringify(mutateDeep(valid, pick, wrong)) ?? 'null', 'wrong type inside')) },
  { weight: 2, make: () => wrongValue.map((value) => json(JSON.stringify(value), 'wrong top-level type')) },
  { weight: 1, make: () => fc.jsonValue({ maxDepth: 4 }).map((value) => json(JSON.stringify(value), 'random JSON')) },
  { weight: 1, make: () => fc.tuple(fc.integer({ min: 100, max: 5000 }), fc.constantFrom('array' as const, 'object' as const)).map(([depth, kind]) => json(deepNesting(depth, kind), `nested ${depth} deep`)) },
  {
    weight: 2,
    make: (valid) => fc.constantFrom(
      '"__proto__":{"polluted":"yes","isAdmin":true}',
      '"constructor":{"prototype":{"polluted":"yes"}}',
      '"__proto__":[1,2]',
      '"prototype":{"polluted":"yes"}'
    ).map((extra) => json(spliceKeys(JSON.stringify(valid), extra), 'prototype keys'))
  },
  {
    weight: 1,
    make: (valid) => fc.constant(valid).map((value) => {
      const text = JSON.stringify(value)
      const key = value !== null && typeof value === 'object' && !Array.isArray(value) ? Object.keys(value)[0] : undefined
      return json(key === undefined ? '{"a":1,"a":2}' : spliceKeys(text, `${JSON.stringify(key)}:${JSON.stringify({ duplicate: true })}`), 'duplicate keys')
    })
  },
  {
    weight: 2,
    make: (valid) => fc.constantFrom(
      (text: string) => text.slice(0, Math.max(1, text.length - 1)), (text: string) => `${text},`, () => '{"a":NaN}', () => "{'a':1}",
      () => '', () => ' ', () => '\u0000', () => '{"a":1}{"b":2}', () => '[1,]', () => '{"a":"\\ud800"}', () => '\ufeff{}'
    ).map((breakIt) => json(breakIt(JSON.stringify(valid)), 'broken JSON'))
  },
  {
    weight: 2,
    make: (valid) => fc.constantFrom(
      'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml',
      'application/json; charset=utf-16', 'application/json; charset=latin1', 'json', '*/*', 'application/JSON', 'application/vnd.api+json'
    ).map((contentType) => json(JSON.stringify(valid), `content type ${contentType}`, contentType))
  },
  { weight: 1, make: (valid) => fc.constant(json(JSON.stringify(valid), 'no content type', '')) },
  { weight: 1, make: () => fc.integer({ min: 9 * 1024, max: 300 * 1024 }).map((bytes) => json(`{"pad":"${'x'.repeat(bytes)}"}`, `oversized ${bytes} bytes`)) },
  { weight: 1, make: () => fc.constant(json('code=x&__proto__[polluted]=1&a[b][c]=1', 'form body', 'application/x-www-form-urlencoded')) }
]

// ------------------------------------------------------------------------------------------------ requests

/** Percent-encoding that also takes lone surrogates (as their UTF-8 replacement bytes). */
function encode (value: string): string {
  try {
    return encodeURIComponent(value)
  } catch {
    return [...Buffer.from(value, 'utf8')].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('')
  }
}

/** Any generated value as text (objects may carry keys such as `toString` that break `String()`). */
function text (value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value) ?? 'undefined'
}

function fillPath (path: string, values: Record<string, unknown>): string {
  return path.replace(/\{([^}]+)\}/g, (_match, name: string) => encode(text(values[name] ?? 'x')))
}

function queryString (values: Record<string, unknown>): string {
  const entries = Object.entries(values).filter(([, value]) => value !== undefined)
  if (entries.length === 0) return ''
  const search = new URLSearchParams()
  for (const [name, value] of entries) search.append(name, text(value))
  return search.toString()
}

const pathMutations = fc.constantFrom(
  ...Array.from({ length: 12 }, () => (path: string) => path),
  (path: string) => path.replace('/svc/', '/%73vc/'),
  (path: string) => path.replace(/\/$/, '') + '//',
  (path: string) => `${path}/../${path.split('/').pop() ?? ''}`,
  (path: string) => `${path}%00`,
  (path: string) => `${path}/${'a'.repeat(3000)}`,
  (path: string) => path.toUpperCase()
)

const extraQuery = fc.oneof(
  { weight: 6, arbitrary: fc.constant('') },
  { weight: 1, arbitrary: fc.constantFrom('_jsonp=cb', '_method=DELETE', '__proto__[x]=1', 'constructor[prototype][x]=1', 'a=1&a=2&a=3', `big=${'b'.repeat(9000)}`, '%zz=1') },
  { weight: 1, arbitrary: fc.tuple(anyString, anyString).map(([name, value]) => `${encode(name)}=${encode(value)}`) }
)

const badToken = fc.oneof(
  fc.constantFrom('', 'null', 'Bearer x', 'a.b.c', 'eyJhbGciOiJub25lIn0.eyJ1c2VyX2lkIjoieCJ9.', 'x'.repeat(5000), '\u00e9\u00e8', '..', 'a.b.c.d'),
  fc.string({ maxLength: 60 })
)

function headerValue (value: string): string {
  // Headers carry Latin-1 only: anything else is what a broken client would send as bytes.
  return Buffer.from(value, 'utf8').toString('latin1').replace(/[\r\n\0]/g, '')
}

const credentialKinds = ['none', 'guest', 'shopper', 'admin', 'bad token', 'bad nonce', 'bad cookie', 'guest with nonce'] as const

/** Requests over every operation; `credentials` are the fuzzer's own visitors (their tokens stay valid). */
export function requestArbitrary (operations: readonly Operation[], credentials: Credentials, origins: readonly string[]): fc.Arbitrary<FuzzRequest> {
  const perOperation = operations.map((operation) => {
    const paramValues = fc.record(Object.fromEntries(operation.parameters.map((parameter) => [
      `${parameter.in}:${parameter.name}`,
      fc.oneof({ weight: 3, arbitrary: valueOf(parameter.schema) }, { weight: 1, arbitrary: wrongValue }, { weight: 1, arbitrary: fc.constant(undefined) })
    ])))
    const body = operation.body === null
      ? fc.oneof({ weight: 4, arbitrary: fc.constant({ payload: undefined as string | undefined, contentType: undefined as string | undefined, kind: 'no body' }) }, { weight: 1, arbitrary: bodyMakers[0]!.make({ unexpected: 'body' }) })
      : valueOf(operation.body).chain((valid) => fc.oneof(...bodyMakers.map(({ weight, make }) => ({ weight, arbitrary: make(valid) }))))
    const method = fc.oneof(
      { weight: 12, arbitrary: fc.constant(operation.method) },
      { weight: 1, arbitrary: fc.constantFrom('PUT', 'PATCH', 'OPTIONS', 'HEAD', 'TRACE', 'DELETE', 'POST', 'GET') }
    )
    return fc.record({
      method,
      pathMutation: pathMutations,
      params: paramValues,
      body,
      extra: extraQuery,
      who: fc.constantFrom(...credentialKinds),
      token: badToken,
      origin: fc.oneof({ weight: 5, arbitrary: fc.constant<string | null>(null) }, { weight: 1, arbitrary: fc.constantFrom(...origins, 'null', 'https://evil.example', 'http://shop.test.evil.example', 'javascript:alert(1)') }),
      override: fc.oneof({ weight: 12, arbitrary: fc.constant<string | null>(null) }, { weight: 1, arbitrary: fc.constantFrom('DELETE', 'GET', 'x') })
    }).map(({ method, pathMutation, params, body, extra, who, token, origin, override }): FuzzRequest => {
      const inPath: Record<string, unknown> = {}
      const inQuery: Record<string, unknown> = {}
      const headers: Record<string, string> = {}
      for (const [key, value] of Object.entries(params)) {
        const [where, name] = key.split(':') as [string, string]
        if (where === 'path') inPath[name] = value
        else if (where === 'query') inQuery[name] = value
        else if (value !== undefined) headers[name.toLowerCase()] = headerValue(text(value))
      }
      const [pathPart, fixedQuery] = fillPath(operation.path, inPath).split('?') as [string, string | undefined]
      const query = [fixedQuery, queryString(inQuery), extra].filter((part) => part !== undefined && part !== '').join('&')
      const url = `${pathMutation(pathPart)}${query === '' ? '' : `?${query}`}`
      // The fuzzer never logs its own visitors out: that would only make the rest of the run less interesting.
      const mayUseSession = pathPart !== '/account/logout'
      switch (who) {
        case 'guest': headers['cart-token'] = credentials.cartToken; break
        case 'shopper':
          if (mayUseSession) Object.assign(headers, { 'cart-token': credentials.cartToken, cookie: credentials.shopper.cookie, 'x-wp-nonce': credentials.shopper.nonce })
          break
        case 'admin':
          if (mayUseSession) Object.assign(headers, { cookie: credentials.admin.cookie, 'x-wp-nonce': credentials.admin.nonce })
          break
        case 'bad token': headers['cart-token'] = headerValue(token); break
        case 'bad nonce':
          if (mayUseSession) Object.assign(headers, { cookie: credentials.admin.cookie, 'x-wp-nonce': headerValue(token) })
          break
        case 'bad cookie': Object.assign(headers, { cookie: `svc_session=${headerValue(token)}; svc_cart=${headerValue(token)}`, 'x-wp-nonce': credentials.admin.nonce }); break
        case 'guest with nonce': Object.assign(headers, { 'cart-token': credentials.cartToken, 'x-wp-nonce': credentials.admin.nonce }); break
      }
      if (origin !== null) headers.origin = headerValue(origin)
      if (override !== null) headers['x-http-method-override'] = override
      if (body.contentType !== undefined && body.contentType !== '') headers['content-type'] = body.contentType
      return {
        method,
        url,
        headers,
        ...(body.payload === undefined || method === 'GET' || method === 'HEAD' ? {} : { payload: body.payload }),
        kind: `${operation.method} ${operation.path} as ${who}: ${body.kind}`
      }
    })
  })
  return fc.oneof(...perOperation)
}
