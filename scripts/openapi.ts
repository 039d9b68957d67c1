// Writes the OpenAPI document of the whole app (Pro edition, so every route is in it) to docs/openapi.json.
import { writeFile } from 'node:fs/promises'
import { buildOpenapiDocument } from './openapi-document.ts'

const target = process.argv[2] ?? 'docs/openapi.json'
await writeFile(target, JSON.stringify(await buildOpenapiDocument(), null, 2) + '\n')
console.log(`OpenAPI document written to ${target}`)
