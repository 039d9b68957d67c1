import { EnvError, readEnv } from '../../config/env.ts'

/** The problems `readEnv` lists for `env`, one per line ('' when it accepts it). */
export function problemsOf (env: Record<string, string>): string {
  try {
    readEnv(env)
  } catch (error) {
    if (error instanceof EnvError) return error.problems.join('\n')
    throw error
  }
  return ''
}
