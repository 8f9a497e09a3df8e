#!/bin/sh
# Back up a cardroom service: Redis first (a point-in-time RDB file of the live store, one per
# master on a Redis Cluster), then the archive's directory (a tar of its files): a game
# archived between the two copies is then in both, never in neither (docs/operations.md,
# "Backups"). Install as /usr/local/sbin/cardroom-backup; cardroom-backup.timer runs it daily.
#
# Settings (systemd reads them from /etc/cardroom/cardroom.env): REDIS_URL (redis://,
# unix:// or redis+cluster://), CARDROOM_ARCHIVE_DIR, BACKUP_DIR (/var/backups/cardroom),
# BACKUP_KEEP_DAYS (14). Needs redis-cli (Debian's redis-tools) and tar.
set -eu
dir=${BACKUP_DIR:-/var/backups/cardroom}
url=${REDIS_URL:-redis://127.0.0.1:6379/0}
stamp=$(date -u +%Y%m%d-%H%M%S)
mkdir -p "$dir"

snapshot() {  # snapshot NAME redis-cli-connection-options...: the whole dataset, atomically
  name=$1
  shift
  redis-cli "$@" --rdb "$dir/$name.part" >/dev/null
  mv "$dir/$name.part" "$dir/$name"
  echo "cardroom-backup: $dir/$name"
}

case $url in
  unix://*)
    path=${url#unix://}
    snapshot "redis-$stamp.rdb" -s "${path%%\?*}" ;;
  redis+cluster://* | rediss+cluster://*)
    first=${url#*://}
    first=${first#*@}
    first=${first%%,*}
    redis-cli -h "${first%:*}" -p "${first##*:}" cluster nodes | awk '/master/ {print $2}' |
      while read -r node; do
        node=${node%@*}
        snapshot "redis-$stamp-${node%:*}-${node##*:}.rdb" -h "${node%:*}" -p "${node##*:}"
      done ;;
  *)
    snapshot "redis-$stamp.rdb" -u "$url" ;;
esac

archive=${CARDROOM_ARCHIVE_DIR:-}
if [ -n "$archive" ] && [ -d "$archive" ]; then
  tar -C "$(dirname "$archive")" -czf "$dir/archive-$stamp.tar.gz.part" "$(basename "$archive")"
  mv "$dir/archive-$stamp.tar.gz.part" "$dir/archive-$stamp.tar.gz"
  echo "cardroom-backup: $dir/archive-$stamp.tar.gz"
fi

keep=${BACKUP_KEEP_DAYS:-14}
find "$dir" -maxdepth 1 \( -name 'redis-*.rdb' -o -name 'archive-*.tar.gz' \) -mtime +"$keep" -delete
