// Opens each judge's page in Debian's chromium (playwright-core, no downloaded browser), steps
// through it as a judge would, checks what it shows, and saves a screenshot beside the page.
// Usage: node check-pages.mjs PAGE.html:EVENT:RULE:PLAYERS ...  (EVENT the broken event, RULE
// its rule, PLAYERS how many rows the player table has). Exits 1 with the reasons on failure.
import { chromium } from "playwright-core";

const executablePath = process.env.CHROMIUM || "/usr/bin/chromium";
const browser = await chromium.launch({ executablePath, args: ["--no-sandbox"] });
const failures = [];
const expect = (ok, what) => { if (!ok) failures.push(what); };

for (const arg of process.argv.slice(2)) {
  const [path, event, rule, players] = arg.split(":");
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const errors = [];
  page.on("pageerror", e => errors.push(String(e)));
  // No network: any request but the page itself fails the test.
  await page.route("**", route => route.request().url().startsWith("file:") ? route.continue() : (errors.push(route.request().url()), route.abort()));
  const at = () => page.evaluate(() => document.body.dataset.event);
  // From the first event, the arrow key steps to the violation, as a judge would.
  await page.goto("file://" + path + "#event=0");
  expect(await at() === "0", `${path}: #event=0 opens at event ${await at()}`);
  const steps = await page.locator("#timeline li").count();
  for (let i = 0; i < steps && (await at()) !== event; i++) await page.keyboard.press("ArrowRight");
  expect(await at() === event, `${path}: stepping stopped at event ${await at()}, not ${event}`);
  // Opened plainly, the page starts at the violation.
  await page.goto("file://" + path);
  expect(await at() === event, `${path}: opens at event ${await at()}, not ${event}`);
  // The violation is highlighted with its rule, the rules file's line and the legal alternatives.
  const box = page.locator("#violation");
  expect(await box.isVisible(), `${path}: no violation shown`);
  const text = await box.innerText();
  expect(text.includes(`rule ${rule} broken`), `${path}: the violation does not name ${rule}: ${text}`);
  expect(/stated at .*\.rules:\d+/.test(text), `${path}: no rules file line: ${text}`);
  expect(text.includes("legal here instead:") || text.includes("nothing was legal here"), `${path}: no legal alternatives`);
  expect(await page.locator("#timeline li.selected.broken").count() === 1, `${path}: the broken event is not selected in the timeline`);
  const rows = await page.locator("#players tr[data-player]").count();
  expect(rows === Number(players), `${path}: ${rows} player rows, not ${players}`);
  expect(await page.locator(".chip").count() > 0, `${path}: no card drawn as a chip`);
  await page.screenshot({ path: path.replace(/\.html$/, ".png") });
  // Arrow keys and the slider step through the events.
  await page.keyboard.press("ArrowLeft");
  const previous = await at();
  expect(previous !== event, `${path}: ArrowLeft stayed at event ${event}`);
  expect(!(await box.isVisible()) || (await box.innerText()) !== text, `${path}: the earlier event still shows the violation`);
  await page.keyboard.press("ArrowRight");
  expect(await at() === event, `${path}: ArrowRight did not come back to event ${event}`);
  await page.locator("#slider").fill("0");
  const first = await page.evaluate(() => document.querySelector("#timeline li").title);
  expect(first.startsWith(`event ${await at()},`), `${path}: the slider at 0 shows event ${await at()}, the timeline starts with ${first}`);
  expect(errors.length === 0, `${path}: ${errors.join("; ")}`);
  await page.close();
}
await browser.close();
if (failures.length) {
  console.error(failures.join("\n"));
  process.exit(1);
}
console.log(`${process.argv.length - 2} pages checked`);
