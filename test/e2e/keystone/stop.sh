#!/usr/bin/env bash
# Ends exactly the processes start.sh recorded in $STATE/pids/ (all, or the components named:
# idp, broker, keystone, compute). Keys, secrets and the database stay, so start.sh can resume;
# remove the state directory to start from scratch.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
STATE=${CLOUDGATE_KEYSTONE_STATE:-$HERE/.state}
components=("$@")
[ ${#components[@]} -gt 0 ] || components=(compute keystone broker idp)

# Only a process started for this state directory (its command line names it): never a reused pid.
ours() { [ -r "/proc/$1/cmdline" ] && tr '\0' ' ' < "/proc/$1/cmdline" | grep -qF -- "$STATE"; }

for name in "${components[@]}"; do
  file="$STATE/pids/$name.pid"
  [ -s "$file" ] || continue
  pid=$(cat "$file")
  if ours "$pid"; then
    kill -TERM "$pid"
    # Apache stops its children before it exits; wait so the port is free when we return.
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    if ours "$pid"; then kill -KILL "$pid" 2>/dev/null || true; fi
    printf 'keystone-e2e: stopped %s (pid %s)\n' "$name" "$pid" >&2
  fi
  rm -f "$file"
done
