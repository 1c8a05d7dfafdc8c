// The web view's page (docs/web.md): the session list from the live connection, a
// session's screen in xterm.js, a blocked agent's options as buttons, a line to send.
// Loaded by its URL on the page (not a path of this checkout: type checks leave it alone).
const XTERM = "/assets/xterm.mjs";
const { Terminal } = await import(XTERM);

const $ = (id) => document.getElementById(id);
const sessions = new Map();
let order = [];
let readOnly = true;
let skew = 0;
let selected = null;
let socket = null;
let nextReq = 1;
const pending = new Map();
let term = null;
let termFor = null;
let retry = 0;
let ended = false;
let byeReason = null;

const LIMITED = new Set(["rate_limit", "quota", "overloaded"]);
function urgency(s) {
  if (s.status === "exited") return 9;
  if (s.state === "blocked") return 0;
  if (s.state === "error") return s.kind && LIMITED.has(s.kind) ? 1 : 2;
  return { done: 3, working: 4, idle: 5 }[s.state] ?? 6;
}

function stateOf(s) {
  if (s.status === "exited") return s.exitCode ? `exited ${s.exitCode}` : "exited";
  if (s.state === "error" && s.kind) return `error: ${s.kind.replace("_", " ")}`;
  return s.state ?? (s.agent ? "…" : "shell");
}

function duration(ms) {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor(s / 60) % 60).padStart(2, "0")}m`;
}

function timer(s) {
  const now = Date.now() + skew;
  if (s.turn.startedAt !== null) return `turn ${duration(now - s.turn.startedAt)}`;
  if (s.turn.lastMs !== null) return `last turn ${duration(s.turn.lastMs)}`;
  return "";
}

function status(text, bad = false) {
  $("status").textContent = text;
  $("status").classList.toggle("bad", bad);
}

function sorted() {
  return [...sessions.values()].sort((a, b) =>
    urgency(a) - urgency(b) || order.indexOf(a.id) - order.indexOf(b.id)
  );
}

function renderList() {
  const ul = $("sessions");
  const items = sorted().map((s) => {
    const li = document.createElement("li");
    li.dataset.id = s.id;
    li.dataset.state = s.status === "exited" ? "exited" : s.state ?? "none";
    if (s.id === selected) li.classList.add("selected");
    const name = document.createElement("span");
    name.className = "name";
    name.textContent = s.name;
    const badge = document.createElement("span");
    badge.className = `state ${s.status === "exited" ? "exited" : s.state ?? ""}`;
    badge.textContent = stateOf(s);
    const meta = document.createElement("span");
    meta.className = "meta";
    meta.dataset.timer = "";
    meta.textContent = [
      s.agent,
      s.group && `group ${s.group}`,
      s.worktree && `⎇ ${s.worktree}`,
      timer(s),
    ].filter(Boolean).join(" · ");
    li.append(name, badge, meta);
    if (s.prompt) {
      const ask = document.createElement("span");
      ask.className = "ask";
      ask.textContent = s.prompt.question + (s.prompt.subject ? ` — ${s.prompt.subject}` : "");
      li.append(ask);
    }
    li.addEventListener("click", () => select(s.id));
    return li;
  });
  ul.replaceChildren(...items);
  // The tab says how many wait for you.
  const waiting = [...sessions.values()].filter((s) => s.state === "blocked").length;
  document.title = waiting ? `(${waiting}) lazyshell` : "lazyshell";
}

function renderDetail() {
  const s = selected && sessions.get(selected);
  $("detail").hidden = !s;
  document.body.classList.toggle("viewing", !!s);
  if (!s) return;
  $("title").textContent = `${s.name} · ${stateOf(s)}`;
  const p = s.prompt;
  $("prompt").hidden = !p;
  if (p) {
    const shown = JSON.stringify([p.question, p.options]);
    if ($("prompt").dataset.shown !== shown) {
      $("prompt").dataset.shown = shown;
      $("question").textContent = p.question;
      $("subject").textContent = p.subject ?? "";
      const buttons = p.options.map((label, i) => {
        if (readOnly) {
          const div = document.createElement("div");
          div.textContent = `${i + 1}. ${label}`;
          return div;
        }
        const b = document.createElement("button");
        b.type = "button";
        b.className = "option";
        b.textContent = `${i + 1}. ${label}`;
        b.addEventListener("click", () => answer(s.id, p, i + 1));
        return b;
      });
      $("options").replaceChildren(...buttons);
    }
  } else {
    delete $("prompt").dataset.shown;
  }
  $("input").hidden = readOnly || s.status === "exited";
  $("changes").hidden = !s.worktree;
}

// A worktree session's changes since its branch point (as `ctl diff`).
$("changes").addEventListener("click", async () => {
  if (!selected) return;
  const pre = $("diff");
  if (!pre.hidden) {
    pre.hidden = true;
    return;
  }
  const r = await request({ t: "diff", id: selected });
  const lines = r.text.split("\n").map((line) => {
    const span = document.createElement("span");
    span.textContent = line + "\n";
    if (/^\+(?!\+\+)/.test(line)) span.className = "add";
    else if (/^-(?!--)/.test(line)) span.className = "del";
    else if (/^@@/.test(line)) span.className = "hunk";
    return span;
  });
  pre.replaceChildren(...lines);
  pre.classList.toggle("bad", !r.ok);
  pre.hidden = false;
});

function select(id) {
  if (selected !== id) {
    $("receipt").hidden = true;
    $("diff").hidden = true;
  }
  selected = id;
  renderList();
  renderDetail();
  send({ t: "watch", id });
}

function receipt(text, ok) {
  $("receipt").hidden = false;
  $("receipt").textContent = text;
  $("receipt").classList.toggle("bad", !ok);
}

function request(m) {
  const req = nextReq++;
  send({ ...m, req });
  return new Promise((resolve) => pending.set(req, resolve));
}

async function answer(id, prompt, option) {
  for (const b of $("options").querySelectorAll("button")) b.disabled = true;
  receipt(`Answering ${option}. ${prompt.options[option - 1]}…`, true);
  const r = await request({
    t: "answer",
    id,
    option,
    question: prompt.question,
    subject: prompt.subject,
    options: prompt.options,
  });
  receipt(r.text, r.ok);
  for (const b of $("options").querySelectorAll("button")) b.disabled = false;
}

$("input").addEventListener("submit", async (e) => {
  e.preventDefault();
  if (!selected) return;
  const text = $("line").value;
  $("line").value = "";
  const r = await request({ t: "send", id: selected, text, enter: true });
  receipt(r.text, r.ok);
});

$("back").addEventListener("click", () => {
  selected = null;
  send({ t: "watch", id: null });
  renderList();
  renderDetail();
});

function fontFor(cols) {
  const width = $("screen").clientWidth - 8;
  return Math.max(5, Math.min(14, Math.floor(width / (cols * 0.6))));
}

function screen(m) {
  if (!term || termFor !== m.id) {
    term?.dispose();
    term = new Terminal({
      cols: m.cols,
      rows: m.rows,
      fontSize: fontFor(m.cols),
      scrollback: 2000,
      disableStdin: true,
      convertEol: false,
      cursorBlink: false,
    });
    term.open($("screen"));
    termFor = m.id;
  } else {
    term.reset();
    term.resize(m.cols, m.rows);
    term.options.fontSize = fontFor(m.cols);
  }
  term.write(m.data);
}

// Notifications while the page is open: blocked, done, failed.
/** Blocked sessions whose question is not read yet: notified once it is, or after 1 s. */
const unread = new Map();

function notify(before, s) {
  if (!("Notification" in globalThis) || Notification.permission !== "granted") return;
  const was = before?.status === "exited" ? "exited" : before?.state;
  const now = s.status === "exited" ? (s.exitCode ? "failed" : "exited") : s.state;
  if (unread.has(s.id) && (now !== "blocked" || s.prompt)) {
    clearTimeout(unread.get(s.id));
    unread.delete(s.id);
    if (now === "blocked") return show(s, now);
  }
  if (was === now || !["blocked", "done", "error", "failed"].includes(now)) return;
  // The state often comes a moment before the question is read off the screen.
  if (now === "blocked" && !s.prompt) {
    unread.set(
      s.id,
      setTimeout(() => {
        unread.delete(s.id);
        show(sessions.get(s.id) ?? s, "blocked");
      }, 1000),
    );
    return;
  }
  show(s, now);
}

function show(s, now) {
  const body = now === "blocked"
    ? s.prompt?.question ?? s.msg ?? "needs you"
    : now === "done"
    ? "finished its turn"
    : s.msg ?? (s.exitCode ? `exited with ${s.exitCode}` : "failed");
  const n = new Notification(`${s.name}: ${now === "error" ? "failed" : now}`, {
    body,
    tag: s.id,
  });
  n.onclick = () => {
    globalThis.focus();
    select(s.id);
  };
}

function setupNotify() {
  const b = $("notify");
  if (!("Notification" in globalThis) || Notification.permission !== "default") return;
  b.hidden = false;
  b.addEventListener("click", async () => {
    await Notification.requestPermission();
    b.hidden = Notification.permission !== "default";
  });
}

function onMessage(m) {
  switch (m.t) {
    case "hello":
      readOnly = m.readOnly;
      skew = m.now - Date.now();
      sessions.clear();
      order = m.sessions.map((s) => s.id);
      for (const s of m.sessions) sessions.set(s.id, s);
      status(`${m.sessions.length} sessions${readOnly ? " · read-only" : ""}`);
      if (selected && !sessions.has(selected)) selected = null;
      renderList();
      renderDetail();
      if (selected) send({ t: "watch", id: selected });
      break;
    case "session": {
      const before = sessions.get(m.session.id);
      if (!before) order.push(m.session.id);
      sessions.set(m.session.id, m.session);
      notify(before, m.session);
      status(`${sessions.size} sessions${readOnly ? " · read-only" : ""}`);
      renderList();
      if (m.session.id === selected) renderDetail();
      break;
    }
    case "removed":
      sessions.delete(m.id);
      if (selected === m.id) selected = null;
      renderList();
      renderDetail();
      break;
    case "screen":
      if (m.id === selected) screen(m);
      break;
    case "rows":
      if (m.id === selected && term) term.write(m.data);
      break;
    case "reply":
      pending.get(m.req)?.(m);
      pending.delete(m.req);
      if (m.req === -1) status(m.text, true);
      break;
    case "bye":
      // Said before the server closes: shown while the page tries again (a mode change, a
      // server that comes back), and kept when it cannot (a rotated token).
      byeReason = m.reason;
      status(m.reason, true);
      break;
  }
}

function send(m) {
  if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify(m));
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/live`);
  socket.onopen = () => {
    retry = 0;
    byeReason = null;
  };
  socket.onmessage = (e) => onMessage(JSON.parse(e.data));
  socket.onclose = () => {
    for (const resolve of pending.values()) resolve({ ok: false, text: "Connection lost" });
    pending.clear();
    if (ended) return;
    retry = Math.min(retry + 1, 5);
    status(`${byeReason ?? "disconnected"}: retrying in ${retry * 2} s`, true);
    setTimeout(retryOrStop, retry * 2000);
  };
}

/** A new server (or token) voided this page's cookie: say so instead of retrying for ever. */
async function retryOrStop() {
  const r = await fetch("/", { method: "HEAD", cache: "no-store" }).catch(() => null);
  if (r?.status === 401 || r?.status === 403) {
    ended = true;
    status(
      `${byeReason ? `${byeReason}. ` : ""}Signed out (a new server or token): ` +
        "open the URL `lazyshell web` prints",
      true,
    );
    return;
  }
  connect();
}

// Turn timers tick on the page; the server sends only changes.
setInterval(() => {
  for (const li of $("sessions").children) {
    const s = sessions.get(li.dataset.id);
    const meta = li.querySelector(".meta");
    if (s && meta && s.turn.startedAt !== null) {
      meta.textContent = [
        s.agent,
        s.group && `group ${s.group}`,
        s.worktree && `⎇ ${s.worktree}`,
        timer(s),
      ].filter(Boolean).join(" · ");
    }
  }
}, 1000);

setupNotify();
connect();
