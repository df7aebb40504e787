#!/usr/bin/env bash
# Ends exactly the processes start.sh recorded in $STATE/pids/ (all, or the components named:
# idp, broker, keystone, compute). Keys, secrets and the database stay, so start.sh can resume;
# remove the state directory to start from scratch.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
STATE=${CLOUDGATE_KEYSTONE_STATE:-$HERE/.state}
components=("$@")
[ ${#components[@]} -gt 0 ] || components=(compute keystone broker idp)

for name in "${components[@]}"; do
  file="$STATE/pids/$name.pid"
  [ -s "$file" ] || continue
  pid=$(cat "$file")
  if kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid"
    # Apache stops its children before it exits; wait so the port is free when we return.
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    if kill -0 "$pid" 2>/dev/null; then kill -KILL "$pid" 2>/dev/null || true; fi
    printf 'keystone-e2e: stopped %s (pid %s)\n' "$name" "$pid" >&2
  fi
  rm -f "$file"
done
