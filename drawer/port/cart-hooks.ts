import type { CartData } from '../../kernel/domain/types.ts'
import type { CartFollowUp, CartReconcileAnswer, CartReconciler, CartRewards, CartSnapshotter, CartState, LockedLines, Viewer } from './port.ts'

export type CartHookName = 'lockedLines' | 'reconcile' | 'snapshot' | 'rewards'
type CartHook = LockedLines | CartReconciler | CartSnapshotter | CartRewards

/**
 * Applies a reconciler's follow-up to a cart's data: the lines it removes, then its change. Pure: a host calls it
 * inside its follow-up write (under its lock, if it holds one) with the data as that write finds it.
 */
export function applyFollowUp (data: CartData, followUp: CartFollowUp): CartData {
  const { remove, change } = followUp
  const kept = remove === undefined || remove.size === 0 ? data : { ...data, lines: data.lines.filter((line) => !remove.has(line.key)) }
  return change === undefined ? kept : change(kept)
}

function isKeySet (answer: CartFollowUp | ReadonlySet<string>): answer is ReadonlySet<string> {
  return typeof (answer as ReadonlySet<string>).has === 'function'
}

/** A reconciler's answer as a follow-up (a set of keys is short for `{ remove }`), or null when it asks for nothing. */
function followUpOf (answer: CartReconcileAnswer): CartFollowUp | null {
  if (answer === null) return null
  const followUp: CartFollowUp = isKeySet(answer) ? { remove: answer } : answer
  return (followUp.remove?.size ?? 0) === 0 && followUp.change === undefined ? null : followUp
}

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
  /** The rewards hooks in the order added: the last one is in force (a test's own stands in for the drawer's). */
  readonly #rewards: CartRewards[] = []

  add (name: 'lockedLines', hook: LockedLines): () => void
  add (name: 'reconcile', hook: CartReconciler): () => void
  add (name: 'snapshot', hook: CartSnapshotter): () => void
  add (name: 'rewards', hook: CartRewards): () => void
  add (name: CartHookName, hook: CartHook): () => void
  add (name: CartHookName, hook: CartHook): () => void {
    if (name === 'rewards') {
      const rewards = hook as CartRewards
      this.#rewards.push(rewards)
      return () => {
        const index = this.#rewards.indexOf(rewards)
        if (index !== -1) this.#rewards.splice(index, 1)
      }
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

  /** The reward program in force: the last rewards hook added and not removed, if any. */
  get rewards (): CartRewards | undefined {
    return this.#rewards.at(-1)
  }

  /** The union of the `lockedLines` hooks' answers. */
  lockedLines (data: CartData): ReadonlySet<string> {
    if (this.#lockers.length === 0) return new Set()
    if (this.#lockers.length === 1) return this.#lockers[0]!(data)
    return new Set(this.#lockers.flatMap((locker) => [...locker(data)]))
  }

  /**
   * The `reconcile` hooks' answers merged into one follow-up (the keys every one removes, then each one's change in the
   * order they were added), or null when none asks for anything: the host's follow-up write applies it
   * (`applyFollowUp`). The hooks only read, so this may run under the host's lock.
   */
  async reconcile (state: CartState, viewer: Viewer): Promise<CartFollowUp | null> {
    if (this.#reconcilers.length === 0) return null
    const answers = (await Promise.all(this.#reconcilers.map((reconcile) => reconcile(state, viewer)))).flatMap((answer) => followUpOf(answer) ?? [])
    if (answers.length <= 1) return answers[0] ?? null
    const remove = new Set(answers.flatMap((answer) => [...answer.remove ?? []]))
    const changes = answers.flatMap((answer) => answer.change ?? [])
    return {
      ...(remove.size === 0 ? {} : { remove }),
      ...(changes.length === 0 ? {} : { change: (data: CartData) => changes.reduce((changed, change) => change(changed), data) })
    }
  }
}
