// Writes the OpenAPI document of the whole app (Pro edition, so every route is in it) to docs/openapi.json.
// test/drawer/plugins/openapi/openapi-drift.test.ts fails while the committed file differs from what this writes.
import { writeFile } from 'node:fs/promises'
import { buildOpenapiDocument, OPENAPI_FILE, openapiFileText } from './openapi-document.ts'

const target = process.argv[2] ?? OPENAPI_FILE
await writeFile(target, openapiFileText(await buildOpenapiDocument()))
console.log(`OpenAPI document written to ${target}`)
