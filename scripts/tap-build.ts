/**
 * Run by `npm test` before tap (`pretest`): builds tap's test class for the plugins `.taprc` names, when the installed
 * one was built for another set.
 *
 * tap checks this itself, but too late: the run that finds the build out of date rebuilds it and still starts its
 * test processes with the loaders of the build it loaded at its own start (tapjs/tapjs#974). After `npm ci` that is
 * tap's default set, whose TypeScript loader is ts-node, so a fresh clone's first `npm test` (every CI run) ran the
 * whole suite through ts-node instead of `.taprc`'s tsx: 1,349 s against 855 s for the same clone's second run
 * (docs/decisions/toolchain.md).
 *
 * The comparison is tap's own (`TapConfig.pluginSignature` against the built class's `signature`), and the build
 * runs the generator `tap build` runs, without `tap build`'s first step, `tap plugin add`, which runs `npm install`
 * even when every plugin is installed (`npm ci` has installed them all: they are in `package.json`).
 */
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { TapConfig } from '@tapjs/config'
import { signature } from '@tapjs/test/test-built'

const config = await TapConfig.load()
if (config.pluginSignature !== signature) {
  const generator = fileURLToPath(import.meta.resolve('@tapjs/test/generate-tap-test-class'))
  console.log('tap: building the test class for the plugins in .taprc')
  const { status, error } = spawnSync(process.execPath, [generator, ...config.pluginList], { stdio: 'inherit' })
  if (error !== undefined || status !== 0) {
    console.error('tap: the test class could not be built', error ?? `(exit code ${String(status)})`)
    process.exit(1)
  }
}
