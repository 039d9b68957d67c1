import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify'
import { test } from 'tap'
import { sharedSchemaController } from '../../config/schema-compilers.ts'
import { ErrorBody } from '../../kernel/schemas/error.ts'
import { build } from '../helper.ts'

/**
 * The root instance's shared schema compilers (config/schema-compilers.ts): a schema object is compiled once for every
 * app instance of the process, and what a compiled function depends on besides the schema (the instance's shared
 * schemas, its options) still makes the difference.
 */

interface Compiled {
  validate: unknown
  serialize: unknown
}

const itemBody = { type: 'object', properties: { quantity: { type: 'integer' } }, required: ['quantity'] }
const itemAnswer = { type: 'object', properties: { quantity: { type: 'integer' }, name: { type: 'string' } } }

/** A bare Fastify with one POST /item route on the module's schema objects; the route reports its compiled functions. */
async function itemApp (t: { teardown: (fn: () => unknown) => void }, options: Pick<FastifyServerOptions, 'schemaController'> = {}): Promise<{ app: FastifyInstance, compiled: () => Promise<Compiled> }> {
  const app = Fastify(options)
  t.teardown(() => app.close())
  app.post('/item', { schema: { body: itemBody, response: { 200: itemAnswer } } }, async (request, reply) => {
    seen = { validate: request.getValidationFunction('body'), serialize: reply.getSerializationFunction('200') }
    return { ...(request.body as object), name: 'tea' }
  })
  let seen: Compiled | undefined
  await app.ready()
  return {
    app,
    compiled: async () => {
      const response = await app.inject({ method: 'POST', url: '/item', payload: { quantity: 2 } })
      if (response.statusCode !== 200 || seen === undefined) throw new Error(`POST /item answered ${response.statusCode}: ${response.body}`)
      return seen
    }
  }
}

test('two instances with the shared compilers use the same compiled validator and serializer for a schema object', async (t) => {
  const first = await (await itemApp(t, { schemaController: sharedSchemaController })).compiled()
  const second = await (await itemApp(t, { schemaController: sharedSchemaController })).compiled()
  t.type(first.validate, 'function')
  t.type(first.serialize, 'function')
  t.equal(second.validate, first.validate, 'one validator')
  t.equal(second.serialize, first.serialize, 'one serializer')

  // Fastify's default makes compilers per instance: the sharing comes from the option.
  const third = await (await itemApp(t)).compiled()
  t.not(third.validate, first.validate, 'without the option, another validator')
  t.not(third.serialize, first.serialize, 'without the option, another serializer')
})

test('the compiled functions still validate and serialize as Fastify does', async (t) => {
  const { app } = await itemApp(t, { schemaController: sharedSchemaController })
  const good = await app.inject({ method: 'POST', url: '/item', payload: { quantity: '3', extra: true } })
  t.equal(good.statusCode, 200)
  t.same(good.json(), { quantity: 3, name: 'tea' }, 'coerced by Ajv, and only the answer schema\'s properties written')
  const bad = await app.inject({ method: 'POST', url: '/item', payload: { quantity: 'three' } })
  t.equal(bad.statusCode, 400)
  t.equal(bad.json().code, 'FST_ERR_VALIDATION')
})

test('a schema that refers to an instance\'s shared schema ($ref to addSchema) follows each instance\'s own', async (t) => {
  // The same route schema objects in both instances; the schema they refer to differs.
  const body = { $ref: 'amount#' }
  const answer = { type: 'object', properties: { amount: { $ref: 'amount#' } } }
  const instance = async (amount: object): Promise<FastifyInstance> => {
    const app = Fastify({ schemaController: sharedSchemaController })
    t.teardown(() => app.close())
    app.addSchema({ $id: 'amount', ...amount })
    app.post('/amount', { schema: { body, response: { 200: answer } } }, async (request) => ({ amount: request.body }))
    await app.ready()
    return app
  }
  const integers = await instance({ type: 'integer' })
  const strings = await instance({ type: 'string', maxLength: 3 })

  const asInteger = await integers.inject({ method: 'POST', url: '/amount', headers: { 'content-type': 'application/json' }, payload: '12' })
  t.equal(asInteger.statusCode, 200)
  t.equal(asInteger.body, '{"amount":12}', 'an integer in the instance whose amount is an integer')
  const asString = await strings.inject({ method: 'POST', url: '/amount', headers: { 'content-type': 'application/json' }, payload: '12' })
  t.equal(asString.statusCode, 200)
  t.equal(asString.body, '{"amount":"12"}', 'a string in the instance whose amount is a string')
  const tooLong = await strings.inject({ method: 'POST', url: '/amount', headers: { 'content-type': 'application/json' }, payload: '"1234"' })
  t.equal(tooLong.statusCode, 400, 'the string instance\'s own maxLength')
  const word = await integers.inject({ method: 'POST', url: '/amount', headers: { 'content-type': 'application/json' }, payload: '"abc"' })
  t.equal(word.statusCode, 400, 'the integer instance refuses a word')
})

test('instances with different Ajv options do not share a validator', async (t) => {
  const schema = { type: 'object', properties: { count: { type: 'integer' } } }
  const instance = async (ajv: FastifyServerOptions['ajv']): Promise<FastifyInstance> => {
    const app = Fastify({ schemaController: sharedSchemaController, ajv })
    t.teardown(() => app.close())
    app.get('/count', { schema: { querystring: schema } }, async (request) => request.query)
    await app.ready()
    return app
  }
  const coercing = await instance(undefined)
  const strict = await instance({ customOptions: { coerceTypes: false } })
  t.same((await coercing.inject('/count?count=4')).json(), { count: 4 }, 'Fastify\'s default coerces the query string')
  t.equal((await strict.inject('/count?count=4')).statusCode, 400, 'coerceTypes: false refuses a string')

  // An Ajv plugin is a function: told apart by identity.
  type AjvPlugin = NonNullable<NonNullable<FastifyServerOptions['ajv']>['plugins']>[number]
  const keyword = (name: string): AjvPlugin =>
    ((ajv: { addKeyword: (definition: { keyword: string, schemaType: string }) => unknown }) => ajv.addKeyword({ keyword: name, schemaType: 'boolean' })) as AjvPlugin
  const plugged = async (plugin: AjvPlugin): Promise<FastifyInstance> => {
    const app = Fastify({ schemaController: sharedSchemaController, ajv: { plugins: [plugin] } })
    t.teardown(() => app.close())
    app.get('/plugged', { schema: { querystring: { type: 'object', properties: { a: { type: 'string', 'x-first': true } } } } }, async () => 'ok')
    return app
  }
  await (await plugged(keyword('x-first'))).ready()
  const second = await plugged(keyword('x-second'))
  await t.rejects(async () => { await second.ready() }, { code: 'FST_ERR_SCH_VALIDATION_BUILD' },
    'another plugin makes another Ajv: the first one\'s keyword is not known there (strict mode refuses it)')
})

test('a headers schema must name its headers in lower case', async (t) => {
  const withHeaders = async (headers: object): Promise<FastifyInstance> => {
    const app = Fastify({ schemaController: sharedSchemaController })
    t.teardown(() => app.close())
    app.get('/h', { schema: { headers } }, async () => 'ok')
    return app
  }
  const upper = await withHeaders({ type: 'object', properties: { 'Cart-Token': { type: 'string' } }, required: ['Cart-Token'] })
  await t.rejects(async () => { await upper.ready() }, {
    code: 'FST_ERR_SCH_VALIDATION_BUILD',
    message: /Cart-Token.*lower case/
  }, 'refused at start, naming the header')
  const lower = await withHeaders({ type: 'object', properties: { 'cart-token': { type: 'string', minLength: 3 } }, required: ['cart-token'] })
  await lower.ready()
  t.equal((await lower.inject({ url: '/h', headers: { 'Cart-Token': 'abcd' } })).statusCode, 200, 'a header sent in any case matches')
  t.equal((await lower.inject({ url: '/h' })).statusCode, 400, 'a missing required header is refused')
  t.equal((await lower.inject({ url: '/h', headers: { 'cart-token': 'ab' } })).statusCode, 400, 'a header is validated')
})

test('buildApp uses the shared compilers: two apps share the serializer of a schema object', async (t) => {
  const serializers: unknown[] = []
  for (let i = 0; i < 2; i++) {
    const app = await build(t, {
      backend: 'memory',
      beforeReady: (app) => {
        app.get('/probe', { schema: { response: { 400: ErrorBody } } }, async (_request, reply) => {
          serializers.push(reply.getSerializationFunction('400'))
          return reply.code(400).send({ code: 'probe', message: 'probe', data: { status: 400 } })
        })
      }
    })
    const response = await app.inject('/probe')
    t.equal(response.statusCode, 400)
    t.same(response.json(), { code: 'probe', message: 'probe', data: { status: 400 } })
  }
  t.type(serializers[0], 'function')
  t.equal(serializers[1], serializers[0], 'the second app did not compile ErrorBody again')
})
