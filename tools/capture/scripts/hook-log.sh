#!/bin/sh
# Claude Code hook command: hook-log.sh <EventName>; the hook's JSON payload arrives on stdin.
# Appends one JSON line {t_epoch_ms, event, payload} to $LAB_HOOK_LOG.
payload=$(cat | tr -d '\n')
t=$(date +%s%3N)
printf '{"t_epoch_ms":%s,"event":"%s","payload":%s}\n' "$t" "$1" "${payload:-null}" >> "${LAB_HOOK_LOG:?}"
exit 0
