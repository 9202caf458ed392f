// Opens a judge's page whose every field holds hostile text (HOSTILE: `<!--<script>`,
// `</script>`, `&`, U+2028...) in Debian's chromium and checks that the page still works: the
// verdict is shown, the hostile text appears as text where it belongs, and no element or script
// was made of it. Saves a screenshot beside the page. Usage: HOSTILE=... node check-hostile.mjs PAGE.html
import { chromium } from "playwright-core";

const executablePath = process.env.CHROMIUM || "/usr/bin/chromium";
const hostile = process.env.HOSTILE;
const browser = await chromium.launch({ executablePath, args: ["--no-sandbox"] });
const failures = [];
const expect = (ok, what) => { if (!ok) failures.push(what); };

for (const path of process.argv.slice(2)) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  const errors = [];
  page.on("pageerror", e => errors.push(String(e)));
  page.on("dialog", d => { errors.push(`a dialog opened: ${d.message()}`); d.dismiss(); });
  await page.route("**", route => route.request().url().startsWith("file:") ? route.continue() : (errors.push(route.request().url()), route.abort()));
  await page.goto("file://" + path);
  // The page's script ran: the verdict, the title and the timeline are filled in.
  const verdict = await page.locator("#verdict").textContent();
  expect(verdict === "illegal", `${path}: the verdict shows ${JSON.stringify(verdict)}`);
  const title = await page.locator("#title").textContent();
  expect(title.includes("<!--<script>"), `${path}: the title is ${JSON.stringify(title)}`);
  expect(await page.locator("#timeline li").count() === 3, `${path}: the timeline has not 3 events`);
  // It opened at the violation, whose message holds the hostile text as text.
  const box = page.locator("#violation");
  expect(await box.isVisible(), `${path}: no violation shown`);
  const shown = await box.textContent();
  expect(shown.includes(hostile), `${path}: the violation does not show the hostile text: ${JSON.stringify(shown)}`);
  expect(shown.includes("rule boom broken"), `${path}: the violation does not name its rule`);
  // The hostile card is a chip, its code as text; the hostile player has a row.
  const chips = await page.locator(".chip").allTextContents();
  expect(chips.includes(hostile), `${path}: no chip shows the hostile card: ${JSON.stringify(chips)}`);
  const rows = await page.locator("#players [data-player]").count();
  expect(rows === 2, `${path}: ${rows} player rows, not 2`);
  // Nothing was made of the text: the page's two scripts and the tags it was written with.
  const scripts = await page.evaluate(() => document.querySelectorAll("script").length);
  expect(scripts === 2, `${path}: ${scripts} script elements`);
  const injected = await page.evaluate(() => document.querySelectorAll("main script, header script, ol script, body > script:not(#data) ~ script").length);
  expect(injected === 0, `${path}: ${injected} script elements inside the page's content`);
  await page.screenshot({ path: path.replace(/\.html$/, ".png") });
  // Stepping back still works.
  await page.keyboard.press("ArrowLeft");
  const at = await page.evaluate(() => document.body.dataset.event);
  expect(at === "1", `${path}: ArrowLeft went to event ${at}, not 1`);
  expect(errors.length === 0, `${path}: ${errors.join("; ")}`);
  await page.close();
}
await browser.close();
if (failures.length) {
  console.error(failures.join("\n"));
  process.exit(1);
}
console.log(`${process.argv.length - 2} hostile pages checked`);
