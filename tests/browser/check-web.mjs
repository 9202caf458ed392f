// Drives shinpan's page (web/, built by web/build.sh) in Debian's chromium: opens it from disk,
// checks transcripts as a judge would (verdict, then the replay), a malformed one, a pasted one,
// a record file; edits a rules file into an error and out of it; plays random games; checks
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
