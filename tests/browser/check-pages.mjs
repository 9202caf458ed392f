// Opens each judge's page in Debian's chromium (playwright-core, no downloaded browser), steps
// through it as a judge would, checks what it shows, and saves screenshots beside the page.
// Usage: node check-pages.mjs PAGE.html ...  Each page has PAGE.json beside it with what it must
// show: `event` and `rule` (the first violation, or null), `players` (rows of the player table),
// `headings` (each step's heading, the whole event in transcript words), `result` (`finished`,
// `scores`, `winners`, `notes`, `stopped`: the event checking stopped at and how many follow, or
// null) and, for a malformed transcript, `unreadable` (the event that could not be read and why).
// Exits 1 with the reasons on failure.
import { chromium } from "playwright-core";
import { readFileSync } from "node:fs";

const executablePath = process.env.CHROMIUM || "/usr/bin/chromium";
const browser = await chromium.launch({ executablePath, args: ["--no-sandbox"] });
const failures = [];
const expect = (ok, what) => { if (!ok) failures.push(what); };
const WIDTHS = [360, 800, 1280];

for (const path of process.argv.slice(2)) {
  const want = JSON.parse(readFileSync(path.replace(/\.html$/, ".json"), "utf8"));
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const errors = [];
  page.on("pageerror", e => errors.push(String(e)));
  // No network: any request but the page itself fails the test.
  await page.route("**", route => route.request().url().startsWith("file:") ? route.continue() : (errors.push(route.request().url()), route.abort()));
  const at = () => page.evaluate(() => document.body.dataset.event);
  const heading = () => page.locator("#heading").innerText();
  const first = want.headings.length ? want.headings[0].event : null;

  // From the first event, the arrow key steps through every event: each heading is the whole
  // event in transcript words.
  await page.goto("file://" + path + (first === null ? "" : `#event=${first}`));
  const steps = await page.locator("#timeline li").count();
  expect(steps === want.headings.length + (want.unreadable ? 1 : 0), `${path}: ${steps} steps, not ${want.headings.length}`);
  for (let i = 0; i < want.headings.length; i++) {
    const h = want.headings[i];
    const shown = await heading();
    expect(shown.startsWith(h.heading), `${path}: step ${i} is headed «${shown}», not «${h.heading}»`);
    const item = await page.locator("#timeline li").nth(i).innerText();
    expect(item.includes(h.words), `${path}: timeline item ${i} is «${item}», not «${h.words}»`);
    await page.keyboard.press("ArrowRight");
  }
  if (want.unreadable) {
    expect(await at() === String(want.unreadable.event), `${path}: the last step is event ${await at()}, not the unreadable ${want.unreadable.event}`);
    const box = page.locator("#unreadable");
    expect(await box.isVisible(), `${path}: the event that could not be read is not marked`);
    const text = await box.innerText();
    expect(text.includes("could not be read") && text.includes(want.unreadable.message), `${path}: the unreadable event does not say why: ${text}`);
  }

  // Home and End go to the first and the last event.
  await page.keyboard.press("Home");
  expect(await at() === String(first), `${path}: Home went to event ${await at()}, not ${first}`);
  await page.keyboard.press("End");
  const last = await page.evaluate(() => document.querySelector("#timeline li:last-child").title);
  expect(last.startsWith(`event ${await at()},`), `${path}: End went to event ${await at()}; the last is ${last}`);

  // The result: verdict, scores, winners, notes and where checking stopped.
  const result = await page.locator("#result").innerText();
  expect(result.includes(`result: ${want.verdict}`), `${path}: the result does not say ${want.verdict}: ${result}`);
  for (const [player, score] of Object.entries(want.result.scores || {})) {
    const row = await page.locator(`#scores td[data-player="${player}"]`).innerText();
    expect(row === String(score), `${path}: ${player}'s score is shown as ${row}, not ${score}`);
  }
  if (want.result.finished) {
    expect(result.includes(`winners: ${want.result.winners.length ? want.result.winners.join(", ") : "none"}`), `${path}: no winners: ${result}`);
  }
  for (const note of want.result.notes) expect(result.includes(note), `${path}: the note «${note}» is not shown`);
  if (want.result.stopped) {
    const follow = want.result.stopped.follow;
    const words = follow === 0 ? "no more events follow" : follow === 1 ? "1 more event follows" : `${follow} more events follow`;
    expect(result.includes(`checking stopped at event ${want.result.stopped.event}`) && result.includes(words), `${path}: the result does not say where checking stopped: ${result}`);
    await page.goto("file://" + path + `#event=${want.result.stopped.event}`);
    const box = await page.locator("#violation").innerText();
    expect(box.includes(`checking stopped here; ${words}`), `${path}: the stopping event does not say what follows: ${box}`);
  }

  if (want.event !== null) {
    // Opened plainly, the page starts at the violation, with its rule, the rules file's
    // statement, the section it cites and the legal alternatives.
    await page.goto("file://" + path);
    expect(await at() === String(want.event), `${path}: opens at event ${await at()}, not ${want.event}`);
    const box = page.locator("#violation");
    expect(await box.isVisible(), `${path}: no violation shown`);
    const text = await box.innerText();
    expect(text.includes(`rule ${want.rule} broken`), `${path}: the violation does not name ${want.rule}: ${text}`);
    expect(/stated at .*\.rules:\d+/.test(text), `${path}: no rules file line: ${text}`);
    expect(text.includes("legal here instead:") || text.includes("nothing was legal here"), `${path}: no legal alternatives`);
    if (want.section) expect(text.includes(want.section), `${path}: the section «${want.section}» is not named: ${text}`);
    expect(await page.locator("#timeline li.selected.broken").count() === 1, `${path}: the broken event is not selected in the timeline`);
    const rows = await page.locator("#players [data-player]").count();
    expect(rows === want.players, `${path}: ${rows} player rows, not ${want.players}`);
    expect(await page.locator(".chip").count() > 0, `${path}: no card drawn as a chip`);
    // Arrow keys and the slider step through the events.
    await page.keyboard.press("ArrowLeft");
    expect(await at() !== String(want.event), `${path}: ArrowLeft stayed at event ${want.event}`);
    await page.keyboard.press("ArrowRight");
    expect(await at() === String(want.event), `${path}: ArrowRight did not come back to event ${want.event}`);
    await page.locator("#slider").fill("0");
    const firstItem = await page.evaluate(() => document.querySelector("#timeline li").title);
    expect(firstItem.startsWith(`event ${await at()},`), `${path}: the slider at 0 shows event ${await at()}, the timeline starts with ${firstItem}`);
    await page.goto("file://" + path);
  }

  // At every width, no chip breaks over two lines and nothing runs off the page's right edge.
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 800 });
    const broken = await page.evaluate(() => [...document.querySelectorAll(".chip")]
      .filter(c => c.getClientRects().length !== 1 || c.getBoundingClientRect().height > 1.8 * parseFloat(getComputedStyle(c).lineHeight === "normal" ? getComputedStyle(c).fontSize : getComputedStyle(c).lineHeight))
      .map(c => c.textContent));
    expect(broken.length === 0, `${path}: at ${width} px these chips break: ${broken.slice(0, 5).join(", ")}`);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow <= 0, `${path}: at ${width} px the page is ${overflow} px wider than the window`);
    const outside = await page.evaluate(() => [...document.querySelectorAll(".chip")]
      .filter(c => { const r = c.getBoundingClientRect(); const m = document.querySelector("main").getBoundingClientRect(); return r.right > m.right + 1 && r.width < m.width; })
      .map(c => c.textContent));
    expect(outside.length === 0, `${path}: at ${width} px these chips run past the page's edge: ${outside.slice(0, 5).join(", ")}`);
    await page.screenshot({ path: path.replace(/\.html$/, `-${width}.png`), fullPage: width === 360 });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: path.replace(/\.html$/, ".png") });
  expect(errors.length === 0, `${path}: ${errors.join("; ")}`);
  await page.close();
}
await browser.close();
if (failures.length) {
  console.error(failures.join("\n"));
  process.exit(1);
}
console.log(`${process.argv.length - 2} pages checked`);
