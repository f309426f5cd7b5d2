#!/usr/bin/env bash
# Builds two images from this machine's own binaries, for machines that reach no container
# registry (the Dockerfile's public default base, node:20-bookworm-slim, cannot be pulled there):
#
#   $APC_BASE_IMAGE      (default apc-local/node:20)     node, npm and the libraries `ldd` lists,
#                        laid out like the public node image: /usr/local/bin/node, a `node` user
#                        (uid 1000), /tmp. Give it to the Dockerfile as --build-arg BASE_IMAGE.
#   $APC_POSTGRES_IMAGE  (default apc-local/postgres:15) the same base plus Debian's PostgreSQL
#                        server binaries, started like the public postgres image
#                        (POSTGRES_USER, POSTGRES_PASSWORD, port 5432).
#
# Each image is a `docker import` of a tarball: about a second, no network.
# Needs: docker, node, Debian's postgresql package (for the second image).
set -euo pipefail

base_image=${APC_BASE_IMAGE:-apc-local/node:20}
postgres_image=${APC_POSTGRES_IMAGE:-apc-local/postgres:15}

node_bin=$(command -v node) || { echo "build-local-images: node is not on PATH" >&2; exit 1; }
node_bin=$(readlink -f "$node_bin")
npm_dir=$(dirname "$(dirname "$(readlink -f "$(command -v npm)")")")
pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Copies each file to the same path under the root folder $1, with every shared library it needs.
add_with_libraries() {
  local root=$1; shift
  local file lib
  for file in "$@"; do
    cp -L --parents "$file" "$root"
    for lib in $(ldd "$file" 2>/dev/null | grep -o '/[^ ]*' || true); do
      [ -e "$root$lib" ] || cp -L --parents "$lib" "$root"
    done
  done
}

make_base_root() {
  local root=$1
  mkdir -p "$root"/{tmp,etc,home/node,usr/local/bin,usr/local/lib/node_modules,bin,usr/bin}
  chmod 1777 "$root/tmp"
  add_with_libraries "$root" "$node_bin" /usr/bin/env "$(readlink -f /bin/sh)"
  # Native addons in node_modules link more of the C library than node does (librt, for one):
  # the whole of Debian's libc6, as in the public image.
  if command -v dpkg >/dev/null; then
    add_with_libraries "$root" $(dpkg -L libc6 | grep -E '/lib[^/]*\.so[.0-9]*$')
  fi
  [ "$node_bin" = /usr/local/bin/node ] || ln -s "$node_bin" "$root/usr/local/bin/node"
  cp "$root$(readlink -f /bin/sh)" "$root/bin/sh"
  cp -r "$npm_dir" "$root/usr/local/lib/node_modules/npm"
  ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
  ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/local/bin/npx"
  cat >"$root/etc/passwd" <<'EOF'
root:x:0:0:root:/root:/bin/sh
node:x:1000:1000::/home/node:/bin/sh
postgres:x:999:999::/var/lib/postgresql:/bin/sh
nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin
EOF
  cat >"$root/etc/group" <<'EOF'
root:x:0:
node:x:1000:
postgres:x:999:
nogroup:x:65534:
EOF
  echo 'hosts: files dns' >"$root/etc/nsswitch.conf"
}

import_root() {
  local root=$1 tag=$2; shift 2
  tar --numeric-owner -C "$root" -c . | docker import "$@" - "$tag" >/dev/null
  echo "built $tag ($(du -sh "$root" | cut -f1) uncompressed)"
}

make_base_root "$work/base"
import_root "$work/base" "$base_image" \
  --change 'ENV PATH=/usr/local/bin:/usr/bin:/bin' \
  --change 'CMD ["node"]'

if [ -z "$pg_bin" ]; then
  echo "build-local-images: PostgreSQL server binaries not found (Debian package postgresql); $postgres_image not built" >&2
  exit 1
fi
pg_home=$(dirname "$pg_bin")
pg_version=$(basename "$pg_home")
cp -a "$work/base" "$work/postgres"
root="$work/postgres"
# Without llvmjit.so: PostgreSQL runs without JIT when it is missing, and LLVM weighs over 100 MB.
add_with_libraries "$root" $(find "$pg_home" -type f \( -perm -u+x -o -name '*.so' \) ! -name 'llvmjit*')
cp -r --parents "/usr/share/postgresql/$pg_version" "$root"
[ -d /usr/share/zoneinfo ] && cp -r --parents /usr/share/zoneinfo "$root"
# The data folder's parent is writable by everyone so that the postgres user can create it
# without a chown (the image is built without root-owned staging tricks).
mkdir -p "$root/var/lib/postgresql"
chmod 1777 "$root/var/lib/postgresql"
cat >"$root/usr/local/bin/postgres-entrypoint" <<EOF
#!/bin/sh
# Initialises the cluster on first start (like the public postgres image) and runs the server.
set -e
PATH=$pg_bin:\$PATH
if [ ! -s "\$PGDATA/PG_VERSION" ]; then
  printf '%s' "\${POSTGRES_PASSWORD:?set POSTGRES_PASSWORD}" >/tmp/pgpass
  initdb -D "\$PGDATA" -U "\${POSTGRES_USER:-postgres}" --pwfile=/tmp/pgpass --auth-local=trust --auth-host=scram-sha-256 --no-sync -E UTF8 --locale=C >/dev/null
  : >/tmp/pgpass
  echo 'host all all all scram-sha-256' >>"\$PGDATA/pg_hba.conf"
fi
exec postgres -D "\$PGDATA" -c listen_addresses='*' -k /tmp "\$@"
EOF
chmod 755 "$root/usr/local/bin/postgres-entrypoint"
ln -sf "$pg_bin/pg_isready" "$root/usr/local/bin/pg_isready"
import_root "$root" "$postgres_image" \
  --change 'ENV PATH=/usr/local/bin:/usr/bin:/bin' \
  --change 'ENV PGDATA=/var/lib/postgresql/data' \
  --change 'USER postgres' \
  --change 'EXPOSE 5432' \
  --change 'ENTRYPOINT ["/usr/local/bin/postgres-entrypoint"]'
