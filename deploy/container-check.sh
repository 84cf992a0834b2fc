#!/usr/bin/env bash
# Boots a Debian 12 container under systemd-nspawn with systemd as its init, runs install.sh
# there for real, and checks the steps a family takes: the server starts (Type=notify: systemctl
# start returns once it serves), the owner is created, a client signs in and logs, the backup
# service writes an archive, restart and stop are clean, --uninstall keeps the data. Prints the
# container's log. Not part of scripts/test (it downloads Debian and takes a few minutes); run it
# as root after changing the units or install.sh:
#
#   sudo deploy/container-check.sh [BIN_DIR]     # BIN_DIR: workoutd and workout (default: the debug build)
#
# Needs Debian's debootstrap and systemd-container. The container has no network but its own
# loopback (--private-network); the Swift runtime is bind-mounted from /opt/swift read-only.
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
debootstrap --variant=minbase --include=systemd,systemd-sysv,dbus,liblmdb0,zlib1g bookworm "$root" http://deb.debian.org/debian >"$work/debootstrap.log" 2>&1 \
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
/usr/local/bin/workout login --server 127.0.0.1:7420 --email owner@example.org --password-stdin <<<"correct horse battery" && echo "CHECK login: ok"
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
mkdir -p "$root/opt/swift" "$root/deploy" "$root/bins"

echo "booting the container ..."
timeout 600 systemd-nspawn -q --register=no --keep-unit --private-network -D "$root" \
  --bind-ro=/opt/swift --bind-ro="$PWD/deploy:/deploy" --bind-ro="$bin:/bins" -b >"$work/console.log" 2>&1 || true
cat "$root/deploy-check.log"
echo
grep '^CHECK' "$root/deploy-check.log"
[ "$(grep -c '^CHECK .*: ok$' "$root/deploy-check.log")" -eq 9 ] && echo "all 9 checks passed" || { echo "some checks failed"; exit 1; }
