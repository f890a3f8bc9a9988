# shellcheck shell=bash
# Sourced by scripts that start background processes. `on_exit COMMAND` runs COMMAND when the script exits, most
# recently registered first, so every helper (nodes, Redis, temp dirs) cleans up after itself whatever happens.

EXIT_HOOKS=()

on_exit() {
    EXIT_HOOKS=("$1" "${EXIT_HOOKS[@]}")
    trap run_exit_hooks EXIT
}

run_exit_hooks() {
    local hook
    for hook in "${EXIT_HOOKS[@]}"; do
        eval "$hook" || true
    done
}
