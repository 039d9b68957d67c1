import { readFile } from 'node:fs/promises'
import { test } from 'tap'
import { PUBLISHED_SECRETS } from '../../config/env.ts'

/** There is no Docker engine on the test machines: the deployment files are held to their promises by reading them. */
const read = (file: string) => readFile(new URL(`../../${file}`, import.meta.url), 'utf8')

test('docker-compose.yml requires SVC_SECRET and publishes no fallback secret', async (t) => {
  const compose = await read('docker-compose.yml')
  t.match(compose, /SVC_SECRET: \$\{SVC_SECRET:\?[^}]+\}/, 'compose stops with a message when SVC_SECRET is unset or empty')
  for (const secret of PUBLISHED_SECRETS) t.notOk(compose.includes(secret), `no published secret (${secret})`)
  t.notMatch(compose, /SVC_(ADMIN|SHOPPER)_PASSWORD: \$\{SVC_\w+:-[^}]/, 'no default password')
})

test('the Docker image runs on Node 22 in production mode', async (t) => {
  const dockerfile = await read('Dockerfile')
  t.match(dockerfile, /^FROM node:22[-.\w]*$/m)
  t.match(dockerfile, /^ENV NODE_ENV=production$/m)
  const pkg = JSON.parse(await read('package.json')) as { engines: { node: string } }
  t.match(pkg.engines.node, /22/, 'package.json engines name Node 22')
})
