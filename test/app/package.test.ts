import { execFile } from 'node:child_process'
import { builtinModules } from 'node:module'
import { cp, mkdtemp, readFile, rm, symlink } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { test } from 'tap'

/**
 * The package a shop installs: `npm run build`, then what `npm pack` would put in the tarball. Both run in
 * a copy of the working tree (node_modules linked), so the test neither needs the network nor touches this tree's
 * `dist/`. npm's `prepack` would run the same build; the pack runs with `--ignore-scripts` because the build's output
 * would otherwise be mixed into the JSON on stdout.
 */
const root = fileURLToPath(new URL('../../', import.meta.url))
const run = promisify(execFile)

interface PackResult {
  name: string
  version: string
  size: number
  unpackedSize: number
  entryCount: number
  files: Array<{ path: string, size: number }>
}

interface PackageJson {
  name: string
  main: string
  types: string
  files: string[]
  exports: Record<string, string | Record<string, string>>
  dependencies: Record<string, string>
  devDependencies: Record<string, string>
  peerDependencies?: Record<string, string>
  scripts: Record<string, string>
}

/** Left out of the copy: what is never packed and costs time to copy. */
const NOT_COPIED = new Set(['node_modules', '.git', '.tap', 'dist', 'data', 'coverage', '.ci-cache'])

test('npm pack holds the built package and nothing else', async (t) => {
  const folder = await mkdtemp(join(tmpdir(), 'svc-pack-'))
  t.teardown(() => rm(folder, { recursive: true, force: true }))
  await cp(root, folder, {
    recursive: true,
    filter: (source) => {
      const path = relative(root, source)
      return path === '' || (!NOT_COPIED.has(path.split(sep)[0] ?? '') && !path.endsWith('.tgz') && !path.startsWith(join('test', 'browser', 'screenshots')))
    }
  })
  await symlink(join(root, 'node_modules'), join(folder, 'node_modules'), 'dir')
  const env = { ...process.env, npm_config_offline: 'true', npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' }

  const started = Date.now()
  await run('npm', ['run', 'build'], { cwd: folder, env, maxBuffer: 16 * 1024 * 1024 })
  const { stdout } = await run('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: folder, env, maxBuffer: 16 * 1024 * 1024 })
  const [pack] = JSON.parse(stdout) as PackResult[]
  if (pack === undefined) throw new Error(`npm pack printed no result: ${stdout}`)
  const files = pack.files.map((file) => file.path).sort()
  t.comment(`${pack.name}@${pack.version}: ${pack.entryCount} files, ${(pack.size / 1024).toFixed(1)} KiB packed, ` +
    `${(pack.unpackedSize / 1024).toFixed(1)} KiB unpacked (build and pack ${((Date.now() - started) / 1000).toFixed(1)} s)`)

  for (const file of ['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md', 'docs/openapi.json', 'dist/app.js', 'dist/app.d.ts',
    'dist/server.js', 'dist/client/svc-drawer.js', 'dist/client/svc-admin.js']) {
    t.ok(files.includes(file), `${file} is packed`)
  }
  const pkg = JSON.parse(await readFile(join(folder, 'package.json'), 'utf8')) as PackageJson
  // The `svc-source` condition names the repository's own sources, for its tests and its example (.taprc sets the
  // condition); an installed package never sets it. Every other target must be packed.
  const conditions = Object.values(pkg.exports).flatMap((target) => typeof target === 'string' ? [] : Object.entries(target))
  const sources = conditions.filter(([condition]) => condition === 'svc-source').map(([, path]) => path)
  t.ok(sources.every((path) => path.endsWith('.ts') && !path.endsWith('.d.ts')), 'svc-source names TypeScript sources only')
  const targets = [pkg.main, pkg.types, ...Object.values(pkg.exports).flatMap((target) => typeof target === 'string' ? [target] : Object.entries(target).filter(([condition]) => condition !== 'svc-source').map(([, path]) => path))]
  for (const target of new Set(targets.map((path) => path.replace(/^\.\//, '')))) t.ok(files.includes(target), `${target} (main, types, exports) is packed`)

  const unwanted = files.filter((file) =>
    /^(test|bench|\.ci|scripts|client|data|coverage|\.tap|node_modules)\//.test(file) ||
    /^dist\/(test|bench|scripts)\//.test(file) ||
    (file.endsWith('.ts') && !file.endsWith('.d.ts')) ||
    file.endsWith('.map') || /(^|\/)tsconfig[^/]*\.json$/.test(file) || /(^|\/)\.\w/.test(file))
  t.same(unwanted, [], 'no tests, benchmarks, CI, scripts, client sources, TypeScript sources, source maps or dotfiles')
  t.same(files.filter((file) => !file.startsWith('dist/') && !file.startsWith('docs/')).sort(),
    ['CHANGELOG.md', 'LICENSE', 'README.md', 'package.json'], 'outside dist/ and docs/ only the package files')
  for (const file of files.filter((path) => path.startsWith('dist/') && !path.startsWith('dist/client/'))) {
    if (!file.endsWith('.js') && !file.endsWith('.d.ts')) t.fail(`${file}: dist/ holds compiled JavaScript and declarations only`)
  }

  // What the compiled code imports is installed with the package: Node's own modules, dependencies, the fastify peer,
  // or the package itself through one of its exports (the example host the testing entry builds on imports it by
  // name, as a shop does). esbuild, a devDependency, is imported lazily and only to bundle a script from source.
  const provided = new Set([...Object.keys(pkg.dependencies), ...Object.keys(pkg.peerDependencies ?? {})])
  const problems: string[] = []
  for (const file of files.filter((path) => path.endsWith('.js') && !path.startsWith('dist/client/'))) {
    const code = await readFile(join(folder, file), 'utf8')
    const imports = [
      ...[...code.matchAll(/^\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]/gm)].map((match) => ({ specifier: match[1] ?? match[2], lazy: false })),
      ...[...code.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)].map((match) => ({ specifier: match[1], lazy: true }))
    ]
    for (const { specifier, lazy } of imports) {
      if (specifier === undefined || specifier.startsWith('node:') || builtinModules.includes(specifier)) continue
      if (specifier.startsWith('.')) {
        if (!specifier.endsWith('.js')) problems.push(`${file}: ${specifier} (a relative import must name a .js file)`)
        continue
      }
      if (specifier === pkg.name || specifier.startsWith(`${pkg.name}/`)) {
        const entry = `.${specifier.slice(pkg.name.length)}`
        if (!(entry in pkg.exports)) problems.push(`${file}: ${specifier} (not an export of the package)`)
        continue
      }
      const name = specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0] ?? specifier
      if (provided.has(name) || (lazy && name === 'esbuild' && file === 'dist/kernel/lib/client-bundle.js')) continue
      problems.push(`${file}: ${name}${lazy ? ' (lazy)' : ''}`)
    }
  }
  t.same(problems, [], 'every import of the compiled code is a dependency, the fastify peer, Node\'s own or a .js file of the package')
})

test('package.json: fastify is a peer, the build tools are devDependencies, prepack builds', async (t) => {
  const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as PackageJson
  t.equal(pkg.peerDependencies?.fastify, '5.x', 'fastify 5 is a peer dependency')
  t.notOk(pkg.devDependencies.fastify, 'and nothing else: npm installs the peer in development too, and keeps it with --omit=dev')
  for (const name of ['fastify', 'tsx', 'esbuild', 'typescript']) t.notOk(name in pkg.dependencies, `${name} is not a dependency`)
  t.ok(pkg.devDependencies.tsx && pkg.devDependencies.esbuild, 'tsx and esbuild are devDependencies')
  t.equal(pkg.scripts.prepack, 'npm run build', 'npm pack builds first')
  t.match(pkg.scripts.build, /tsc -p tsconfig\.build\.json/)
  t.match(pkg.scripts.build, /npm run build:client/, 'the build bundles the browser scripts too')
  t.same(pkg.files.filter((entry) => /^(test|bench|scripts|client|\.ci)\b/.test(entry)), [], 'files names no sources')
})
