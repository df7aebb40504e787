#!/usr/bin/env bash
# Installs, from Debian 12's own archive, what start.sh runs: Keystone, Apache with mod_wsgi and
# mod_auth_openidc, and the OpenStack client (the peer the e2e test and the bench compare with).
# Needs root; does nothing when everything is already installed.
set -euo pipefail
PACKAGES=(keystone apache2 libapache2-mod-wsgi-py3 libapache2-mod-auth-openidc python3-openstackclient openssl ca-certificates)

missing=()
for package in "${PACKAGES[@]}"; do
  dpkg-query -W -f '${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" != 0 ]; then
  echo "keystone-e2e: missing Debian packages: ${missing[*]}; run this script as root." >&2
  exit 3
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# The packages' own services (the system apache2 and keystone sites) must not start: start.sh runs
# its own instance on 127.0.0.1 only. policy-rc.d is how Debian lets an installer say so.
policy=/usr/sbin/policy-rc.d
created_policy=0
if [ ! -e "$policy" ]; then
  printf '#!/bin/sh\nexit 101\n' > "$policy" && chmod 0755 "$policy" && created_policy=1
fi
trap '[ "$created_policy" = 1 ] && rm -f "$policy"' EXIT
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
