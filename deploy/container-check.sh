#!/usr/bin/env bash
# Boots a Debian 12 container under systemd-nspawn with systemd as its init, runs install.sh
# there for real, and checks the steps a family takes: the server starts (Type=notify: systemctl
# start returns once it serves), the owner is created, a client signs in and logs, the backup
# service writes an archive, restart and stop are clean, --uninstall keeps the data. Prints the
# container's log. `WORKOUT_CONTAINER_CHECK=1 scripts/test` runs it where it can (root, these
# tools, deb.debian.org) and says why not elsewhere; by hand, as root, after changing the units or
# install.sh:
#
#   sudo deploy/container-check.sh [BIN_DIR]     # BIN_DIR: workoutd and workout (default: the debug build)
#
# Needs Debian's debootstrap and systemd-container. The container has no network but its own
# loopback (--private-network); the Swift toolchain (the debug build's runtime) is bind-mounted
# read-only at the path it has here.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=$(cd "${1:-$(swift build --show-bin-path)}" && pwd)
[ "$(id -u)" -eq 0 ] || { echo "container-check.sh: run it as root" >&2; exit 1; }
for tool in debootstrap systemd-nspawn; do
  command -v "$tool" >/dev/null || { echo "container-check.sh: install $tool (apt-get install debootstrap systemd-container)" >&2; exit 1; }
done
work=$(mktemp -d /var/tmp/workout-container.XXXXXX)
trap 'rm -rf "$work"' EXIT
root=$work/root
echo "debootstrap into $root ..."
# The libraries the binaries load (install.sh's runtime_packages): the container has no network
# for install.sh to fetch them.
debootstrap --variant=minbase --include=systemd,systemd-sysv,dbus,liblmdb0,zlib1g,libssl3,libxml2 bookworm "$root" http://deb.debian.org/debian >"$work/debootstrap.log" 2>&1 \
  || { tail -20 "$work/debootstrap.log"; exit 1; }

cat >"$root/usr/local/sbin/deploy-check.sh" <<'SCRIPT'
#!/bin/bash
exec >/deploy-check.log 2>&1
set -x
/deploy/install.sh --bin-dir /bins && echo "CHECK install: ok"
[ "$(systemctl show -p SubState --value workoutd)" = running ] && echo "CHECK running after start: ok"
systemctl show -p Type,StatusText,NRestarts workoutd
runuser -u workoutd -- /usr/local/bin/workoutd create-owner --config /etc/workoutd/workoutd.json \
  --email owner@example.org --first-name Owner --time-zone UTC --password-stdin <<<"correct horse battery" && echo "CHECK owner: ok"
export WORKOUT_CONFIG_DIR=/root/cli
# TLS is the default: the client pins the key the server made, which the admin reads on the machine.
fingerprint=$(runuser -u workoutd -- /usr/local/bin/workoutd fingerprint --config /etc/workoutd/workoutd.json)
/usr/local/bin/workout login --server 127.0.0.1:7420 --fingerprint "$fingerprint" --email owner@example.org \
  --password-stdin <<<"correct horse battery" && echo "CHECK login: ok"
/usr/local/bin/workout log weight 72.4 && echo "CHECK log: ok"
systemctl start workoutd-backup.service && ls /var/lib/workoutd/backups/workout-*.tar.gz && echo "CHECK backup: ok"
systemctl list-timers --no-pager workoutd-backup.timer
systemctl restart workoutd && [ "$(systemctl show -p SubState --value workoutd)" = running ] && echo "CHECK restart: ok"
systemctl stop workoutd && [ "$(systemctl show -p Result --value workoutd)" = success ] && echo "CHECK stop: ok"
journalctl -u workoutd -u workoutd-backup --no-pager | tail -30
/deploy/install.sh --uninstall && [ -e /var/lib/workoutd/data.mdb ] && echo "CHECK uninstall keeps data: ok"
systemctl poweroff
SCRIPT
chmod +x "$root/usr/local/sbin/deploy-check.sh"
cat >"$root/etc/systemd/system/deploy-check.service" <<'UNIT'
[Unit]
Description=Workout deployment check
After=multi-user.target
[Service]
Type=oneshot
ExecStart=/usr/local/sbin/deploy-check.sh
[Install]
WantedBy=multi-user.target
UNIT
ln -s /etc/systemd/system/deploy-check.service "$root/etc/systemd/system/multi-user.target.wants/deploy-check.service"
# The toolchain's root, e.g. /opt/swift for /opt/swift/usr/bin/swift: a debug build loads the
# Swift runtime from there.
toolchain=$(dirname "$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")")
mkdir -p "$root$toolchain" "$root/deploy" "$root/bins"

echo "booting the container ..."
timeout 600 systemd-nspawn -q --register=no --keep-unit --private-network -D "$root" \
  --bind-ro="$toolchain" --bind-ro="$PWD/deploy:/deploy" --bind-ro="$bin:/bins" -b >"$work/console.log" 2>&1 || true
cat "$root/deploy-check.log"
echo
grep '^CHECK' "$root/deploy-check.log"
[ "$(grep -c '^CHECK .*: ok$' "$root/deploy-check.log")" -eq 9 ] && echo "all 9 checks passed" || { echo "some checks failed"; exit 1; }
