#!/usr/bin/env bash
# Starts the real sign-in chain on 127.0.0.1, TLS everywhere, in the background:
#   idp      external identity provider, client credentials     https://127.0.0.1:$IDP_PORT/idp
#   broker   Keycloak-like broker, token exchange, realm cloud   https://127.0.0.1:$BROKER_PORT/realms/cloud
#   keystone Debian's Keystone (sqlite, fernet) in Apache with mod_wsgi + mod_auth_openidc (OAuth 2.0
#            resource server for the OS-FEDERATION sign-in path)  https://127.0.0.1:$KEYSTONE_PORT/v3
#   compute  a compute-like API validating tokens against Keystone  https://127.0.0.1:$COMPUTE_PORT/v2.1
# Idempotent: a component whose recorded pid is alive is left alone; a dead one is started again with
# the same keys, secrets and database. Every started pid is recorded in $STATE/pids/; stop.sh ends
# exactly those. The facts a client needs (URLs, ids, secrets) land in $STATE/env.json (mode 0600).
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
STATE=${CLOUDGATE_KEYSTONE_STATE:-$HERE/.state}
# Fixed ports below the ephemeral range (32768+), so test servers on random ports never take them.
KEYSTONE_PORT=${KEYSTONE_PORT:-25357}
BROKER_PORT=${BROKER_PORT:-28443}
IDP_PORT=${IDP_PORT:-28444}
COMPUTE_PORT=${COMPUTE_PORT:-28774}
KEYSTONE_URL="https://127.0.0.1:$KEYSTONE_PORT"
BROKER_ISSUER="https://127.0.0.1:$BROKER_PORT/realms/cloud"
COMPUTE_URL="https://127.0.0.1:$COMPUTE_PORT/v2.1"
MODULES=/usr/lib/apache2/modules

log() { printf 'keystone-e2e: %s\n' "$*" >&2; }
die() { log "$*"; exit 3; }

for tool in apache2 keystone-manage openssl node; do
  command -v "$tool" >/dev/null || die "$tool is missing: run test/e2e/keystone/install.sh (as root) first."
done
for module in mod_wsgi.so mod_auth_openidc.so mod_ssl.so; do
  [ -e "$MODULES/$module" ] || die "$MODULES/$module is missing: run test/e2e/keystone/install.sh (as root) first."
done

# Apache drops to www-data when started as root; Keystone's files must then belong to it.
RUN_USER=$(id -un)
if [ "$(id -u)" = 0 ]; then RUN_USER=www-data; fi

mkdir -p "$STATE/pids" "$STATE/logs" "$STATE/keystone" "$STATE/apache"
chmod 0711 "$STATE"
umask 077

if [ ! -s "$STATE/tls.crt" ] || ! openssl x509 -checkend 86400 -noout -in "$STATE/tls.crt" >/dev/null; then
  log "creating a test CA and a server certificate for 127.0.0.1"
  openssl req -x509 -newkey rsa:2048 -nodes -sha256 -days 30 -subj "/CN=cloudgate keystone e2e CA" \
    -addext basicConstraints=critical,CA:TRUE -addext keyUsage=critical,keyCertSign,cRLSign \
    -keyout "$STATE/ca.key" -out "$STATE/ca.pem" 2>/dev/null
  openssl req -newkey rsa:2048 -nodes -subj "/CN=127.0.0.1" -keyout "$STATE/tls.key" -out "$STATE/tls.csr" 2>/dev/null
  printf '%s\n' "subjectAltName=IP:127.0.0.1,DNS:localhost" "basicConstraints=CA:FALSE" \
    "keyUsage=critical,digitalSignature,keyEncipherment" "extendedKeyUsage=serverAuth" > "$STATE/tls.ext"
  openssl x509 -req -sha256 -days 30 -in "$STATE/tls.csr" -CA "$STATE/ca.pem" -CAkey "$STATE/ca.key" \
    -CAcreateserial -extfile "$STATE/tls.ext" -out "$STATE/tls.crt" 2>/dev/null
  chmod 0644 "$STATE/ca.pem" "$STATE/tls.crt"
fi

secret() { openssl rand -hex 24; }
# A state directory from before the broker's own grants: new clients, and the servers that read them restarted.
if [ -s "$STATE/clients.json" ] && ! grep -q '"broker-users"' "$STATE/clients.json"; then
  log "clients.json predates the broker's own grants: writing it again"
  CLOUDGATE_KEYSTONE_STATE="$STATE" bash "$HERE/stop.sh" idp broker
  rm -f "$STATE/clients.json"
fi
if [ ! -s "$STATE/clients.json" ]; then
  # broker: cloudgate exchanges tokens and has a service account; robot has a service account only (its
  # tokens are not for cloudgate's audience); locked may do nothing but present its secret.
  cat > "$STATE/clients.json" <<EOF
{
  "idp": {
    "ci-robot": { "secret": "$(secret)", "subject": "ci-robot" },
    "orphan-robot": { "secret": "$(secret)", "subject": "orphan-robot" }
  },
  "broker": {
    "cloudgate": { "secret": "$(secret)" },
    "robot": { "secret": "$(secret)", "exchange": false },
    "locked": { "secret": "$(secret)", "exchange": false, "serviceAccounts": false, "directAccess": false }
  },
  "broker-users": {
    "operator": { "password": "$(secret)", "subject": "7b1e9d2c-0c4f-4a57-9e43-5f0d3c6a8b21" }
  }
}
EOF
fi
[ -s "$STATE/admin-password" ] || secret > "$STATE/admin-password"
[ -s "$STATE/oidc-passphrase" ] || secret > "$STATE/oidc-passphrase"

cat > "$STATE/keystone/keystone.conf" <<EOF
[DEFAULT]
log_file = $STATE/logs/keystone.log
[database]
# Connections may be closed by the garbage collector on another thread of the mod_wsgi process.
connection = sqlite:///$STATE/keystone/keystone.db?check_same_thread=false
[token]
provider = fernet
[fernet_tokens]
key_repository = $STATE/keystone/fernet-keys
[fernet_receipts]
key_repository = $STATE/keystone/fernet-keys
[credential]
key_repository = $STATE/keystone/credential-keys
[identity]
# bcrypt at its cheapest: password sign-ins (bootstrap admin, compute's service token) stay fast.
password_hash_rounds = 4
[auth]
methods = password,token,openid,application_credential
[openid]
remote_id_attribute = HTTP_OIDC_ISS
[federation]
remote_id_attribute = HTTP_OIDC_ISS
# SQLite allows one writer: Apache runs a single Keystone process with one thread (above).
# In-process cache (real deployments use memcached): token validation is otherwise recomputed each time.
[cache]
enabled = true
backend = dogpile.cache.memory
EOF
chmod 0644 "$STATE/keystone/keystone.conf"
export OS_KEYSTONE_CONFIG_FILES="$STATE/keystone/keystone.conf"
manage() {
  keystone-manage --config-file "$STATE/keystone/keystone.conf" "$@" >>"$STATE/logs/keystone-manage.log" 2>&1 \
    || die "keystone-manage $1 failed: see $STATE/logs/keystone-manage.log"
}

# The database holds the URLs (catalog, remote id): other ports mean a new database.
URLS="$KEYSTONE_URL $BROKER_ISSUER $COMPUTE_URL"
if [ -s "$STATE/keystone/keystone.db" ] && [ "$(cat "$STATE/keystone/urls" 2>/dev/null)" != "$URLS" ]; then
  if [ -s "$STATE/pids/keystone.pid" ] && kill -0 "$(cat "$STATE/pids/keystone.pid")" 2>/dev/null; then
    die "Keystone runs with other ports: run stop.sh first."
  fi
  log "ports changed: recreating the Keystone database"
  rm -rf "$STATE/keystone/keystone.db"* "$STATE/keystone/fernet-keys" "$STATE/keystone/credential-keys" "$STATE/registered.json"
fi
FRESH=0
if [ ! -s "$STATE/keystone/keystone.db" ]; then
  FRESH=1
  log "creating the Keystone database, fernet keys and the bootstrap admin"
  manage db_sync
  manage fernet_setup --keystone-user "$RUN_USER" --keystone-group "$(id -gn "$RUN_USER")"
  manage credential_setup --keystone-user "$RUN_USER" --keystone-group "$(id -gn "$RUN_USER")"
  manage bootstrap --bootstrap-password "$(cat "$STATE/admin-password")" \
    --bootstrap-admin-url "$KEYSTONE_URL/v3" --bootstrap-public-url "$KEYSTONE_URL/v3" \
    --bootstrap-internal-url "$KEYSTONE_URL/v3" --bootstrap-region-id RegionOne
  # Keystone leaves read transactions open after some refused requests; in SQLite's default journal
  # mode they block every later write ("database is locked"). With write-ahead logging they do not.
  /usr/bin/python3 -c 'import sqlite3, sys; sqlite3.connect(sys.argv[1]).execute("PRAGMA journal_mode=WAL")' \
    "$STATE/keystone/keystone.db" >/dev/null
  echo "$URLS" > "$STATE/keystone/urls"
fi
touch "$STATE/logs/keystone.log"
chown -R "$RUN_USER" "$STATE/keystone" "$STATE/logs/keystone.log" "$STATE/apache"

cat > "$STATE/apache/httpd.conf" <<EOF
ServerName 127.0.0.1
Listen 127.0.0.1:$KEYSTONE_PORT
PidFile $STATE/apache/httpd.pid
DefaultRuntimeDir $STATE/apache
Mutex file:$STATE/apache default
ErrorLog $STATE/logs/apache-error.log
LogLevel warn
$( [ "$(id -u)" = 0 ] && printf 'User %s\nGroup %s\n' "$RUN_USER" "$(id -gn "$RUN_USER")" )
LoadModule mpm_event_module $MODULES/mod_mpm_event.so
LoadModule authn_core_module $MODULES/mod_authn_core.so
LoadModule authz_core_module $MODULES/mod_authz_core.so
LoadModule authz_user_module $MODULES/mod_authz_user.so
LoadModule socache_shmcb_module $MODULES/mod_socache_shmcb.so
LoadModule ssl_module $MODULES/mod_ssl.so
LoadModule wsgi_module $MODULES/mod_wsgi.so
LoadModule auth_openidc_module $MODULES/mod_auth_openidc.so

SSLEngine on
SSLCertificateFile $STATE/tls.crt
SSLCertificateKeyFile $STATE/tls.key
SSLSessionCache shmcb:$STATE/apache/ssl_scache(512000)

WSGISocketPrefix $STATE/apache/wsgi
WSGIDaemonProcess keystone processes=1 threads=1 display-name=cloudgate-e2e-keystone
WSGIProcessGroup keystone
WSGIApplicationGroup %{GLOBAL}
WSGIPassAuthorization On
WSGIScriptAlias / /usr/bin/keystone-wsgi-public
WSGIImportScript /usr/bin/keystone-wsgi-public process-group=keystone application-group=%{GLOBAL}
<Directory /usr/bin>
  Require all granted
</Directory>

# OAuth 2.0 resource server: the broker's JWT is checked against the broker's key set; its claims
# reach Keystone as OIDC-* request headers (HTTP_OIDC_ISS is the remote id Keystone matches).
OIDCCryptoPassphrase $(cat "$STATE/oidc-passphrase")
OIDCClaimPrefix OIDC-
OIDCCABundlePath $STATE/ca.pem
OIDCOAuthSSLValidateServer On
OIDCOAuthVerifyJwksUri $BROKER_ISSUER/protocol/openid-connect/certs
OIDCOAuthRemoteUserClaim sub
<LocationMatch "^/v3/OS-FEDERATION/identity_providers/[^/]+/protocols/openid/auth$">
  AuthType oauth20
  Require valid-user
</LocationMatch>
EOF
chmod 0600 "$STATE/apache/httpd.conf"
chown root "$STATE/apache/httpd.conf" 2>/dev/null || true

# Alive and ours: a recorded pid reused by another program after a reboot does not count.
alive() {
  local pid
  pid=$(cat "$STATE/pids/$1.pid" 2>/dev/null) || return 1
  [ -n "$pid" ] && [ -r "/proc/$pid/cmdline" ] && tr '\0' ' ' < "/proc/$pid/cmdline" | grep -qF -- "$STATE"
}
start() {
  local name=$1; shift
  if alive "$name"; then return; fi
  log "starting $name"
  nohup "$@" >>"$STATE/logs/$name.log" 2>&1 </dev/null &
  echo $! > "$STATE/pids/$name.pid"
}
wait_for() { NODE_EXTRA_CA_CERTS="$STATE/ca.pem" node "$HERE/wait-for.mjs" "$@"; }

export NODE_EXTRA_CA_CERTS="$STATE/ca.pem"
start idp node "$HERE/oidc-server.mjs" idp "$STATE" "$IDP_PORT"
start broker node "$HERE/oidc-server.mjs" broker "$STATE" "$BROKER_PORT" "$IDP_PORT"
start keystone env OS_KEYSTONE_CONFIG_FILES="$OS_KEYSTONE_CONFIG_FILES" apache2 -f "$STATE/apache/httpd.conf" -DFOREGROUND
wait_for "https://127.0.0.1:$IDP_PORT/idp/jwks" "$BROKER_ISSUER/protocol/openid-connect/certs" "$KEYSTONE_URL/v3" \
  || die "a service did not come up; see $STATE/logs/"

# registered.json from before domain "rig" (a project outside the default domain): register again (idempotent).
if [ "$FRESH" = 1 ] || [ ! -s "$STATE/registered.json" ] || ! grep -q '"domains"' "$STATE/registered.json"; then
  log "registering projects, the compute service and OS-FEDERATION in Keystone"
  node "$HERE/register.mjs" "$STATE" "$KEYSTONE_URL" "$BROKER_ISSUER" "$COMPUTE_URL" > "$STATE/registered.json.tmp"
  mv "$STATE/registered.json.tmp" "$STATE/registered.json"
fi
start compute node "$HERE/compute-server.mjs" "$STATE" "$COMPUTE_PORT" "$KEYSTONE_URL"
wait_for --any-status "$COMPUTE_URL/servers" || die "compute did not come up; see $STATE/logs/compute.log"

node "$HERE/write-env.mjs" "$STATE" "$KEYSTONE_URL" "https://127.0.0.1:$BROKER_PORT" "https://127.0.0.1:$IDP_PORT/idp/token" "$COMPUTE_URL"
log "ready: Keystone $KEYSTONE_URL/v3, broker $BROKER_ISSUER; settings in $STATE/env.json, $STATE/cloudgate.yaml, $STATE/openrc.sh"
