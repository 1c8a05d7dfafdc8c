#!/usr/bin/env python3
"""notes: a lazyshell plugin in Python (docs/plugin-protocol.md), to show "any language".

A list of notes kept in $LAZYSHELL_DATA_DIR/notes.txt. Shows the parts the sh example
does not: a text field that captures global keys, mouse clicks, exec (background
`git log` and an interactive $EDITOR), exec_result, and the opt-in `visible` extension.

  notes.py serve          the tab (JSON Lines protocol v1)
  notes.py doctor         checks the data directory is writable
  notes.py list|add TEXT  `lazyshell notes list`, `lazyshell notes add buy milk`
"""
import json
import os
import sys

DATA = os.environ.get("LAZYSHELL_DATA_DIR") or os.path.expanduser("~/.local/share/lazyshell/plugins/notes")
FILE = os.path.join(DATA, "notes.txt")


def load():
    try:
        with open(FILE, encoding="utf-8") as f:
            return [line.rstrip("\n") for line in f if line.strip()]
    except FileNotFoundError:
        return []


def save(notes):
    os.makedirs(DATA, exist_ok=True)
    with open(FILE, "w", encoding="utf-8") as f:
        f.write("".join(n + "\n" for n in notes))


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()  # one line per message, flushed: the host reads lines


def serve():
    notes, selected, field, status, visible = load(), 0, None, "", True
    width, height = 80, 24

    def frame():
        lines = ["\x1b[1mNotes\x1b[0m  \x1b[2m(a add · x delete · e edit in $EDITOR · :notes git-log)\x1b[0m", ""]
        for i, note in enumerate(notes[: max(0, height - 5)]):
            text = note[: max(0, width - 4)]
            lines.append(("\x1b[7m> " + text + "\x1b[0m") if i == selected else "  " + text)
        if not notes:
            lines.append("\x1b[2m  no notes yet\x1b[0m")
        lines.append("")
        lines.append(f"New note: {field}_" if field is not None else status)
        send({"type": "frame", "view": "\n".join(lines), "count": len(notes), "capturing": field is not None})

    for raw in sys.stdin:  # ends at EOF: lazyshell closed the tab, so we exit
        try:
            msg = json.loads(raw)
        except ValueError:
            continue
        kind = msg.get("type")
        if kind == "init":
            width, height = msg["width"], msg["height"]
            send({
                "type": "manifest",
                "title": "Notes",
                "help": [{"title": "Notes", "keys": [["a", "add"], ["x", "delete"], ["j/k", "move"], ["e", "edit"]]}],
                "commands": [{"name": "git-log", "desc": "Show the last commits of the current directory"}],
                "doctor": True,
                "subscribe": ["visible"],
            })
        elif kind == "resize":
            width, height = msg["width"], msg["height"]
        elif kind == "visible":
            visible = msg["visible"]
            if visible:
                notes = load()  # the file may have changed while hidden
        elif kind == "key":
            key, text = msg["key"], msg.get("text", "")
            if field is not None:
                if key == "enter":
                    if field.strip():
                        notes.append(field.strip())
                        save(notes)
                    field = None
                elif key == "esc":
                    field = None
                elif key == "backspace":
                    field = field[:-1]
                elif text:
                    field += text
            elif key in ("j", "down"):
                selected = min(selected + 1, max(0, len(notes) - 1))
            elif key in ("k", "up"):
                selected = max(selected - 1, 0)
            elif key == "a":
                field = ""
            elif key == "x" and notes:
                notes.pop(selected)
                selected = max(0, min(selected, len(notes) - 1))
                save(notes)
            elif key == "e":
                editor = os.environ.get("EDITOR", "vi")
                send({"type": "exec", "execId": "edit", "argv": [editor, FILE], "interactive": True})
        elif kind == "paste" and field is not None:
            field += msg["text"].replace("\n", " ")
        elif kind == "mouse" and msg["mouse"]["kind"] == "click":
            row = msg["mouse"]["y"] - 2
            if 0 <= row < len(notes):
                selected = row
        elif kind == "command" and msg["name"] == "git-log":
            send({"type": "exec", "execId": "git", "argv": ["git", "log", "--oneline", "-3"]})
            status = "running git log…"
        elif kind == "exec_result":
            if msg["execId"] == "edit":
                notes = load()
                status = "edited" if msg["code"] == 0 else f"editor failed: {msg['error'] or msg['code']}"
            else:
                out = (msg["stdout"] or msg["stderr"] or msg["error"] or "").strip().splitlines()
                status = " | ".join(out[:3]) or "(no output)"
        elif kind == "reload":
            notes = load()
        else:
            continue  # agents and message types newer than this plugin
        frame()


def main(argv):
    if argv[:1] == ["serve"]:
        serve()
        return 0
    if argv[:1] == ["doctor"]:
        try:
            os.makedirs(DATA, exist_ok=True)
            probe = os.path.join(DATA, ".probe")
            open(probe, "w").close()
            os.remove(probe)
            return 0
        except OSError as e:
            print(f"{DATA} is not writable ({e.strerror}): fix its permissions")
            return 1
    if argv[:1] == ["add"] and len(argv) > 1:
        save(load() + [" ".join(argv[1:])])
        return 0
    if argv[:1] in (["list"], []):
        for note in load():
            print(note)
        return 0
    print("usage: lazyshell notes [list | add TEXT...]", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
