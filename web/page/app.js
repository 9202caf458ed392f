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
  $("rules-status").textContent = problem ? "these rules do not compile: see Edit rules" : "";
  $("rules-status").className = problem ? "bad" : "";
  recheck();
}
$("rules-pick").addEventListener("change", useRules);

$("rules-file").addEventListener("change", async (e) => {
  const file = e.target.files[0];
  if (!file) return;
  await openRulesFile(file);
  $("rules-pick").value = EDITOR;
  useRules();
  e.target.value = "";
});
$("edit-file").addEventListener("change", async (e) => {
  const file = e.target.files[0];
  if (file) await openRulesFile(file);
  e.target.value = "";
});
async function openRulesFile(file) {
  $("rules-text").value = await file.text();
  $("edit-name").value = file.name;
  lintNow();
}

// ---- transcripts in ----
function kindOf(name) {
  const lower = name.toLowerCase();
  if (lower.endsWith(".jsonl") || lower.endsWith(".ndjson")) return "jsonl";
  return "file";   // YAML, JSON, and records (.pbn, .lin): the engine tells them by the name
}

async function addFiles(fileList) {
  for (const file of fileList) {
    const bytes = new Uint8Array(await file.arrayBuffer());
    addOne(file.name, bytes);
  }
  showVerdicts();
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
  addFiles(e.dataTransfer.files);
});
$("files").addEventListener("change", (e) => { addFiles(e.target.files); e.target.value = ""; });

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
  $("clear").hidden = total === 0;
  $("summary").textContent = total === 0 ? "" : `${total} checked: ${counts.legal} legal, ${counts.illegal} illegal, ${counts.malformed} malformed`;
  if (total === 0) $("detail").hidden = true;
  const rows = loaded.flatMap((e) => e.rows);
  if (rows.length && (!selected || !rows.includes(selected))) select(rows[rows.length - 1], body.lastElementChild);
  else if (selected) select(selected, body.children[rows.indexOf(selected)]);
}

function select(r, tr) {
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
  lastDiagnostics = found.ok ? [] : found.diagnostics;
  const list = $("lint");
  list.replaceChildren();
  for (const d of lastDiagnostics) {
    const li = document.createElement("li");
    const head = document.createElement("div");
    head.className = "where";
    head.textContent = `${d.file}:${d.line}:${d.column} ${d.code}: ${d.message}`;
    const pre = document.createElement("pre");
    pre.textContent = d.text;
    li.append(head, pre);
    li.addEventListener("click", () => goTo(d));
    list.append(li);
  }
  $("lint-status").textContent = found.ok
    ? `${name}: ok (${found.cards} cards; checked in ${took} ms)`
    : `${name}: ${lastDiagnostics.length} problem${lastDiagnostics.length === 1 ? "" : "s"}`;
  $("lint-status").className = found.ok ? "good" : "bad";
  document.body.dataset.lint = found.ok ? "ok" : "errors";
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
