import { runShard } from './shards.ts'

await runShard(import.meta.url)
