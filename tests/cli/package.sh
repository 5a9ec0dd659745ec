#!/usr/bin/env bash
# The Debian package (scripts/make-deb): it builds from the tested binary and the built front
# end, installs into a throwaway root (dpkg --root, maintainer scripts run chrootless with
# DPKG_ROOT), makes the toguz system user and its state directory there, its units pass
# `systemd-analyze verify` and the offline security check, the installed binary started as the
# unit starts it serves the installed front end, and removal and purge leave nothing of it but
# the operator's data. Skips (77) without a built front end or Debian's package tools.
set -uo pipefail
toguz="$1" tests="$2"
src="$(cd "$tests/.." && pwd)"
source "$tests/cli/check.bash"
[[ -f "$src/web/dist/index.html" ]] || { echo "SKIP: no built front end in $src/web/dist (make web)"; exit 77; }
for tool in dpkg dpkg-deb systemd-analyze systemd-sysusers objdump curl; do
  command -v "$tool" >/dev/null || { echo "SKIP: $tool is not installed"; exit 77; }
done
tmp="$(mktemp -d)"
server=""
cleanup() {
  [[ -n "$server" ]] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null
  rm -rf "$tmp"
}
trap cleanup EXIT

deb="$("$src/scripts/make-deb" "$toguz" "$src/web/dist" "$tmp/out")" || { echo "FAIL make-deb"; exit 1; }
contents="$(dpkg-deb -c "$deb" | awk '{ print $NF }')"
for path in ./usr/bin/toguz ./usr/share/toguz/web/index.html ./usr/share/toguz/data/studies.json \
  ./usr/share/toguz/data/puzzles-default.jsonl ./lib/systemd/system/toguz.service \
  './lib/systemd/system/toguz-worker@.service' ./usr/lib/sysusers.d/toguz.conf ./etc/toguz/toguz.env \
  ./etc/toguz/toguz.conf; do
  grep -qxF "$path" <<<"$contents" || { echo "FAIL the package lacks $path"; fail=1; }
done

# Every dependency is a Debian 12 package at a version this machine (which runs the binary) has.
IFS=',' read -ra deps <<<"$(dpkg-deb -f "$deb" Depends)"
for dep in "${deps[@]}"; do
  dep="${dep# }"
  [[ "$dep" == *"|"* ]] && continue
  name="${dep%% *}" want="$(sed -n 's/.*(>= \(.*\))/\1/p' <<<"$dep")"
  have="$(dpkg-query -W -f='${Version}' "$name" 2>/dev/null)"
  if [[ -z "$have" ]] || ! dpkg --compare-versions "$have" ge "$want"; then
    echo "FAIL dependency $dep: installed '${have}'"
    fail=1
  fi
done

# Install into a throwaway root. --force-depends: that root has no other package (the
# dependencies were checked against this machine above).
root="$tmp/root"
mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates" "$root/etc"
touch "$root/var/lib/dpkg/status"
dpkg_root() { dpkg --root="$root" --force-script-chrootless --force-depends --log=/dev/null "$@"; }
dpkg_root -i "$deb" >"$tmp/install.log" 2>&1 || { echo "FAIL install"; cat "$tmp/install.log"; exit 1; }
check "installed" "install ok installed" "$(dpkg-query --admindir="$root/var/lib/dpkg" -W -f='${Status}' toguz)"
user="$(awk -F: '$1 == "toguz" { print $3 ":" $4 ":" $7 }' "$root/etc/passwd")"
uid="${user%%:*}"
check "system user's shell" "/usr/sbin/nologin" "${user##*:}"
[[ -n "$uid" && "$uid" -lt 1000 ]] || { echo "FAIL toguz is not a system user: '$user'"; fail=1; }
check "state directory" "$uid 750" "$(stat -c '%u %a' "$root/var/lib/toguz")"
check "environment file" "0 640" "$(stat -c '%u %a' "$root/etc/toguz/toguz.env")"

# The units, with their binary the installed one: valid, and hardened (exposure below 2.0).
for unit in toguz.service toguz-worker@.service; do
  sed "s|/usr/bin/toguz|$root/usr/bin/toguz|" "$root/lib/systemd/system/$unit" >"$tmp/$unit"
  if ! out="$(systemd-analyze verify "$tmp/$unit" 2>&1)"; then echo "FAIL verify $unit: $out"; fail=1; fi
  exposure="$(systemd-analyze security --offline=yes "$tmp/$unit" 2>&1 |
    sed -n 's/.*Overall exposure level for .*: \([0-9.]*\) .*/\1/p')"
  awk -v e="$exposure" 'BEGIN { exit !(e != "" && e < 2.0) }' ||
    { echo "FAIL $unit exposure '$exposure' (2.0 or more)"; fail=1; }
done

# The site as the unit starts it, with the installed configuration (its paths inside the root,
# any free ports): it takes every key, serves the installed front end and answers its checks.
conf="$tmp/toguz.conf"
sed -e "s|= /usr/|= $root/usr/|; s|= /var/|= $root/var/|; s|^port = 8080\$|port = 0|" \
  -e 's|^metrics-listen = .*|metrics-listen = 127.0.0.1:0|' "$root/etc/toguz/toguz.conf" >"$conf"
exec_start="$(sed -n 's/^ExecStart=//p' "$root/lib/systemd/system/toguz.service")"
read -ra argv <<<"$exec_start"
for i in "${!argv[@]}"; do
  case "${argv[$i]}" in
    /etc/toguz/toguz.conf) argv[$i]="$conf" ;;
    /usr/*) argv[$i]="$root${argv[$i]}" ;;
  esac
done
"${argv[@]}" >"$tmp/serve.log" 2>&1 &
server=$!
url=""
until [[ -n "$url" ]]; do
  kill -0 "$server" 2>/dev/null || { echo "FAIL the installed site stopped"; cat "$tmp/serve.log"; exit 1; }
  url="$(sed -n 's|.*toguz serve: listening on \(http://[^ ]*/\).*|\1|p' "$tmp/serve.log" | head -1)"
  [[ -n "$url" ]] || sleep 0.2
done
check "front end served" "$(cat "$root/usr/share/toguz/web/index.html")" "$(curl -fsS "$url")"
check "health" "200" "$(curl -s -o /dev/null -w '%{http_code}' "${url}api/health")"
check "ready" "200" "$(curl -s -o /dev/null -w '%{http_code}' "${url}api/ready")"
grep -q "configuration: $conf" "$tmp/serve.log" || { echo "FAIL the site did not say it read $conf"; fail=1; }
kill "$server" && wait "$server" 2>/dev/null
server=""
[[ -f "$root/var/lib/toguz/toguz.db" ]] || { echo "FAIL no database in the state directory"; fail=1; }

# Remove keeps the conffile; purge removes it; the operator's data stays.
dpkg_root -r toguz >"$tmp/remove.log" 2>&1 || { echo "FAIL remove"; cat "$tmp/remove.log"; fail=1; }
[[ ! -e "$root/usr/bin/toguz" && ! -e "$root/lib/systemd/system/toguz.service" ]] ||
  { echo "FAIL remove left the binary or a unit"; fail=1; }
[[ -f "$root/etc/toguz/toguz.env" && -f "$root/etc/toguz/toguz.conf" ]] ||
  { echo "FAIL remove took a conffile"; fail=1; }
dpkg_root -P toguz >"$tmp/purge.log" 2>&1 || { echo "FAIL purge"; cat "$tmp/purge.log"; fail=1; }
[[ ! -e "$root/etc/toguz/toguz.env" && ! -e "$root/etc/toguz/toguz.conf" && ! -e "$root/usr/share/toguz" ]] ||
  { echo "FAIL purge left files of the package"; fail=1; }
check "after purge" "" "$(dpkg-query --admindir="$root/var/lib/dpkg" -W -f='${Status}' toguz 2>/dev/null)"
[[ -f "$root/var/lib/toguz/toguz.db" ]] || { echo "FAIL purge took the operator's data"; fail=1; }
exit "$fail"
