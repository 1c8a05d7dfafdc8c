#!/bin/sh
# Codex `notify` program: Codex runs it with one JSON argument (the last argv).
# Appends {t_epoch_ms, ppid, argv} to $LAB_NOTIFY_LOG.
t=$(date +%s%3N)
python3 - "$t" "$PPID" "$@" <<'PY' >> "${LAB_NOTIFY_LOG:?}"
import json, sys
print(json.dumps({"t_epoch_ms": int(sys.argv[1]), "ppid": int(sys.argv[2]), "argv": sys.argv[3:]}))
PY
exit 0
