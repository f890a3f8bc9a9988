# shellcheck shell=bash
# Sourced by benchmark scripts that compare a Hearth cluster with etcd. start_etcd starts a throwaway 3-member etcd
# (Debian's etcd-server) on free loopback ports with its members' data under $1, waits until it answers, and sets
# ETCD_PIDS, ETCD_ENDPOINTS (the client addresses, comma-separated, for `etcdctl --endpoints`) and ETCD_METRICS (the
# first member's Prometheus URL); stop_etcd stops the members (also run when the script exits). Installs etcd-server
# and etcd-client from Debian when missing (test tools here, never a runtime dependency of hearth).
# usage: source scripts/lib/etcd.sh; start_etcd "$dir"

# shellcheck source=scripts/lib/exit-hooks.sh
source "$(dirname "${BASH_SOURCE[0]}")/exit-hooks.sh"
# shellcheck source=scripts/lib/cluster.sh
source "$(dirname "${BASH_SOURCE[0]}")/cluster.sh"

start_etcd() {
    local dir="$1" i ports initial
    if ! command -v etcd >/dev/null || ! command -v etcdctl >/dev/null; then
        apt-get update -qq && apt-get install -y -qq etcd-server etcd-client >/dev/null
    fi
    mkdir -p "$dir"
    read -r -a ports <<<"$(free_ports 6)"
    initial="e1=http://127.0.0.1:${ports[3]},e2=http://127.0.0.1:${ports[4]},e3=http://127.0.0.1:${ports[5]}"
    ETCD_PIDS=()
    for i in 0 1 2; do
        etcd --name "e$((i + 1))" --data-dir "$dir/e$((i + 1))" \
            --listen-client-urls "http://127.0.0.1:${ports[$i]}" \
            --advertise-client-urls "http://127.0.0.1:${ports[$i]}" \
            --listen-peer-urls "http://127.0.0.1:${ports[$((i + 3))]}" \
            --initial-advertise-peer-urls "http://127.0.0.1:${ports[$((i + 3))]}" \
            --initial-cluster "$initial" --initial-cluster-state new --initial-cluster-token "bench-$$" \
            >"$dir/e$((i + 1)).log" 2>&1 &
        ETCD_PIDS+=("$!")
    done
    on_exit "stop_etcd"
    ETCD_ENDPOINTS="127.0.0.1:${ports[0]},127.0.0.1:${ports[1]},127.0.0.1:${ports[2]}"
    ETCD_METRICS="http://127.0.0.1:${ports[0]}/metrics"
    for _ in $(seq 1 100); do
        ETCDCTL_API=3 etcdctl --endpoints="$ETCD_ENDPOINTS" endpoint health >/dev/null 2>&1 && return 0
        sleep 0.2
    done
    echo "etcd did not start:" >&2
    tail -n 5 "$dir"/e*.log >&2
    exit 1
}

stop_etcd() {
    local pid
    for pid in "${ETCD_PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${ETCD_PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
    ETCD_PIDS=()
}
