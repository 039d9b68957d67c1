#!/usr/bin/env bash
# A local Redis Cluster for tests and trials: three masters with a replica each, on six loopback ports, no persistence.
#
#   scripts/redis-cluster.sh start            start the six nodes, create the cluster, wait for cluster_state:ok,
#                                             and print REDIS_CLUSTER_NODES=host:port,... (the last line of output)
#   scripts/redis-cluster.sh stop             stop every node this script started on these ports, remove their files
#   scripts/redis-cluster.sh status           CLUSTER NODES as the first node sees it
#   scripts/redis-cluster.sh nodes            print host:port,... of the six nodes (what REDIS_CLUSTER_NODES takes)
#   scripts/redis-cluster.sh start-node PORT  start one node again (after a test killed it); its nodes.conf makes it
#                                             rejoin the cluster, as a replica if its replica took over meanwhile
#
# REDIS_CLUSTER_BASE_PORT (default 7101) is the first of six consecutive ports; REDIS_CLUSTER_DIR (default
# $TMPDIR/svc-redis-cluster-<base port>) keeps each node's pid file, log and nodes.conf.
# A node timeout of 1000 ms makes a failover take a few seconds instead of the default fifteen or more.
set -euo pipefail

base_port="${REDIS_CLUSTER_BASE_PORT:-7101}"
host=127.0.0.1
dir="${REDIS_CLUSTER_DIR:-${TMPDIR:-/tmp}/svc-redis-cluster-$base_port}"
ports=()
for i in 0 1 2 3 4 5; do ports+=("$((base_port + i))"); done

die () { echo "redis-cluster: $*" >&2; exit 1; }

need_tools () {
  command -v redis-server >/dev/null && command -v redis-cli >/dev/null ||
    die "redis-server and redis-cli are needed (Debian: apt-get install -y redis-server)"
}

answers () { redis-cli -h "$host" -p "$1" ping 2>/dev/null | grep -q PONG; }

node_list () {
  local list=() port
  for port in "${ports[@]}"; do list+=("$host:$port"); done
  (IFS=,; echo "${list[*]}")
}

# The pid in a node's pid file, if that process is still a redis-server on that port (never a reused pid).
node_pid () {
  local pid_file="$dir/$1/redis.pid" pid
  [ -f "$pid_file" ] || return 1
  pid=$(cat "$pid_file")
  [ -n "$pid" ] && [ -r "/proc/$pid/cmdline" ] || return 1
  tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q "redis-server.*:$1\b" || return 1
  echo "$pid"
}

start_node () {
  local port="$1"
  mkdir -p "$dir/$port"
  answers "$port" && die "port $port already answers: another Redis is there (stop it, or set REDIS_CLUSTER_BASE_PORT)"
  # No RDB, no AOF: the cluster's own nodes.conf is the only file written, so a restarted node keeps its identity.
  redis-server --port "$port" --bind "$host" --daemonize yes \
    --dir "$dir/$port" --pidfile "$dir/$port/redis.pid" --logfile "$dir/$port/redis.log" \
    --cluster-enabled yes --cluster-config-file nodes.conf --cluster-node-timeout 1000 \
    --cluster-replica-validity-factor 0 \
    --save "" --appendonly no
  for _ in $(seq 1 100); do answers "$port" && return 0; sleep 0.1; done
  die "the node on port $port did not start (see $dir/$port/redis.log)"
}

stop_nodes () {
  local port pid
  for port in "${ports[@]}"; do
    pid=$(node_pid "$port") || continue
    kill "$pid" 2>/dev/null || true
    for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$pid" 2>/dev/null && kill -9 "$pid" 2>/dev/null || true
  done
  rm -rf "$dir"
}

cluster_ok () {
  local port info
  for port in "${ports[@]}"; do
    info=$(redis-cli -h "$host" -p "$port" cluster info 2>/dev/null) || return 1
    grep -q '^cluster_state:ok' <<<"$info" || return 1
    grep -q '^cluster_known_nodes:6' <<<"$info" || return 1
  done
}

case "${1:-}" in
  start)
    need_tools
    stop_nodes # what a previous run of this script left on these ports
    for port in "${ports[@]}"; do start_node "$port"; done
    addresses=()
    for port in "${ports[@]}"; do addresses+=("$host:$port"); done
    redis-cli --cluster create "${addresses[@]}" --cluster-replicas 1 --cluster-yes >"$dir/create.log" 2>&1 ||
      { cat "$dir/create.log" >&2; die "redis-cli --cluster create failed"; }
    for _ in $(seq 1 300); do cluster_ok && break; sleep 0.1; done
    cluster_ok || die "the cluster did not reach cluster_state:ok with six known nodes in 30 s"
    echo "REDIS_CLUSTER_NODES=$(node_list)"
    ;;
  stop)
    stop_nodes
    ;;
  status)
    redis-cli -h "$host" -p "${ports[0]}" cluster nodes
    ;;
  nodes)
    node_list
    ;;
  start-node)
    need_tools
    [ -n "${2:-}" ] || die "usage: $0 start-node PORT"
    start_node "$2"
    ;;
  *)
    die "usage: $0 start|stop|status|nodes|start-node PORT"
    ;;
esac
