// Drives shinpan's page (web/, built by web/build.sh) in Debian's chromium: opens it from disk,
// checks transcripts as a judge would (verdict, then the replay), a malformed one, a pasted one,
// a record file; tries another move at a point of a replay and plays on to the end; opens a
// rules file with the rules it extends and its card pool (and without them: the message);
// edits a rules file into an error and out of it; plays random games; checks
// every fixture through the page's engine and compares each verdict, byte for byte, with the
// command line's; times loading and checking. Any request that is not for a file of the page
// fails the test. Screenshots go to OUT/.
// Usage: node check-web.mjs SITE_DIR PLAN.json OUT_DIR  (PLAN: written by crates/cli/tests/web.rs)
// Prints one line of figures as JSON on success; exits 1 with the reasons on failure.
import { chromium } from "playwright-core";
import { readFileSync } from "node:fs";

const [site, planPath, out] = process.argv.slice(2);
const plan = JSON.parse(readFileSync(planPath, "utf8"));
const executablePath = process.env.CHROMIUM || "/usr/bin/chromium";
const browser = await chromium.launch({ executablePath, args: ["--no-sandbox"] });
const failures = [];
const expect = (ok, what) => { if (!ok) failures.push(what); };
const figures = {};

const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
const requests = [];
context.on("request", (r) => requests.push(r.url()));
// A request for anything but the page's own files is refused (and fails the test below).
await context.route("**", (route) => {
  const url = route.request().url();
  return url.startsWith("file:") || url.startsWith("data:") || url.startsWith("blob:") ? route.continue() : route.abort();
});
const page = await context.newPage();
const errors = [];
page.on("pageerror", (e) => errors.push(String(e)));
page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });

// Loading: the engine and every built-in game, ready within 2 s of the navigation.
const url = "file://" + site + "/index.html";
// By the page's clock, from the start of the navigation: the script read, the module decoded
// and compiled, every built-in game compiled, the editor's rules linted. The best of three
// loads (a timing on a shared machine wanders).
for (let i = 0; i < 3; i++) {
  await page.goto(url);
  await page.waitForSelector("body[data-ready=true]", { timeout: 20000 });
  const marks = JSON.parse(await page.evaluate(() => document.body.dataset.marks));
  if (!figures.load_marks || marks.ready < figures.load_ms) [figures.load_ms, figures.load_marks] = [marks.ready, marks];
}
expect(figures.load_ms < 2000, `the page took ${figures.load_ms} ms to be ready: ${JSON.stringify(figures.load_marks)}`);
const gamesListed = await page.locator("#rules-pick option").count();
expect(gamesListed === plan.builtin_games + 2, `${gamesListed} rules to pick, not ${plan.builtin_games + 2}`);
expect((await page.locator("#privacy").innerText()).includes("no file you open"), "the page does not say that files stay");

// Opens files and waits until the table has their rows (files are read asynchronously).
const rowCount = () => page.locator("#verdicts tbody tr").count();
async function open(paths) {
  const before = await rowCount();
  await page.locator("#files").setInputFiles(paths);
  await page.waitForFunction((n) => document.querySelectorAll("#verdicts tbody tr").length > n, before);
}

// A judge opens an illegal transcript: its verdict, the rule, then the replay at the violation.
await open(plan.illegal.path);
const row = page.locator("#verdicts tbody tr").last();
expect((await row.getAttribute("data-verdict")) === "illegal", `${plan.illegal.path}: not illegal in the table`);
expect((await row.innerText()).includes(plan.illegal.rule), `${plan.illegal.path}: the table does not name ${plan.illegal.rule}`);
expect((await page.locator("#human").innerText()).includes(plan.illegal.rule), "the human verdict does not name the rule");
const replay = page.frameLocator("#replay");
await replay.locator("#violation").waitFor({ timeout: 10000 });
const violation = await replay.locator("#violation").innerText();
expect(violation.includes(`rule ${plan.illegal.rule} broken`), `the replay does not show the violation: ${violation}`);
await page.locator("#replay").scrollIntoViewIfNeeded();
await page.screenshot({ path: `${out}/check.png`, fullPage: true });

// Another move at a point of the replay: the live referee (Game) replayed to the event shown,
// its legal moves listed, one taken, then played on at random to the end; then back.
const tryOpen = page.locator("#try-open");
await page.waitForFunction((n) => document.getElementById("try-open").textContent.endsWith(`event ${n}`), plan.trial.event);
await tryOpen.click();
await page.locator("#trial").waitFor();
expect(await page.locator("#replay").isHidden(), "the recorded replay is still shown while trying a move");
const legalHere = await page.locator("#trial-legal li").allInnerTexts();
expect(legalHere.some((l) => l.includes(plan.trial.legal)), `the legal moves at event ${plan.trial.event} are not listed: ${legalHere.join(" | ")}`);
expect(legalHere.some((l) => l.includes("as recorded")), `the recorded (illegal) move is not offered: ${legalHere.join(" | ")}`);
await page.locator("#trial-legal li button", { hasText: plan.trial.legal }).first().click();
await page.waitForFunction((n) => document.body.dataset.trial === String(n), plan.trial.event + 1);
expect((await page.locator("#trial-result").innerText()).includes("then 1 tried: the game goes on"), "the move taken is not counted");
// One random move and its undo, then the rest at random.
await page.locator("#trial-random").click();
await page.waitForFunction((n) => document.body.dataset.trial === String(n), plan.trial.event + 2);
await page.locator("#trial-undo").click();
await page.waitForFunction((n) => document.body.dataset.trial === String(n), plan.trial.event + 1);
await page.locator("#trial-out").click();
await page.waitForFunction(() => (document.body.dataset.trial || "").endsWith("finished"));
const tried = await page.locator("#trial-result").innerText();
expect(tried.includes("the game is over; winners:"), `no result after playing on: ${tried}`);
const triedReplay = page.frameLocator("#trial-replay");
const triedResult = await triedReplay.locator("#result").innerText();
expect(triedResult.includes("result: legal, the game finished"), `the replay of the game tried shows no result: ${triedResult}`);
expect((await page.locator("#trial-legal-title").innerText()).startsWith("The game is over"), "the list does not say the game is over");
await page.locator("#trial").scrollIntoViewIfNeeded();
await page.screenshot({ path: `${out}/trial.png`, fullPage: true });
await page.setViewportSize({ width: 360, height: 800 });
// The replay of the game tried, in view, first: after a full-page capture at this width
// chromium leaves the sandboxed frame unpainted in later captures.
await triedReplay.locator("#result").waitFor();
await page.locator("#trial-replay").scrollIntoViewIfNeeded();
await page.waitForTimeout(300);
await page.screenshot({ path: `${out}/trial-360-replay.png` });
await page.screenshot({ path: `${out}/trial-360.png`, fullPage: true });
const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
expect(overflow <= 0, `the page runs ${overflow} px off the side at 360 px while trying a move`);
await page.setViewportSize({ width: 1280, height: 900 });
await page.locator("#trial-back").click();
expect((await page.locator("#trial").isHidden()) && (await page.locator("#replay").isVisible()), "back does not show the recorded game");
expect((await replay.locator("#violation").innerText()).includes(plan.trial.rule), "the recorded replay moved while trying");
// At the first event (a chance move: the deal): the chance move is marked, and the deal as recorded can be taken.
await page.locator("#replay").focus();
await replay.locator("body").press("Home");
await page.waitForFunction(() => document.getElementById("try-open").textContent.endsWith("event 0"));
await tryOpen.click();
const atStart = await page.locator("#trial-legal li").allInnerTexts();
expect(atStart.some((l) => l.includes("chance: drawn at random")), `the deal is not marked a chance move: ${atStart.join(" | ")}`);
await page.locator("#trial-legal li.recorded button").click();
await page.waitForFunction(() => document.body.dataset.trial === "1");
await page.locator("#trial-back").click();

// A malformed one, and a pasted one that does not parse: malformed, with the reason.
await open(plan.malformed);
expect((await page.locator("#verdicts tbody tr").last().getAttribute("data-verdict")) === "malformed", "a malformed file is not malformed");
await page.locator("#paste-box summary").click();
await page.locator("#paste").fill("rules: hangover\nplayers: [aki, ben\n");
await page.locator("#paste-check").click();
const pasted = page.locator("#verdicts tbody tr").last();
expect((await pasted.getAttribute("data-verdict")) === "malformed", "a broken pasted transcript is not malformed");
expect((await pasted.innerText()).includes("pasted-1.yaml"), "the pasted transcript is not named");
// Text from a log is data: a transcript whose names are markup shows them as text.
await page.locator("#paste").fill('rules: hangover\nplayers: ["<img src=x onerror=alert(1)>", ben, chie]\nevents: []\n');
await page.locator("#paste-check").click();
expect((await page.locator("#verdicts img").count()) === 0 && (await page.locator("#human img").count()) === 0, "a player's name became markup");
// A record file: a verdict a deal.
await open(plan.record);
const deals = await page.locator("#verdicts tbody tr").evaluateAll((rows, name) => rows.filter((r) => r.firstChild.textContent.startsWith(name + "#")).length, plan.record.split("/").pop());
expect(deals > 1, `the record ${plan.record} gave ${deals} deals`);
await page.screenshot({ path: `${out}/verdicts.png` });

// A rules file opened with the rules it extends and its card pool, from other opened files:
// first alone (the page names the file to open too), then the rest one by one, then a game.
const rf = plan.rules_files;
await page.locator('.tab[data-tab="check"]').click();
await page.locator("#clear").click();
await page.locator("#rules-file").setInputFiles([rf.child]);
await page.waitForFunction(() => document.body.dataset.lint === "errors");
const needsParent = await page.locator("#needs").innerText();
expect(needsParent.includes(`open ${rf.parent_name} too`), `no message to open the parent: ${needsParent}`);
await page.screenshot({ path: `${out}/rules-missing.png` });
await page.locator("#rules-file").setInputFiles([rf.parent]);
await page.waitForFunction((name) => document.getElementById("needs").textContent.includes(`open ${name} too`), rf.pool_name);
expect((await page.locator("#edit-name").inputValue()) === rf.child_name, "the parent opened alone took the child's place in the editor");
await page.locator("#rules-file").setInputFiles([rf.pool]);
// The rules compile without the pool (only checking a game needs it), so the lint may say "ok"
// already: wait for the opened file to be listed, which the page does once it has read it.
await page.waitForFunction((name) => document.getElementById("opened").textContent.includes(name), rf.pool_name);
expect((await page.evaluate(() => document.body.dataset.lint)) === "ok", "the rules with every file open do not compile");
expect(await page.locator("#needs").isHidden(), "the message stays once every file is open");
await open(rf.game);
const childRow = page.locator("#verdicts tbody tr").last();
const childVerdict = await page.evaluate(([name, text]) => judge.check(name, new TextEncoder().encode(text)), [rf.game_name, readFileSync(rf.game, "utf8")]);
expect(childVerdict === rf.expected, `the game under the opened rules differs from the command line's:\n${childVerdict}\n${rf.expected}`);
expect((await childRow.getAttribute("data-verdict")) === "legal", "the game under the opened rules is not legal");
// All three at once, with the game: the child is the rules, the pool is no transcript.
await page.locator("#clear").click();
await page.locator("#files").setInputFiles([rf.parent, rf.pool, rf.game, rf.child]);
await page.waitForFunction(() => document.querySelectorAll("#verdicts tbody tr").length === 1);
expect((await page.locator("#edit-name").inputValue()) === rf.child_name, "the rules file opened is not the one that extends the other");
expect((await page.locator("#verdicts tbody tr").first().getAttribute("data-verdict")) === "legal", "the game opened with its rules files is not legal");
expect((await page.locator("#opened").innerText()).includes(rf.pool_name), "the opened files are not listed");
await page.screenshot({ path: `${out}/rules-files.png` });
await page.setViewportSize({ width: 360, height: 800 });
await page.screenshot({ path: `${out}/rules-files-360.png`, fullPage: true });
await page.setViewportSize({ width: 1280, height: 900 });
await page.locator("#clear").click();
await page.locator("#rules-pick").selectOption("");
// A transcript's own pool file (its `variant` names it by path): found among the opened files by name.
const tp = plan.transcript_pool;
const pooled = await page.evaluate(([name, text, poolName, pool]) => {
  const judge = new wasm_bindgen.Judge();
  const before = judge.check(name, new TextEncoder().encode(text));
  wasm_bindgen.give_file(poolName, new TextEncoder().encode(pool));
  const after = judge.check(name, new TextEncoder().encode(text));
  wasm_bindgen.forget_files();
  return { before, after };
}, [tp.name, readFileSync(tp.path, "utf8"), tp.pool_name, readFileSync(tp.pool, "utf8")]);
expect(pooled.before.includes('"verdict":"malformed"') && pooled.before.includes("no file of that name was given"), `a transcript's pool not opened: ${pooled.before}`);
expect(pooled.after === tp.expected, `a transcript with its pool opened differs from the command line's:\n${pooled.after}\n${tp.expected}`);

// A designer edits a rules file into an error and out of it.
await page.locator('.tab[data-tab="edit"]').click();
await page.locator("#edit-start").selectOption(plan.edit.game);
await page.waitForFunction(() => document.body.dataset.lint === "ok");
const area = page.locator("#rules-text");
const good = await area.inputValue();
await area.fill(good.replace(plan.edit.find, plan.edit.replace));
await page.waitForFunction(() => document.body.dataset.lint === "errors");
const problems = await page.locator("#lint li").allInnerTexts();
expect(problems.some((p) => p.includes(plan.edit.code)), `the broken rules do not give ${plan.edit.code}: ${problems.join(" | ")}`);
await page.screenshot({ path: `${out}/edit-error.png` });
await area.fill(good);
await page.waitForFunction(() => document.body.dataset.lint === "ok");
expect((await page.locator("#lint li").count()) === 0, "the fixed rules still show problems");
// A flow that can end without `finish` compiles, with a warning.
await area.fill(good.replace(plan.edit.unfinish, ""));
await page.waitForFunction(() => document.body.dataset.lint === "warnings");
const warned = await page.locator("#lint li").allInnerTexts();
expect(warned.length === 1 && warned[0].includes("shinpan::spec::no-finish"), `no warning about the flow: ${warned.join(" | ")}`);
expect((await page.locator("#lint-status").innerText()).includes("compiles, with 1 warning"), "the status does not count the warning");
await page.screenshot({ path: `${out}/edit-warning.png` });
await area.fill(good);
await page.waitForFunction(() => document.body.dataset.lint === "ok");

// Random games with play --stats's figures.
await page.locator('.tab[data-tab="play"]').click();
await page.locator("#play-rules").selectOption(plan.edit.game);
await page.locator("#play-players").fill("4");
await page.locator("#play-games").fill("50");
await page.locator("#play-go").click();
await page.locator("#play-runs .run pre").first().waitFor();
const stats = await page.locator("#play-runs .run pre").first().innerText();
expect(stats.includes("50 games"), `no figures of 50 games: ${stats}`);
await page.screenshot({ path: `${out}/play.png` });

// The same engine: every fixture's verdicts, byte for byte as the command line writes them.
const compared = await page.evaluate((files) => {
  const judge = new wasm_bindgen.Judge();
  const differ = [];
  for (const f of files) {
    const raw = atob(f.bytes);
    const bytes = new Uint8Array(raw.length);
    for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
    const got = judge.check(f.name, bytes);
    if (got !== f.expected) differ.push({ name: f.name, got: got.slice(0, 400), expected: f.expected.slice(0, 400) });
  }
  return { count: files.length, differ };
}, plan.fixtures.map((f) => ({ name: f.name, bytes: readFileSync(f.path).toString("base64"), expected: f.expected })));
expect(compared.differ.length === 0, `${compared.differ.length} of ${compared.count} verdicts differ from the command line's: ${JSON.stringify(compared.differ.slice(0, 3))}`);
figures.fixtures_compared = compared.count;

// Speed: the games of plan.bench checked in the page, one after another, as check --jobs 1.
if (plan.bench) {
  const lines = readFileSync(plan.bench, "utf8").split("\n").filter((l) => l);
  figures.bench_games = lines.length;
  figures.bench_ms = await page.evaluate((lines) => {
    const judge = new wasm_bindgen.Judge();
    const encoder = new TextEncoder();
    const inputs = lines.map((l, i) => [`game-${i}.json`, encoder.encode(l)]);
    const began = performance.now();
    let legal = 0;
    for (const [name, bytes] of inputs) legal += judge.check(name, bytes).includes('"verdict":"legal"') ? 1 : 0;
    const took = performance.now() - began;
    return legal === inputs.length ? Math.round(took) : -1;
  }, lines);
  expect(figures.bench_ms >= 0, "not every game of the benchmark was legal in the page");
}

const foreign = requests.filter((u) => !u.startsWith("file:") && !u.startsWith("data:") && !u.startsWith("blob:"));
expect(foreign.length === 0, `requests left the page: ${foreign.join(", ")}`);
figures.requests = requests.length;
expect(errors.length === 0, `errors on the page: ${errors.join("; ")}`);
await browser.close();
if (failures.length) {
  console.error(failures.join("\n"));
  process.exit(1);
}
console.log(JSON.stringify(figures));
