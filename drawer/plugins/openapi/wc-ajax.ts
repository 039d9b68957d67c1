/**
 * The classic AJAX endpoints in the document. WooCommerce names them with a query string (`/?wc-ajax=add_to_cart`),
 * and the platform routes them by a router constraint on that value (`wcAjax`): one route per action and method on
 * the same path. OpenAPI allows no query string in a path and one operation per path and method, so the actions of a
 * method become one operation on the path with a required `wc-ajax` query parameter whose enum lists them; its
 * request bodies and answers are the union (`anyOf`) of the actions', and its description tells which goes with
 * which.
 */

type Json = Record<string, any>

export const WC_AJAX_PARAMETER = 'wc-ajax'

const MARK = `?${WC_AJAX_PARAMETER}=`

/** The path an action's route gets until the actions are merged (`/?wc-ajax=add_to_cart`). */
export function actionPath (path: string, action: string): string {
  return `${path}${MARK}${action}`
}

function splitActionPath (path: string): { path: string, action: string } | null {
  const at = path.indexOf(MARK)
  return at === -1 ? null : { path: path.slice(0, at), action: path.slice(at + MARK.length) }
}

const unique = <T>(values: readonly T[]): T[] => {
  const seen = new Set<string>()
  return values.filter((value) => {
    const key = JSON.stringify(value)
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

/** One schema for several: the single one, or `anyOf` of the distinct members (unions are flattened). */
function union (schemas: readonly Json[]): Json {
  const members = unique(schemas.flatMap((schema) =>
    Array.isArray(schema.anyOf) && Object.keys(schema).every((key) => key === 'anyOf' || key === 'description') ? schema.anyOf as Json[] : [schema]))
  return members.length === 1 ? members[0]! : { anyOf: members }
}

/** Media type → schema of several content maps. */
function unionContent (contents: ReadonlyArray<Json | undefined>): Json | undefined {
  const present = contents.filter((content): content is Json => content !== undefined)
  if (present.length === 0) return undefined
  const types = unique(present.flatMap((content) => Object.keys(content)))
  return Object.fromEntries(types.map((type) => [type, { schema: union(present.map((content) => content[type]?.schema).filter(Boolean)) }]))
}

interface Action { action: string, operation: Json }

const label = (action: string) => `\`${action}\``

function mergeRequestBody (actions: readonly Action[]): Json | undefined {
  const withBody = actions.filter(({ operation }) => operation.requestBody !== undefined)
  if (withBody.length === 0) return undefined
  const without = actions.filter(({ operation }) => operation.requestBody === undefined).map(({ action }) => label(action))
  return {
    description: `The body of the action named by \`${WC_AJAX_PARAMETER}\` (${withBody.map(({ action }) => label(action)).join(', ')})` +
      (without.length > 0 ? `; ${without.join(', ')} reads none.` : '.'),
    required: without.length === 0 && withBody.every(({ operation }) => operation.requestBody.required === true),
    content: unionContent(withBody.map(({ operation }) => operation.requestBody.content))
  }
}

function mergeResponses (actions: readonly Action[]): Json {
  const statuses = unique(actions.flatMap(({ operation }) => Object.keys(operation.responses ?? {}))).sort()
  return Object.fromEntries(statuses.map((status) => {
    const answering = actions.filter(({ operation }) => operation.responses?.[status] !== undefined)
    const responses = answering.map(({ operation }) => operation.responses[status] as Json)
    const descriptions = unique(responses.map((response) => response.description as string))
    const description = descriptions.length > 1
      ? answering.map(({ action }, index) => `${label(action)}: ${responses[index]!.description}`).join(' ')
      : answering.length === actions.length
        ? descriptions[0]!
        : `${descriptions[0]} Answered by ${answering.map(({ action }) => label(action)).join(', ')}.`
    const merged: Json = { description }
    const headers = Object.assign({}, ...responses.map((response) => response.headers ?? {}))
    if (Object.keys(headers).length > 0) merged.headers = headers
    const content = unionContent(responses.map((response) => response.content))
    if (content !== undefined) merged.content = content
    return [status, merged]
  }))
}

function mergeOperations (method: string, actions: readonly Action[]): Json {
  const operations = actions.map(({ operation }) => operation)
  const names = actions.map(({ action }) => action)
  const parameters = unique(operations.flatMap((operation) => operation.parameters ?? []) as Json[])
    .filter((parameter) => !(parameter.in === 'query' && parameter.name === WC_AJAX_PARAMETER))
  const extensions = Object.assign({}, ...operations.map((operation) =>
    Object.fromEntries(Object.entries(operation).filter(([key]) => key.startsWith('x-')))))
  const merged: Json = {
    operationId: `wcAjax${method[0]!.toUpperCase()}${method.slice(1)}`,
    summary: names.length === 1 ? operations[0]!.summary : `Classic AJAX actions: ${names.join(', ')}`,
    description: [
      `The \`${WC_AJAX_PARAMETER}\` query parameter names the action, as in WooCommerce's \`/?wc-ajax=<action>\`` +
        (actions.length > 1 ? '; each action takes its own body and answers its own way:' : ':'),
      '',
      ...actions.map(({ action, operation }) => `- ${label(action)}: ${[operation.summary, operation.description].filter(Boolean).join('. ')}`),
      '',
      `An action of another name answers 404. Without \`${WC_AJAX_PARAMETER}\` the path is another route.`
    ].join('\n'),
    tags: unique(operations.flatMap((operation) => operation.tags ?? [])),
    parameters: [{
      name: WC_AJAX_PARAMETER,
      in: 'query',
      required: true,
      description: 'The classic AJAX action.',
      schema: { type: 'string', enum: names }
    }, ...parameters],
    ...extensions
  }
  const requestBody = mergeRequestBody(actions)
  if (requestBody !== undefined) merged.requestBody = requestBody
  merged.responses = mergeResponses(actions)
  const security = operations.map((operation) => operation.security).filter(Boolean) as Json[][]
  if (security.length > 0) {
    // The union of the alternatives, with the anonymous one (`{}`) last.
    const alternatives = unique(security.flat())
    merged.security = [...alternatives.filter((item) => Object.keys(item).length > 0), ...alternatives.filter((item) => Object.keys(item).length === 0)]
  }
  return merged
}

/** Replaces the `/?wc-ajax=<action>` paths of the document with one operation per path and method. */
export function mergeWcAjaxActions (paths: Json): Json {
  const groups = new Map<string, Map<string, Action[]>>()
  const result: Json = {}
  for (const [key, item] of Object.entries(paths)) {
    const split = splitActionPath(key)
    if (split === null) {
      result[key] = { ...result[key], ...item }
      continue
    }
    const methods = groups.get(split.path) ?? new Map<string, Action[]>()
    groups.set(split.path, methods)
    for (const [method, operation] of Object.entries(item as Json)) {
      methods.set(method, [...(methods.get(method) ?? []), { action: split.action, operation }])
    }
    // Keeps the path's place in the document.
    result[split.path] ??= {}
  }
  for (const [path, methods] of groups) {
    for (const [method, actions] of methods) {
      if (result[path][method] !== undefined) throw new Error(`${method.toUpperCase()} ${path} is both a route and a ${WC_AJAX_PARAMETER} action`)
      result[path][method] = mergeOperations(method, actions)
    }
  }
  return result
}
