#!/usr/bin/env bash
# Installs the Workout household server on a Debian 12 (or Raspberry Pi OS) machine, or
# upgrades it in place: the binaries, a system user and group, the state directory, a
# configuration file (only when there is none), the systemd units (server and nightly backup)
# and the Avahi service file; then enables and starts them. Run it again to upgrade: data and
# configuration are kept. See deploy/README.md.
#
#   sudo deploy/install.sh                          # build release binaries here, install
#   sudo deploy/install.sh --bin-dir .build/release # install binaries built already
#                                                   # (scripts/build-release --static-swift-stdlib)
#   sudo deploy/install.sh --uninstall              # remove binaries and units, keep the data
#   sudo deploy/install.sh --uninstall --purge-data # ... and delete the data, config and user
#
# Options (defaults in brackets):
#   --prefix DIR      where bin/ and share/doc/ go [/usr/local]
#   --bin-dir DIR     take workoutd and workout from DIR instead of building them
#   --sysconfdir DIR  the configuration goes into DIR/workoutd [/etc]
#   --statedir DIR    the data directory [/var/lib/workoutd]
#   --unitdir DIR     systemd units [/etc/systemd/system]
#   --avahidir DIR    Avahi service files [/etc/avahi/services]
#   --user NAME       the system user and group the server runs as [workoutd]
#   --destdir DIR     stage everything under DIR (also $DESTDIR): a throwaway root; the paths
#                     written into the units and the configuration stay the final ones
#   --no-start        install and enable, but do not start or restart anything
#   --uninstall       remove binaries, units, the Avahi file and docs; keep data and config
#   --purge-data      with --uninstall: also delete the data directory, the configuration and
#                     the user (backups kept elsewhere than the data directory stay)
set -euo pipefail

prefix=/usr/local
bin_dir=""
sysconfdir=/etc
statedir=/var/lib/workoutd
unitdir=/etc/systemd/system
avahidir=/etc/avahi/services
user=workoutd
destdir="${DESTDIR:-}"
start=1
uninstall=0
purge=0

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }
die() { echo "install.sh: $*" >&2; exit 1; }
need_value() { [ $# -ge 2 ] && [ -n "$2" ] || die "$1 needs a value (see --help)"; }

while [ $# -gt 0 ]; do
  case "$1" in
    --prefix) need_value "$@"; prefix=$2; shift 2 ;;
    --bin-dir) need_value "$@"; bin_dir=$2; shift 2 ;;
    --sysconfdir) need_value "$@"; sysconfdir=$2; shift 2 ;;
    --statedir) need_value "$@"; statedir=$2; shift 2 ;;
    --unitdir) need_value "$@"; unitdir=$2; shift 2 ;;
    --avahidir) need_value "$@"; avahidir=$2; shift 2 ;;
    --user) need_value "$@"; user=$2; shift 2 ;;
    --destdir) need_value "$@"; destdir=$2; shift 2 ;;
    --no-start) start=0; shift ;;
    --uninstall) uninstall=1; shift ;;
    --purge-data) purge=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) die "unknown option $1 (see --help)" ;;
  esac
done

[ "$purge" -eq 0 ] || [ "$uninstall" -eq 1 ] || die "--purge-data deletes the household's data; it goes only with --uninstall"
for path in "$prefix" "$sysconfdir" "$statedir" "$unitdir" "$avahidir"; do
  case "$path" in /*) ;; *) die "$path: paths must be absolute" ;; esac
done
case "$user" in [a-z_][a-z0-9_-]*) ;; *) die "--user $user: not a valid user name" ;; esac
[ "$(id -u)" -eq 0 ] || die "run it as root (sudo $0 ...): it creates a system user and installs into system directories"
if [ -n "$destdir" ]; then
  destdir=$(cd "$destdir" 2>/dev/null && pwd) || die "--destdir: no such directory"
fi

source_dir=$(cd "$(dirname "$0")" && pwd)
bindir=$prefix/bin
docdir=$prefix/share/doc/workoutd
confdir=$sysconfdir/workoutd
config=$confdir/workoutd.json
root="$destdir"   # every file operation goes through $root; what is written inside files does not

# systemctl on the target: offline (--root) for a staged root, live when systemd runs here.
systemd_live=0
if [ -z "$destdir" ] && [ -d /run/systemd/system ]; then systemd_live=1; fi
systemctl_target() {
  command -v systemctl >/dev/null || { echo "  (systemctl not found: skipped systemctl $*)"; return 0; }
  if [ -n "$destdir" ]; then systemctl --root="$destdir" "$@"; else systemctl "$@"; fi
}

units=(workoutd.service workoutd-backup.service workoutd-backup.timer)

# The options that say where this installation is, for the commands printed as next steps: an
# uninstall hint copied while staging must act on the staged root, never on this machine's.
where=()
[ -z "$destdir" ] || where+=(--destdir "$destdir")
[ "$prefix" = /usr/local ] || where+=(--prefix "$prefix")
[ "$sysconfdir" = /etc ] || where+=(--sysconfdir "$sysconfdir")
[ "$statedir" = /var/lib/workoutd ] || where+=(--statedir "$statedir")
[ "$unitdir" = /etc/systemd/system ] || where+=(--unitdir "$unitdir")
[ "$avahidir" = /etc/avahi/services ] || where+=(--avahidir "$avahidir")
[ "$user" = workoutd ] || where+=(--user "$user")

if [ "$uninstall" -eq 1 ]; then
  echo "Uninstalling Workout from ${destdir:-/}"
  if [ "$systemd_live" -eq 1 ]; then
    systemctl disable --now workoutd-backup.timer workoutd.service 2>/dev/null || true
  elif [ -e "$root$unitdir/workoutd.service" ]; then
    systemctl_target disable workoutd-backup.timer workoutd.service >/dev/null 2>&1 || true
  fi
  for unit in "${units[@]}"; do rm -f "$root$unitdir/$unit"; done
  [ "$systemd_live" -eq 0 ] || systemctl daemon-reload
  rm -f "$root$bindir/workoutd" "$root$bindir/workout" "$root$avahidir/workoutd.service" "$root$confdir/workoutd.json.example"
  rm -rf "$root$docdir"
  if [ "$purge" -eq 1 ]; then
    rm -rf "$root$statedir" "$root$confdir"
    if [ -n "$destdir" ]; then
      userdel --prefix "$destdir" "$user" 2>/dev/null || true
      groupdel --prefix "$destdir" "$user" 2>/dev/null || true
    else
      userdel "$user" 2>/dev/null || true
      groupdel "$user" 2>/dev/null || true
    fi
    echo "Removed the binaries, the units, the data directory $statedir, the configuration $confdir and the user $user."
    echo "Archives in a backup_dir outside $statedir were not touched."
  else
    echo "Removed the binaries and the units. Kept the data in $statedir, the configuration in $confdir"
    echo "and the user $user: installing again picks them up. To delete them too:"
    purge_hint="sudo $0 --uninstall --purge-data"
    [ ${#where[@]} -eq 0 ] || purge_hint+=$(printf ' %q' "${where[@]}")
    echo "  $purge_hint"
  fi
  exit 0
fi

# 1. The libraries the binaries load: both need zlib1g, libssl3 (TLS) and libstdc++6; workoutd
# liblmdb0 (the store), libxml2 (FoundationXML: workout's Apple Health import, both binaries' workout files). Installed here first,
# before a long build; a staged root (--destdir) gets its packages from whoever prepares it.
runtime_packages=(liblmdb0 zlib1g libssl3 libxml2 libstdc++6)
if [ -z "$destdir" ] && command -v dpkg-query >/dev/null; then
  missing_packages=()
  for package in "${runtime_packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing_packages+=("$package")
  done
  if [ ${#missing_packages[@]} -gt 0 ]; then
    echo "Installing the libraries the binaries need: ${missing_packages[*]}"
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing_packages[@]}" >/dev/null \
      || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing_packages[@]}" >/dev/null; } \
      || die "cannot install ${missing_packages[*]}: run apt-get install ${missing_packages[*]}, then this again"
  fi
fi

# 2. The binaries: given, or built here in release mode.
if [ -z "$bin_dir" ]; then
  command -v swift >/dev/null || die "swift is not on root's PATH: build as yourself first (scripts/build-release --static-swift-stdlib), then: sudo $0 --bin-dir .build/release"
  echo "Building the release binaries (several minutes on a small machine)..."
  # --static-swift-stdlib: the binaries carry the Swift runtime, so they need only the packages
  # above from Debian, not the toolchain they were built with.
  bin_dir=$("$source_dir/../scripts/build-release" --static-swift-stdlib workoutd workout | tail -n 1) || die "the release build failed (its errors are above)"
fi
for binary in workoutd workout; do
  [ -x "$bin_dir/$binary" ] || die "$bin_dir/$binary is missing or not executable"
  if command -v ldd >/dev/null && missing=$(ldd "$bin_dir/$binary" 2>/dev/null | grep "not found"); then
    die "$bin_dir/$binary needs libraries this machine lacks (build with --static-swift-stdlib; apt-get install ${runtime_packages[*]}):
$missing"
  fi
done

upgrade=0
[ -e "$root$bindir/workoutd" ] && upgrade=1
# Whether a household exists already (looked at now: the server started below creates a store).
had_store=0
[ -e "$root$statedir/data.mdb" ] && had_store=1
if [ "$upgrade" -eq 1 ]; then echo "Upgrading Workout in ${destdir:-/}"; else echo "Installing Workout into ${destdir:-/}"; fi

# 3. The system user and group (no login, no home of its own but the data directory).
passwd_file=/etc/passwd
if [ -n "$destdir" ]; then
  passwd_file=$destdir/etc/passwd
  mkdir -p "$destdir/etc"
  [ -e "$destdir/etc/passwd" ] || echo 'root:x:0:0:root:/root:/bin/sh' > "$destdir/etc/passwd"
  [ -e "$destdir/etc/group" ] || echo 'root:x:0:' > "$destdir/etc/group"
  [ -e "$destdir/etc/shadow" ] || { echo 'root:*:19000:0:99999:7:::' > "$destdir/etc/shadow"; chmod 0640 "$destdir/etc/shadow"; }
  [ -e "$destdir/etc/gshadow" ] || { echo 'root:*::' > "$destdir/etc/gshadow"; chmod 0640 "$destdir/etc/gshadow"; }
fi
if ! grep -q "^$user:" "$passwd_file"; then
  prefix_option=()
  [ -z "$destdir" ] || prefix_option=(--prefix "$destdir")
  useradd "${prefix_option[@]}" --system --user-group --home-dir "$statedir" --no-create-home \
    --shell /usr/sbin/nologin --comment "Workout household server" "$user"
  echo "  created the system user $user"
fi
uid=$(awk -F: -v name="$user" '$1 == name { print $3 }' "$passwd_file")
gid=$(awk -F: -v name="$user" '$1 == name { print $4 }' "$passwd_file")
[ -n "$uid" ] && [ -n "$gid" ] || die "cannot find the user $user in $passwd_file"

# Installs $1 as $2 with mode $3, owner root, by a rename (a running workoutd keeps its old file).
place() {
  local source=$1 target=$2 mode=$3
  mkdir -p "$(dirname "$target")"
  local temporary
  temporary=$(mktemp "$(dirname "$target")/.install.XXXXXX")
  cat "$source" > "$temporary"
  chmod "$mode" "$temporary"
  chown 0:0 "$temporary"
  mv -f "$temporary" "$target"
}

# Replaces the default paths in a unit or file with the ones of this installation.
localize() {
  sed -e "s#/usr/local/share/doc/workoutd#$docdir#g" \
      -e "s#/usr/local/bin/#$bindir/#g" \
      -e "s#/etc/workoutd/#$confdir/#g" \
      -e "s#/var/lib/workoutd#$statedir#g" \
      -e "s#^User=workoutd\$#User=$user#" \
      -e "s#^Group=workoutd\$#Group=$user#" "$1"
}

# 4. Binaries and documentation.
place "$bin_dir/workoutd" "$root$bindir/workoutd" 0755
place "$bin_dir/workout" "$root$bindir/workout" 0755
place "$source_dir/README.md" "$root$docdir/README.md" 0644
echo "  installed $bindir/workoutd and $bindir/workout"

# 5. The data directory: 0700, the service user's; its contents are never touched here.
mkdir -p "$root$statedir" "$root$statedir/backups"
chown "$uid:$gid" "$root$statedir" "$root$statedir/backups"
chmod 0700 "$root$statedir" "$root$statedir/backups"

# 6. The configuration: written only when there is none (an upgrade never overwrites it); the
# example beside it is always the current one.
mkdir -p "$root$confdir"
chown "0:$gid" "$root$confdir"
chmod 0750 "$root$confdir"
tmp_config=$(mktemp)
trap 'rm -f "$tmp_config"' EXIT
localize "$source_dir/workoutd.json" > "$tmp_config"
place "$tmp_config" "$root$confdir/workoutd.json.example" 0644
if [ -e "$root$config" ]; then
  echo "  kept the configuration $config (the current example is workoutd.json.example beside it)"
else
  place "$tmp_config" "$root$config" 0640
  chown "0:$gid" "$root$config"
  echo "  wrote the configuration $config"
fi

# 7. The systemd units and the Avahi service (on the configured port).
for unit in "${units[@]}"; do
  localize "$source_dir/systemd/$unit" > "$tmp_config"
  place "$tmp_config" "$root$unitdir/$unit" 0644
done
port=$(sed -n 's/^[[:space:]]*"port"[[:space:]]*:[[:space:]]*\([0-9][0-9]*\).*/\1/p' "$root$config" | head -n 1)
port=${port:-7420}
sed "s#<port>7420</port>#<port>$port</port>#" "$source_dir/avahi/workoutd.service" > "$tmp_config"
place "$tmp_config" "$root$avahidir/workoutd.service" 0644
echo "  installed the units into $unitdir and the Avahi service (_workout._tcp, port $port)"

# 8. Enable (and start, or restart after an upgrade).
if [ "$systemd_live" -eq 1 ]; then
  systemctl daemon-reload
  systemctl enable workoutd.service workoutd-backup.timer >/dev/null
  if [ "$start" -eq 1 ]; then
    if [ "$upgrade" -eq 1 ]; then systemctl restart workoutd.service; else systemctl start workoutd.service; fi
    systemctl start workoutd-backup.timer
    echo "  started workoutd (systemctl status workoutd; journalctl -u workoutd)"
  fi
else
  systemctl_target enable workoutd.service workoutd-backup.timer >/dev/null 2>&1 \
    || die "systemctl could not enable the units"
  if [ -z "$destdir" ]; then
    echo "  enabled the units; systemd is not running here, so nothing was started"
  else
    echo "  enabled the units in $destdir"
  fi
fi

as_user="runuser -u $user --"
command -v sudo >/dev/null && as_user="sudo -u $user"
echo
if [ "$had_store" -eq 1 ]; then
  echo "Workout is upgraded; the data in $statedir and the configuration were kept."
  echo "The household's members: $as_user $bindir/workoutd members --config $config"
else
  echo "Workout is installed. Next step: create the household's owner account (it asks for a password):"
  echo "  $as_user $bindir/workoutd create-owner --config $config --email you@example.com --first-name You"
fi
echo "Then invite the family: $as_user $bindir/workoutd invite --config $config"
