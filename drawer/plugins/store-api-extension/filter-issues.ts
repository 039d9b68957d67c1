import { ScopedContext } from '../../../kernel/lib/index.ts'
import type { FastifyBaseLogger } from 'fastify'
import type { FilterErrorReporter } from '../../port/index.ts'

interface Issue {
  filter: string
  part: string
  times: number
  /** The first error thrown, for a callback that threw. */
  error?: unknown
  /** What was wrong with the first bad value. */
  detail?: string
}

/**
 * Problems with filter output met while building one response: callbacks that threw and values of the wrong type.
 * Each (filter, part) is counted, and logged once when the response is built, however many rows it hit.
 */
export class FilterIssues {
  readonly #issues = new Map<string, Issue>()

  threw (filter: string, error: unknown): void {
    this.#note(filter, 'callback', { error })
  }

  invalid (filter: string, part: string, detail: string): void {
    this.#note(filter, part, { detail })
  }

  get size (): number {
    return this.#issues.size
  }

  /** The issues noted so far, `filter part` → times (for tests and diagnostics). */
  summary (): Record<string, number> {
    return Object.fromEntries([...this.#issues.values()].map((issue) => [`${issue.filter} ${issue.part}`, issue.times]))
  }

  /** Logs each issue once: thrown errors at `error`, wrong types at `warn`. */
  flush (log: FastifyBaseLogger): void {
    for (const issue of this.#issues.values()) {
      if (issue.error !== undefined) {
        log.error({ err: issue.error, filter: issue.filter, times: issue.times },
          'filter callbacks threw while building the cart drawer data; the value from before each was kept')
      } else {
        log.warn({ filter: issue.filter, part: issue.part, times: issue.times, detail: issue.detail },
          'a filter returned a value of the wrong type; the service used its own value for that part')
      }
    }
    this.#issues.clear()
  }

  #note (filter: string, part: string, first: Pick<Issue, 'error' | 'detail'>): void {
    const id = `${filter}\u0000${part}`
    const known = this.#issues.get(id)
    if (known) known.times++
    else this.#issues.set(id, { filter, part, times: 1, ...first })
  }
}

/**
 * Routes the filter registry's reports of throwing callbacks: inside `run` they are collected into that run's
 * `FilterIssues` (to be logged once per response); anywhere else they go to `fallback` as before. Asynchronous
 * context (`ScopedContext`) keeps concurrent responses apart.
 */
export class FilterErrorCapture {
  readonly #context = new ScopedContext<FilterIssues>()
  readonly #fallback: FilterErrorReporter

  constructor (fallback: FilterErrorReporter) {
    this.#fallback = fallback
  }

  readonly report: FilterErrorReporter = (name, error) => {
    const issues = this.#context.get()
    if (issues) issues.threw(name, error)
    else this.#fallback(name, error)
  }

  run<T> (issues: FilterIssues, work: () => Promise<T>): Promise<T> {
    return this.#context.run(issues, work)
  }
}
