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

/** The Dockerfile's stages: each `FROM` line and the instructions under it (comments dropped, continuations joined). */
function stages (dockerfile: string): Array<{ from: string, lines: string[] }> {
  const result: Array<{ from: string, lines: string[] }> = []
  for (const line of dockerfile.replace(/\\\n\s*/g, ' ').split('\n').map((text) => text.trim())) {
    if (line === '' || line.startsWith('#')) continue
    if (line.startsWith('FROM ')) result.push({ from: line, lines: [] })
    else result.at(-1)?.lines.push(line)
  }
  return result
}

test('the Docker image is built in one stage and runs the compiled server from another', async (t) => {
  const [build, runtime, ...more] = stages(await read('Dockerfile'))
  t.equal(more.length, 0, 'two stages')
  if (build === undefined || runtime === undefined) return t.fail('a build and a runtime stage')
  t.match(build.from, /^FROM node:22[-.\w]* AS build$/, 'the build stage is named')
  t.ok(build.lines.some((line) => /^RUN npm ci\b/.test(line) && !line.includes('--omit=dev')), 'the build stage installs the devDependencies')
  t.ok(build.lines.includes('RUN npm run build'), 'and runs the build')

  t.equal(runtime.from, 'FROM node:22-bookworm-slim')
  const run = runtime.lines.filter((line) => line.startsWith('RUN ')).join('\n')
  t.match(run, /npm ci --omit=dev/, 'production dependencies only')
  t.match(run, /apt-get install -y --no-install-recommends tini/, 'tini from Debian')
  t.match(run, /chown node:node \/data/, '/data belongs to the node user')
  t.notMatch(runtime.lines.join('\n'), /tsx|esbuild/, 'no tsx or esbuild at run time')
  const copies = runtime.lines.filter((line) => line.startsWith('COPY '))
  t.same(copies, ['COPY package.json package-lock.json ./', 'COPY --from=build /app/dist ./dist'], 'the runtime stage copies the manifests and dist/ only')
  t.ok(runtime.lines.includes('ENV NODE_ENV=production'))
  t.ok(runtime.lines.includes('ENV HOST=0.0.0.0 PORT=3000 SVC_DATA_DIR=/data'))
  t.ok(runtime.lines.includes('USER node'), 'runs as the node user')
  t.ok(runtime.lines.includes('ENTRYPOINT ["/usr/bin/tini", "--"]'), 'under tini')
  t.ok(runtime.lines.includes('CMD ["node", "dist/server.js"]'), 'the compiled server')
  t.ok(runtime.lines.indexOf('USER node') < runtime.lines.findIndex((line) => line.startsWith('CMD ')), 'USER before CMD')
  const healthcheck = runtime.lines.find((line) => line.startsWith('HEALTHCHECK '))
  t.match(healthcheck, /CMD \["node", "-e", ".*fetch\(.*\/readyz'\)/, 'the health check asks /readyz with Node\'s fetch')
})

test('.dockerignore keeps local builds, dependencies and data out of the build context', async (t) => {
  const ignored = (await read('.dockerignore')).split('\n').map((line) => line.trim())
  for (const entry of ['node_modules', 'dist', 'data', '.git', 'test']) t.ok(ignored.includes(entry), entry)
})
