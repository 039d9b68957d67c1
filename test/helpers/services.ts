/**
 * The servers some tests need (PostgreSQL, Redis), found through their URL variables. One rule for every test:
 * - the variable is set: the test runs against that server;
 * - unset on a developer's machine: the test is skipped, and tap prints the one-line reason (`# SKIP …`);
 * - unset under `CI=true`: the test runs and fails on the missing URL, so CI can never pass without the server.
 */
export type ServiceVariable = 'DATABASE_URL' | 'REDIS_URL'

const SERVICE_NAMES: Record<ServiceVariable, string> = { DATABASE_URL: 'PostgreSQL', REDIS_URL: 'Redis' }

function fromEnv (variable: ServiceVariable): string | undefined {
  const url = process.env[variable]
  return url === undefined || url === '' ? undefined : url
}

/** The reason to skip a test that needs the service, or `false` when it runs (its URL is set, or CI=true). */
export function skipWithout (variable: ServiceVariable): string | false {
  if (fromEnv(variable) !== undefined || process.env.CI === 'true') return false
  return `${variable} is not set: ${SERVICE_NAMES[variable]} tests skipped (CI always runs them)`
}

/**
 * The service's URL; throws when it is unset, which fails the test asking: under CI=true, or in a test that does not
 * pass `skipWithout(variable)` as its `skip` option.
 */
export function serviceUrl (variable: ServiceVariable): string {
  const url = fromEnv(variable)
  if (url === undefined) {
    const example = variable === 'DATABASE_URL' ? 'postgres://postgres@127.0.0.1:5432/test' : 'redis://127.0.0.1:6379'
    throw new Error(process.env.CI === 'true'
      ? `${variable} is not set and CI=true: the ${SERVICE_NAMES[variable]} tests must run in CI (start the server and set ${variable}=${example})`
      : `${variable} is not set: this test needs ${SERVICE_NAMES[variable]} and should be skipped without it (skipWithout('${variable}'))`)
  }
  return url
}
