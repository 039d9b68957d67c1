import type { CartData } from '../../domain/types.ts'
import type { CartReconciler, CartRewards, CartSnapshotter, CartState, LockedLines, Viewer } from './port.ts'

export type CartHookName = 'lockedLines' | 'reconcile' | 'snapshot' | 'rewards'
type CartHook = LockedLines | CartReconciler | CartSnapshotter | CartRewards

/**
 * The declared cart hooks of the commerce port, kept for a host: its `carts.addHook` can delegate here, and its own
 * cart changes ask `lockedLines` and `reconcile`. Each added hook can be removed again; the locks' generation grows
 * with every change to them. A host that keeps no snapshots may leave the snapshot hook unused.
 */
export class CartHooks {
  readonly #lockers: LockedLines[] = []
  readonly #reconcilers: CartReconciler[] = []
  #generation = 0
  #snapshotter: CartSnapshotter | undefined
  #rewards: CartRewards | undefined

  add (name: 'lockedLines', hook: LockedLines): () => void
  add (name: 'reconcile', hook: CartReconciler): () => void
  add (name: 'snapshot', hook: CartSnapshotter): () => void
  add (name: 'rewards', hook: CartRewards): () => void
  add (name: CartHookName, hook: CartHook): () => void
  add (name: CartHookName, hook: CartHook): () => void {
    if (name === 'rewards') {
      if (this.#rewards !== undefined) throw new Error('a rewards hook is already added')
      const rewards = hook as CartRewards
      this.#rewards = rewards
      return () => { if (this.#rewards === rewards) this.#rewards = undefined }
    }
    if (name === 'snapshot') {
      if (this.#snapshotter !== undefined) throw new Error('a snapshot hook is already added')
      const snapshotter = hook as CartSnapshotter
      this.#snapshotter = snapshotter
      return () => { if (this.#snapshotter === snapshotter) this.#snapshotter = undefined }
    }
    const list: Array<LockedLines | CartReconciler> = name === 'lockedLines' ? this.#lockers : this.#reconcilers
    list.push(hook as LockedLines & CartReconciler)
    if (name === 'lockedLines') this.#generation++
    return () => {
      const index = list.indexOf(hook as LockedLines & CartReconciler)
      if (index === -1) return
      list.splice(index, 1)
      if (name === 'lockedLines') this.#generation++
    }
  }

  /** Grows whenever a `lockedLines` hook is added or removed (0: none ever). */
  get lockedLinesGeneration (): number {
    return this.#generation
  }

  get snapshotter (): CartSnapshotter | undefined {
    return this.#snapshotter
  }

  /** The reward program, if the drawer declared one. */
  get rewards (): CartRewards | undefined {
    return this.#rewards
  }

  /** The union of the `lockedLines` hooks' answers. */
  lockedLines (data: CartData): ReadonlySet<string> {
    if (this.#lockers.length === 0) return new Set()
    if (this.#lockers.length === 1) return this.#lockers[0]!(data)
    return new Set(this.#lockers.flatMap((locker) => [...locker(data)]))
  }

  /** The union of the `reconcile` hooks' answers: the lines to remove after a change. */
  async reconcile (state: CartState, viewer: Viewer): Promise<ReadonlySet<string>> {
    if (this.#reconcilers.length === 0) return new Set()
    const drops = await Promise.all(this.#reconcilers.map((reconcile) => reconcile(state, viewer)))
    return drops.length === 1 ? drops[0]! : new Set(drops.flatMap((drop) => [...drop]))
  }
}
