import type { FastifyInstance } from 'fastify'

/**
 * Runs `task` a little after the instance is ready (`firstRunAfterMs`), then `everyMs` after each run ends, on timers
 * that never keep the process alive; closing the instance stops them and waits for a run under way. `task` handles
 * its own errors (a rejection it lets through is ignored, and the next run still comes).
 */
export function repeatWhileOpen (fastify: FastifyInstance, task: () => Promise<unknown>, timing: { firstRunAfterMs: number, everyMs: number }): void {
  let timer: NodeJS.Timeout | undefined
  let running: Promise<unknown> | undefined
  let closed = false
  const run = (): void => {
    timer = undefined
    if (closed) return
    running = task()
      .catch(() => {})
      .finally(() => {
        running = undefined
        if (!closed) timer = setTimeout(run, timing.everyMs).unref()
      })
  }
  fastify.addHook('onReady', async () => { timer = setTimeout(run, Math.max(0, timing.firstRunAfterMs)).unref() })
  fastify.addHook('onClose', async () => {
    closed = true
    clearTimeout(timer)
    await running
  })
}
