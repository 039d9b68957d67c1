import { listWords } from './labels.ts'

/** The part of JSON Schema the settings document uses (TypeBox's output for `drawer/schemas/settings.ts`). */
export interface Schema {
  type?: string
  enum?: unknown[]
  properties?: Record<string, Schema>
  required?: string[]
  items?: Schema
  anyOf?: Schema[]
  minimum?: number
  maximum?: number
  minLength?: number
  maxLength?: number
  minItems?: number
  maxItems?: number
  pattern?: string
  format?: string
  default?: unknown
  description?: string
  title?: string
}

export const isColor = (schema: Schema): boolean => schema.type === 'string' && schema.pattern === '^#[0-9a-fA-F]{6}$'

/** A condition group (`{match, conditions}`), edited as condition rows. */
export const isConditionGroup = (schema: Schema): boolean =>
  schema.type === 'object' && schema.properties?.match !== undefined && schema.properties.conditions?.type === 'array'

/**
 * A new value for a schema: its default, else the smallest valid-looking value. `key` is the value's own key, `list`
 * the setting of the list the value is an item of (`bundles.bundles`), whose words give a required text (`New bundle`).
 */
export function createValue (schema: Schema, key = '', list = ''): unknown {
  if (schema.default !== undefined) return JSON.parse(JSON.stringify(schema.default))
  if (schema.enum) return schema.enum[0]
  switch (schema.type) {
    case 'object': {
      const value: Record<string, unknown> = {}
      for (const [name, child] of Object.entries(schema.properties ?? {})) value[name] = createValue(child, name, list)
      return value
    }
    case 'array':
      // Ids are chosen, never invented: a list of products starts empty.
      if (schema.items?.type === 'integer') return []
      return Array.from({ length: schema.minItems ?? 0 }, () => schema.items ? createValue(schema.items, '', list === '' ? key : `${list}.${key}`) : null)
    case 'integer':
    case 'number':
      // A product is chosen, never invented: 0 until one is (the server names the missing choice).
      return key === 'product_id' ? 0 : schema.minimum ?? 0
    case 'boolean':
      return false
    case 'string':
      return (schema.minLength ?? 0) > 0 ? listWords(list.split('.')).new : ''
    default:
      return null
  }
}
