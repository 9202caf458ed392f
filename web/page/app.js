// The page: files in, the engine's verdicts and replay out. Every text that comes from a file
// or from the engine is shown through textContent (never as markup); the replay is the
// engine's own escaped page, in a sandboxed frame. Nothing here makes a request.
"use strict";

const $ = (id) => document.getElementById(id);
const EDITOR = "editor";          // the rules-pick value of the rules in the editor
const OWN = "";                   // each transcript's own rules
let engine = null;                // the wasm_bindgen exports
let judge = null;                 // the engine's Judge: what transcripts are checked against
let games = [];                   // the built-in games
let loaded = [];                  // {name, bytes, kind, rows: [{verdict, lineBytes?}]}
let selected = null;
const opened = new Map();         // the files opened that rules and transcripts may name: name -> bytes
let lastLint = { uses: [], missing: [] };   // what the editor's rules looked for among the opened files
let judgeLooked = {};                        // the same for the rules transcripts are checked against
let viewedEvent = null;           // the event the judge's replay shows (it says so: FRAME_SCRIPT)
let trial = null;                 // the engine's Trial: another move tried at viewedEvent

function say(text) { $("status").textContent = text; }

function decodeBase64(text) {
  const raw = atob(text);
  const bytes = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

async function start() {
  const began = performance.now();
  const marks = { script: Math.round(began) };
  // The module is in the page's folder as base64 (shinpan_web_wasm.js): a page opened from
  // disk may not fetch a file beside it.
  const bytes = decodeBase64(SHINPAN_WASM);
  marks.decoded = Math.round(performance.now());
  await wasm_bindgen({ module_or_path: bytes });
  marks.instantiated = Math.round(performance.now());
  engine = wasm_bindgen;
  judge = new engine.Judge();
  games = JSON.parse(engine.builtin_games());
  marks.games = Math.round(performance.now());
  fillRulesPicks();
  $("rules-text").value = games[0] ? games[0].text : "";
  $("edit-name").value = "my-variant.rules";
  lintNow();
  marks.ready = Math.round(performance.now());
  document.body.dataset.marks = JSON.stringify(marks);
  document.body.dataset.ready = "true";
  say(`ready: ${games.length} built-in games (engine loaded in ${Math.round(performance.now() - began)} ms)`);
}

function option(select, value, text) {
  const o = document.createElement("option");
  o.value = value;
  o.textContent = text;
  select.append(o);
}

function fillRulesPicks() {
  option($("rules-pick"), OWN, "each transcript's own rules");
  for (const g of games) option($("rules-pick"), g.name, `${g.name} (${g.words})`);
  option($("rules-pick"), EDITOR, "the rules in the editor");
  for (const g of games) option($("edit-start"), g.name, `${g.name}`);
  option($("play-rules"), EDITOR, "the rules in the editor");
  for (const g of games) option($("play-rules"), g.name, `${g.name} (${g.words})`);
  $("play-rules").value = games[0] ? games[0].name : EDITOR;
  playersFit();
}

// ---- tabs ----
for (const tab of document.querySelectorAll(".tab")) {
  tab.addEventListener("click", () => showTab(tab.dataset.tab));
}
function showTab(name) {
  for (const tab of document.querySelectorAll(".tab")) tab.setAttribute("aria-selected", String(tab.dataset.tab === name));
  for (const body of document.querySelectorAll(".tab-body")) body.hidden = body.id !== `tab-${name}`;
}

// ---- what transcripts are checked against ----
function useRules() {
  const pick = $("rules-pick").value;
  let problem = "";
  if (pick === OWN) judge.use_named();
  else if (pick === EDITOR) problem = judge.use_rules_text($("edit-name").value || "editor.rules", $("rules-text").value);
  else problem = judge.use_builtin(pick);
  judgeLooked = pick === EDITOR ? JSON.parse(judge.looked()) : {};
  $("rules-status").textContent = problem ? "these rules do not compile: see Edit rules" : "";
  $("rules-status").className = problem ? "bad" : "";
  // A rules file that names a file not opened: which one to open too.
  $("needs").textContent = pick === EDITOR && problem ? (judgeLooked.needs || lastLint.needs || "") : "";
  $("needs").hidden = !$("needs").textContent;
  recheck();
}
$("rules-pick").addEventListener("change", useRules);

$("rules-file").addEventListener("change", async (e) => {
  await openMany(e.target.files, "rules");
  e.target.value = "";
});
$("edit-file").addEventListener("change", async (e) => {
  await openMany(e.target.files, "edit");
  e.target.value = "";
});

// The rules file of several opened at once: the one no other of them extends (by file name).
function mainRules(rules) {
  const extended = new Set();
  for (const f of rules) {
    for (const m of new TextDecoder().decode(f.bytes).matchAll(/^\s*extends\s+"([^"]+)"/gm)) extended.add(m[1].split("/").pop());
  }
  return rules.find((f) => !extended.has(f.name)) || rules[rules.length - 1];
}

// Files opened or dropped together (`from`: "check", the transcripts' box; "rules" or "edit",
// the buttons that open a rules file). Every one is given to the engine by name, for a rules
// file's `extends` and card pool and a transcript's pool; a .rules file among them goes into
// the editor (and, but from the editor's button, is what transcripts are checked against);
// from the transcripts' box, the others that the rules do not read are transcripts.
async function openMany(fileList, from) {
  const files = [];
  for (const file of fileList) files.push({ name: file.name, bytes: new Uint8Array(await file.arrayBuffer()) });
  if (!files.length) return;
  const wanted = new Set([...(lastLint.missing || []), ...(judgeLooked.missing || [])]);
  for (const f of files) {
    engine.give_file(f.name, f.bytes);
    opened.set(f.name, f.bytes);
  }
  const rules = files.filter((f) => f.name.toLowerCase().endsWith(".rules"));
  // Rules files that the rules in the editor lacked (a parent it extends) fill the gap and
  // leave the editor as it is.
  if (rules.length && !rules.every((f) => wanted.has(f.name))) {
    const main = mainRules(rules);
    $("rules-text").value = new TextDecoder().decode(main.bytes);
    $("edit-name").value = main.name;
    if (from !== "edit") $("rules-pick").value = EDITOR;
  }
  lintNow();
  for (const name of [...(lastLint.uses || []), ...(judgeLooked.uses || [])]) wanted.add(name);
  if (from === "check") {
    for (const f of files) if (!rules.includes(f) && !wanted.has(f.name)) addOne(f.name, f.bytes);
  }
  showOpened();
  showVerdicts();
}

function showOpened() {
  const used = [...(lastLint.uses || []), ...(judgeLooked.uses || [])];
  const names = [...opened.keys()].filter((n) => n.toLowerCase().endsWith(".rules") || used.includes(n));
  $("opened").textContent = names.length ? `files opened for the rules: ${names.join(", ")}` : "";
  $("opened").hidden = !names.length;
}

// ---- transcripts in ----
function kindOf(name) {
  const lower = name.toLowerCase();
  if (lower.endsWith(".jsonl") || lower.endsWith(".ndjson")) return "jsonl";
  return "file";   // YAML, JSON, and records (.pbn, .lin): the engine tells them by the name
}

function addOne(name, bytes) {
  const entry = { name, bytes, kind: kindOf(name), rows: [] };
  judgeEntry(entry);
  loaded.push(entry);
}

function judgeEntry(entry) {
  entry.rows = [];
  if (entry.kind === "jsonl") {
    const text = new TextDecoder().decode(entry.bytes);
    const lines = text.split("\n");
    for (const line of splitLines(judge.check_lines(entry.name, text))) {
      const verdict = JSON.parse(line);
      const n = Number(verdict.file.slice(entry.name.length + 1));
      const lineText = (lines[n - 1] || "").replace(/\r$/, "");
      entry.rows.push({ verdict, line, name: verdict.file, bytes: new TextEncoder().encode(lineText), deal: 0 });
    }
  } else {
    for (const line of splitLines(judge.check(entry.name, entry.bytes))) {
      const verdict = JSON.parse(line);
      const hash = verdict.file.lastIndexOf("#");
      const deal = verdict.file !== entry.name && hash > 0 ? Number(verdict.file.slice(hash + 1)) : 0;
      entry.rows.push({ verdict, line, name: entry.name, bytes: entry.bytes, deal });
    }
  }
}

function splitLines(text) { return text.split("\n").filter((l) => l.length > 0); }

function recheck() {
  for (const entry of loaded) judgeEntry(entry);
  showVerdicts();
}

const drop = $("drop");
drop.addEventListener("dragover", (e) => { e.preventDefault(); drop.classList.add("over"); });
drop.addEventListener("dragleave", () => drop.classList.remove("over"));
drop.addEventListener("drop", (e) => {
  e.preventDefault();
  drop.classList.remove("over");
  openMany(e.dataTransfer.files, "check");
});
$("files").addEventListener("change", async (e) => { await openMany(e.target.files, "check"); e.target.value = ""; });

function pastedName(text, kind) {
  const found = kind !== "auto" ? kind
    : /^\s*\[\w+\s+"/.test(text) ? "pbn"
    : /^\s*(pn|md|qx|vg|st|rh|ah)\|/.test(text) ? "lin"
    : text.trim().split("\n").filter((l) => l.trim()).length > 1 && text.trim().split("\n").every((l) => !l.trim() || l.trim().startsWith("{")) ? "jsonl"
    : "yaml";
  const count = loaded.filter((e) => e.name.startsWith("pasted")).length + 1;
  return `pasted-${count}.${found}`;
}
$("paste-check").addEventListener("click", () => {
  const text = $("paste").value;
  if (!text.trim()) return;
  addOne(pastedName(text, $("paste-kind").value), new TextEncoder().encode(text));
  showVerdicts();
});
$("clear").addEventListener("click", () => {
  loaded = [];
  selected = null;
  engine.forget_files();
  opened.clear();
  showOpened();
  lintNow();
  showVerdicts();
});

// ---- verdicts out ----
function cell(row, text, cls) {
  const td = document.createElement("td");
  td.textContent = text;
  if (cls) td.className = cls;
  row.append(td);
}

function showVerdicts() {
  const body = $("verdicts").tBodies[0];
  body.replaceChildren();
  const counts = { legal: 0, illegal: 0, malformed: 0 };
  let index = 0;
  for (const entry of loaded) {
    for (const r of entry.rows) {
      const v = r.verdict;
      counts[v.verdict] = (counts[v.verdict] || 0) + 1;
      const tr = document.createElement("tr");
      tr.dataset.index = String(index++);
      tr.dataset.verdict = v.verdict;
      const first = (v.violations || [])[0];
      const error = (v.errors || [])[0];
      cell(tr, v.file);
      cell(tr, v.verdict, `verdict ${v.verdict}`);
      cell(tr, first ? first.rule : "");
      cell(tr, first ? String(first.event) : "");
      cell(tr, first ? first.message : error ? error.message : v.finished ? `finished; winners: ${(v.winners || []).join(", ")}` : "not finished");
      tr.tabIndex = 0;
      tr.addEventListener("click", () => select(r, tr));
      tr.addEventListener("keydown", (e) => { if (e.key === "Enter") select(r, tr); });
      body.append(tr);
    }
  }
  const total = counts.legal + counts.illegal + counts.malformed;
  $("verdicts").hidden = total === 0;
  $("clear").hidden = total === 0 && opened.size === 0;
  $("summary").textContent = total === 0 ? "" : `${total} checked: ${counts.legal} legal, ${counts.illegal} illegal, ${counts.malformed} malformed`;
  if (total === 0) $("detail").hidden = true;
  const rows = loaded.flatMap((e) => e.rows);
  if (rows.length && (!selected || !rows.includes(selected))) select(rows[rows.length - 1], body.lastElementChild);
  else if (selected) select(selected, body.children[rows.indexOf(selected)]);
}

function select(r, tr) {
  closeTrial();
  viewedEvent = null;
  $("try-open").hidden = true;
  selected = r;
  for (const row of $("verdicts").tBodies[0].children) row.classList.toggle("selected", row === tr);
  $("detail").hidden = false;
  $("detail-title").textContent = `${r.verdict.file}: ${r.verdict.verdict}`;
  const bytes = r.bytes;
  $("human").textContent = judge.check_human(r.name, bytes, r.deal);
  const page = judge.page(r.name, bytes, r.deal);
  const frame = $("replay");
  frame.hidden = !page;
  // srcdoc is the engine's page as written: its text from the transcript is escaped there.
  if (page) frame.srcdoc = page;
}

// ---- another move tried at a point of the replay ----
// The replay in the frame says which event it shows; the page offers to try another move
// there: the engine's live referee (Trial, over shinpan::Game) replays the transcript up to
// that event and lists what is legal, move by move.
window.addEventListener("message", (e) => {
  if (e.source !== $("replay").contentWindow || !selected) return;
  const n = e.data && e.data.shinpanEvent;
  if (!Number.isInteger(n) || n < 0) return;
  viewedEvent = n;
  $("try-open").textContent = `Try another move at event ${n}`;
  $("try-open").hidden = trial !== null;
});
$("try-open").addEventListener("click", openTrial);
$("trial-back").addEventListener("click", closeTrial);
$("trial-random").addEventListener("click", () => showTrial(trial.random()));
$("trial-out").addEventListener("click", () => showTrial(trial.play_out()));
$("trial-undo").addEventListener("click", () => showTrial(trial.undo() ? "" : "no move tried to take back"));

function openTrial() {
  if (!selected || viewedEvent === null) return;
  closeTrial();
  const r = selected;
  // Random and chance moves are drawn from a seed: the same each time a point is tried.
  trial = judge.trial(r.name, r.bytes, r.deal, viewedEvent, BigInt(viewedEvent + 1));
  $("trial-title").textContent = `Another move at event ${viewedEvent} of ${r.verdict.file}`;
  $("trial").hidden = false;
  $("replay").hidden = true;
  $("try-open").hidden = true;
  showTrial("");
  $("trial").scrollIntoView({ block: "nearest" });
}

function closeTrial() {
  if (trial) trial.free();
  trial = null;
  $("trial").hidden = true;
  $("replay").hidden = !selected;
  $("try-open").hidden = viewedEvent === null;
  document.body.dataset.trial = "";
}

function listed(text, tag, recorded, act) {
  const li = document.createElement("li");
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = text;
  b.addEventListener("click", act);
  li.append(b);
  if (tag) {
    const span = document.createElement("span");
    span.className = "tag";
    span.textContent = tag;
    li.append(span);
  }
  if (recorded) li.classList.add("recorded");
  return li;
}

function showTrial(said) {
  const error = trial.error();
  const list = $("trial-legal");
  list.replaceChildren();
  for (const id of ["trial-random", "trial-out", "trial-undo"]) $(id).disabled = Boolean(error);
  if (error) {
    $("trial-result").textContent = "";
    $("trial-said").textContent = error;
    $("trial-legal-title").textContent = "";
    $("trial-human").textContent = "";
    $("trial-state").textContent = "";
    $("trial-replay").hidden = true;
    document.body.dataset.trial = "failed";
    return;
  }
  const v = JSON.parse(trial.view());
  const verdict = v.verdict;
  const tried = v.events - v.start;
  const scores = Object.entries(verdict.scores || {}).map(([p, s]) => `${p} ${JSON.stringify(s)}`).join(", ");
  const where = `${v.start} events as recorded, then ${tried} tried`;
  $("trial-result").textContent = verdict.verdict !== "legal"
    ? `${where}: ${verdict.verdict}`
    : v.finished
      ? `${where}: the game is over; winners: ${(verdict.winners || []).join(", ") || "none"}${scores ? `; scores: ${scores}` : ""}`
      : `${where}: the game goes on${scores ? `; scores so far: ${scores}` : ""}`;
  $("trial-said").textContent = said;
  v.legal.forEach((l, i) => {
    const tag = l.chance ? "chance: drawn at random" : l.recorded ? "as recorded" : "";
    list.append(listed(l.words, tag, l.recorded, () => showTrial(trial.take(i))));
  });
  // The recorded event, when it is not one listed: a chance move as drawn, or a move the rules
  // refuse (the one checking stopped at is shown, not offered).
  if (v.recorded && !v.legal.some((l) => l.recorded)) {
    if (v.recorded_playable) list.append(listed(v.recorded, "as recorded", true, () => showTrial(trial.take_recorded())));
    else {
      const li = document.createElement("li");
      li.className = "recorded refused";
      li.textContent = `${v.recorded}: as recorded, which the rules refuse`;
      list.append(li);
    }
  }
  $("trial-legal-title").textContent = v.legal.length
    ? `${v.finished ? "The game is over; still legal" : "Legal"} at event ${v.events} (${v.legal.length}); pick one:`
    : v.finished ? "The game is over: nothing more is legal." : "Nothing is legal here.";
  $("trial-random").disabled = v.legal.length === 0;
  $("trial-out").disabled = v.legal.length === 0;
  $("trial-undo").disabled = tried === 0;
  $("trial-human").textContent = v.human;
  $("trial-state").textContent = JSON.stringify(v.state, null, 1);
  const page = trial.page();
  $("trial-replay").hidden = !page;
  if (page) $("trial-replay").srcdoc = page;
  document.body.dataset.trial = `${v.events}${v.finished ? " finished" : ""}`;
}

// ---- the rules editor ----
let lintTimer = 0;
$("rules-text").addEventListener("input", () => {
  clearTimeout(lintTimer);
  lintTimer = setTimeout(lintNow, 120);
  gutter();
});
$("rules-text").addEventListener("scroll", () => { $("gutter").scrollTop = $("rules-text").scrollTop; });
$("edit-start").addEventListener("change", () => {
  const g = games.find((g) => g.name === $("edit-start").value);
  if (g) {
    $("rules-text").value = g.text;
    $("edit-name").value = `${g.name}.rules`;
    lintNow();
  }
});
$("edit-use").addEventListener("click", () => {
  $("rules-pick").value = EDITOR;
  useRules();
  showTab("check");
});

function gutter() {
  const lines = $("rules-text").value.split("\n").length;
  const marked = new Set(lastDiagnostics.filter((d) => d.file === $("edit-name").value).map((d) => d.line));
  const text = [];
  for (let i = 1; i <= lines; i++) text.push(marked.has(i) ? `●${i}` : String(i));
  $("gutter").textContent = text.join("\n");
}

let lastDiagnostics = [];
function lintNow() {
  const name = $("edit-name").value || "editor.rules";
  const began = performance.now();
  const found = JSON.parse(engine.lint(name, $("rules-text").value));
  const took = Math.round(performance.now() - began);
  // A file that compiles may still have warnings (a flow that can end without `finish`).
  lastDiagnostics = found.ok ? found.warnings : found.diagnostics;
  lastLint = found;
  $("lint-needs").textContent = found.needs || "";
  $("lint-needs").hidden = !found.needs;
  const list = $("lint");
  list.replaceChildren();
  for (const d of lastDiagnostics) {
    const li = document.createElement("li");
    const head = document.createElement("div");
    head.className = found.ok ? "where warning" : "where";
    head.textContent = `${d.file}:${d.line}:${d.column} ${d.code}: ${d.message}`;
    const pre = document.createElement("pre");
    pre.textContent = d.text;
    li.append(head, pre);
    li.addEventListener("click", () => goTo(d));
    list.append(li);
  }
  const count = (n, what) => `${n} ${what}${n === 1 ? "" : "s"}`;
  const warned = found.ok && lastDiagnostics.length > 0;
  $("lint-status").textContent = !found.ok
    ? `${name}: ${count(lastDiagnostics.length, "problem")}`
    : warned
      ? `${name}: compiles, with ${count(lastDiagnostics.length, "warning")} (${found.cards} cards)`
      : `${name}: ok (${found.cards} cards; checked in ${took} ms)`;
  $("lint-status").className = !found.ok ? "bad" : warned ? "warned" : "good";
  document.body.dataset.lint = !found.ok ? "errors" : warned ? "warnings" : "ok";
  gutter();
  if ($("rules-pick").value === EDITOR) useRules();
}

function goTo(d) {
  if (d.file !== $("edit-name").value) return;
  const area = $("rules-text");
  const lines = area.value.split("\n");
  let at = 0;
  for (let i = 0; i < d.line - 1 && i < lines.length; i++) at += lines[i].length + 1;
  area.focus();
  area.setSelectionRange(at + d.column - 1, at + d.column - 1);
}

// ---- random games ----
function playersFit() {
  const g = games.find((g) => g.name === $("play-rules").value);
  if (!g) return;
  const input = $("play-players");
  input.min = g.players[0];
  input.max = g.players[1];
  const n = Number(input.value);
  if (n < g.players[0] || n > g.players[1]) input.value = g.players[0];
}
$("play-rules").addEventListener("change", playersFit);

$("play-go").addEventListener("click", () => {
  const pick = $("play-rules").value;
  const name = pick === EDITOR ? ($("edit-name").value || "editor.rules") : pick;
  const text = pick === EDITOR ? $("rules-text").value : "";
  const players = Number($("play-players").value);
  const gamesAsked = Number($("play-games").value);
  const seed = Number($("play-seed").value);
  say(`playing ${gamesAsked} games of ${name}…`);
  // Let the page show that it is busy before the engine takes the thread.
  setTimeout(() => {
    const result = JSON.parse(engine.play_stats(name, text, players, BigInt(seed), gamesAsked));
    const run = document.createElement("article");
    run.className = "run";
    const h = document.createElement("h3");
    h.textContent = `${name}, ${players} players, ${gamesAsked} games from seed ${seed}`;
    const pre = document.createElement("pre");
    pre.textContent = result.error || result.human;
    if (result.error) pre.className = "bad";
    run.append(h, pre);
    $("play-runs").prepend(run);
    say(result.error ? "the games could not be played" : `played ${gamesAsked} games of ${name}`);
  }, 10);
});

start().catch((e) => {
  say(`the engine could not be loaded: ${e}`);
  document.body.dataset.ready = "failed";
});
