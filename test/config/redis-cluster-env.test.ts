import { test } from 'tap'
import { problemsOf } from '../helpers/env-problems.ts'
import { readEnv } from '../../config/env.ts'
import { createRateCounter } from '../../storage/index.ts'
import { parseClusterNodes } from '../../storage/redis/index.ts'
import { createRedisClient } from '../../storage/redis/index.ts'

test('REDIS_CLUSTER_NODES: a comma-separated list of nodes, instead of REDIS_URL', async (t) => {
  t.equal(readEnv({}).redisClusterNodes, null, 'unset: no cluster')
  const env = readEnv({ REDIS_CLUSTER_NODES: ' 10.0.0.1:7001, 10.0.0.2:7001 ,[::1]:7003' })
  t.same(env.redisClusterNodes, ['10.0.0.1:7001', '10.0.0.2:7001', '[::1]:7003'])
  t.equal(env.redisUrl, null)
  t.same(readEnv({ REDIS_CLUSTER_NODES: 'rediss://:secret@redis-1.internal:6379' }).redisClusterNodes, ['rediss://:secret@redis-1.internal:6379'], 'URLs carry a password or TLS')
})

test('REDIS_URL and REDIS_CLUSTER_NODES together are refused', async (t) => {
  const problems = problemsOf({ REDIS_URL: 'redis://127.0.0.1:6379', REDIS_CLUSTER_NODES: '127.0.0.1:7001' })
  t.match(problems, /REDIS_URL and REDIS_CLUSTER_NODES are both set/)
})

test('a node that is not host:port is named', async (t) => {
  t.match(problemsOf({ REDIS_CLUSTER_NODES: '127.0.0.1:7001,redis-2' }), /REDIS_CLUSTER_NODES: "redis-2" must name a host and a port/)
  t.match(problemsOf({ REDIS_CLUSTER_NODES: 'http://h:1' }), /REDIS_CLUSTER_NODES: "http:\/\/h:1" must be host:port or a redis:\/\/ or rediss:\/\/ URL/)
  t.match(problemsOf({ REDIS_CLUSTER_NODES: 'redis://h:1/2' }), /no database number/)
  t.match(problemsOf({ REDIS_CLUSTER_NODES: 'redis://h:1,rediss://h:2' }), /same scheme/)
  t.match(problemsOf({ REDIS_CLUSTER_NODES: 'redis://:a@h:1,redis://:b@h:2' }), /same credentials/)
})

test('parseClusterNodes: hosts, ports, credentials and TLS', async (t) => {
  t.same(parseClusterNodes(['127.0.0.1:7001', '[::1]:7002']), { nodes: [{ host: '127.0.0.1', port: 7001 }, { host: '::1', port: 7002 }], tls: false })
  t.same(parseClusterNodes(['rediss://app:p%40ss@a:7001', 'rediss://b:7002']), {
    nodes: [{ host: 'a', port: 7001 }, { host: 'b', port: 7002 }], username: 'app', password: 'p@ss', tls: true
  }, 'credentials given once hold for every node')
  t.throws(() => parseClusterNodes([]), /no node given/)
})

test('one Redis or one cluster, never both', async (t) => {
  t.throws(() => createRedisClient({ url: 'redis://127.0.0.1:6379', clusterNodes: ['127.0.0.1:7001'], commandTimeoutMs: 250, connectTimeoutMs: 1000 }), TypeError)
  t.throws(() => createRedisClient({ commandTimeoutMs: 250, connectTimeoutMs: 1000 }), TypeError)
  t.throws(() => createRateCounter({ redisUrl: 'redis://127.0.0.1:6379', redisClusterNodes: ['127.0.0.1:7001'] }), TypeError)
  const memory = createRateCounter({ redisUrl: null, redisClusterNodes: null })
  t.equal(memory.name, 'memory', 'neither: in-process counters')
  t.equal(memory.counting, undefined, 'in-process counters have no fallback: they are per instance already')
  await memory.close()
})

test('a Redis or Redis Cluster counter comes with its per-instance fallback', async (t) => {
  for (const options of [{ redisUrl: 'redis://127.0.0.1:1' }, { redisUrl: null, redisClusterNodes: ['127.0.0.1:1'] }]) {
    const counter = createRateCounter({ ...options, instances: 3 })
    t.equal(counter.name, 'redis')
    t.equal(counter.counting?.(), 'shared', 'counting in Redis until it fails')
    await counter.close()
  }
})
