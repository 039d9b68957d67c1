import type { FastifyRequest } from 'fastify'

export type SectionLoader = (request: FastifyRequest) => Promise<unknown>

/**
 * The sections `GET drawer-data` can answer. Each edition registers the sections it has; a requested section the
 * edition lacks is left out of the answer.
 */
export class DrawerDataSections {
  readonly #loaders = new Map<string, SectionLoader>()

  register (name: string, loader: SectionLoader): void {
    if (this.#loaders.has(name)) throw new Error(`drawer-data section "${name}" is already registered`)
    this.#loaders.set(name, loader)
  }

  names (): string[] {
    return [...this.#loaders.keys()]
  }

  /** Loads the sections concurrently; each loader makes at most one storage round trip of its own. */
  async load (request: FastifyRequest, names: readonly string[]): Promise<Record<string, unknown>> {
    const wanted = names.filter((name) => this.#loaders.has(name))
    const values = await Promise.all(wanted.map((name) => this.#loaders.get(name)!(request)))
    return Object.fromEntries(wanted.map((name, index) => [name, values[index]]))
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    drawerDataSections: DrawerDataSections
  }
}
