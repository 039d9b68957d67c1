/** Undo steps registered as resources are made; run once, newest first, whether the bench ends, fails or is stopped. */
export class Cleanup {
  readonly #steps: Array<{ name: string, run: () => Promise<void> | void }> = []
  #running: Promise<void> | undefined

  add (name: string, run: () => Promise<void> | void): void {
    this.#steps.push({ name, run })
  }

  run (): Promise<void> {
    this.#running ??= (async () => {
      for (const step of this.#steps.reverse()) {
        try {
          await step.run()
        } catch (error) {
          console.error(`bench: cleanup "${step.name}" failed:`, error)
        }
      }
    })()
    return this.#running
  }
}
