// Real-browser test of the dashboard: headless Debian chromium driven by
// playwright-core against the real sudokud binary (started here on a free port).
//
//   node test/browser.mjs [--binary PATH] [--screenshots DIR]
//
// Solves a puzzle on the page, checks the grid shown against `sudokud solve` (an
// independent path through the engine, no server) and against Sudoku's rules, checks
// the page's counters against the server's `finished` statistics, submits a bad
// puzzle and checks the error text, and saves screenshots.

import { spawn, execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { createInterface } from "node:readline";
import { resolve } from "node:path";
import { test } from "node:test";
import assert from "node:assert/strict";
import { chromium } from "playwright-core";

function option(name, fallback) {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : fallback;
}

const binary = resolve(option("--binary", "../target/debug/sudokud"));
const screenshots = resolve(option("--screenshots", "../target/ci"));
const browserPath = process.env.CHROMIUM ?? "/usr/bin/chromium";
mkdirSync(screenshots, { recursive: true });

/** Starts the server (on port 0 unless told) and resolves with its address, from its log. */
function startServer(listen = "127.0.0.1:0", env = {}) {
  const child = spawn(binary, ["--listen", listen], {
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...process.env, ...env },
  });
  return new Promise((done, fail) => {
    const lines = createInterface({ input: child.stderr });
    lines.on("line", (line) => {
      const found = line.match(/serving gRPC address=(\S+)/);
      if (found) done({ child, address: found[1] });
    });
    child.on("exit", (code) => fail(new Error(`sudokud exited early with ${code}`)));
  });
}

/** True when `grid` (81 digits) obeys Sudoku's rules and keeps the givens. */
function isSolution(puzzle, grid) {
  if (!/^[1-9]{81}$/.test(grid)) return false;
  for (let i = 0; i < 81; i++) if (puzzle[i] !== "." && puzzle[i] !== grid[i]) return false;
  const units = [];
  for (let k = 0; k < 9; k++) {
    const row = [], col = [], box = [];
    for (let j = 0; j < 9; j++) {
      row.push(k * 9 + j);
      col.push(j * 9 + k);
      box.push((Math.floor(k / 3) * 3 + Math.floor(j / 3)) * 9 + (k % 3) * 3 + (j % 3));
    }
    units.push(row, col, box);
  }
  return units.every((unit) => new Set(unit.map((i) => grid[i])).size === 9);
}

const server = await startServer();
const browser = await chromium.launch({
  executablePath: browserPath,
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
});
const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
const pageErrors = [];
page.on("pageerror", (error) => pageErrors.push(String(error)));

test.after(async () => {
  await browser.close();
  server.child.kill("SIGTERM");
});

test("a visit loads without a failed request or a console error (favicon included)", async () => {
  const failures = [];
  const onResponse = (response) => {
    if (response.status() >= 400) failures.push(`${response.status()} ${response.url()}`);
  };
  const onConsole = (message) => {
    if (message.type() === "error") failures.push(`console: ${message.text()}`);
  };
  page.on("response", onResponse);
  page.on("console", onConsole);
  await page.goto(`http://${server.address}/`, { waitUntil: "networkidle" });
  page.off("response", onResponse);
  page.off("console", onConsole);
  assert.deepEqual(failures, []);
  // A path that is no call and no file is a plain 404 (it was a 400 from the
  // gRPC-Web layer); the page declares its icon, so browsers do not ask for one.
  const icon = await page.evaluate(async () => (await fetch("/favicon.ico")).status);
  assert.equal(icon, 404);
  assert.deepEqual(pageErrors, []);
});

test("the dashboard solves a hard puzzle and shows the server's statistics", async () => {
  await page.goto(`http://${server.address}/`);
  await page.selectOption("#sample", { label: "Easter Monster" });
  const puzzle = (await page.inputValue("#puzzle")).trim();
  await page.selectOption("#algorithm", { label: "propagation (singles + fewest candidates)" });
  await page.selectOption("#pace", "0");
  await page.click("#start");
  const panel = page.locator('[data-panel="a"]');
  await panel.locator('[data-field="server"][data-placements]').waitFor({ timeout: 60_000 });
  assert.equal(await panel.getAttribute("data-state"), "solved");

  const shown = await panel.locator(".cell").allTextContents();
  const grid = shown.join("");
  const expected = execFileSync(binary, ["solve", "--threads", "1"], { input: `${puzzle}\n` })
    .toString()
    .trim();
  assert.ok(isSolution(puzzle, grid), `not a solution: ${grid}`);
  assert.equal(grid, expected);

  const reported = panel.locator('[data-field="server"]');
  for (const name of ["placements", "backtracks", "guesses"]) {
    const counted = await panel.locator(`[data-field="${name}"]`).textContent();
    assert.equal(counted, await reported.getAttribute(`data-${name}`), name);
  }
  assert.ok(Number(await reported.getAttribute("data-guesses")) > 0, "a hard puzzle needs guesses");
  assert.equal(await panel.locator(".status").textContent(), "solved");
  await page.screenshot({ path: `${screenshots}/dashboard-solved.png`, fullPage: true });
});

test("a race runs two algorithms side by side", async () => {
  await page.goto(`http://${server.address}/`);
  await page.selectOption("#sample", { label: "Project Euler 96 #1 (easy)" });
  await page.check("#race");
  await page.selectOption("#algorithm", { label: "bitboard (fastest)" });
  await page.selectOption("#algorithm-b", { label: "plain backtracking" });
  await page.selectOption("#pace", "0");
  await page.click("#start");
  for (const name of ["a", "b"]) {
    const panel = page.locator(`[data-panel="${name}"]`);
    await panel.locator('[data-field="server"][data-placements]').waitFor({ timeout: 60_000 });
    assert.equal(await panel.getAttribute("data-state"), "solved", name);
  }
  const a = (await page.locator('[data-panel="a"] .cell').allTextContents()).join("");
  const b = (await page.locator('[data-panel="b"] .cell').allTextContents()).join("");
  assert.equal(a, b);
  await page.screenshot({ path: `${screenshots}/dashboard-race.png`, fullPage: true });
});

test("a bad puzzle shows the server's error next to the input", async () => {
  await page.goto(`http://${server.address}/`);
  // Two 5s in the first row: well-formed, so only the server can tell.
  const bad = `55${".".repeat(79)}`;
  await page.fill("#puzzle", bad);
  await page.click("#start");
  const error = page.locator("#input-error");
  await page.waitForFunction(() => document.querySelector("#input-error")?.textContent !== "");
  const text = await error.textContent();
  assert.match(text, /invalid puzzle/);
  assert.match(text, /r1c1 and r1c2 both hold 5/);
  await page.screenshot({ path: `${screenshots}/dashboard-error.png`, fullPage: true });
  assert.deepEqual(pageErrors, []);
});

test("a step limit ends the run with a clear message", async () => {
  await page.goto(`http://${server.address}/`);
  await page.selectOption("#sample", { label: "Norvig's slowest (top95)" });
  await page.selectOption("#algorithm", { label: "plain backtracking" });
  await page.selectOption("#pace", "0");
  await page.fill("#max-steps", "500");
  await page.click("#start");
  const panel = page.locator('[data-panel="a"]');
  await page.waitForFunction(() => document.querySelector('[data-panel="a"]')?.dataset.state === "error");
  assert.equal(await panel.locator('[data-field="placements"]').textContent().then(Number) +
    await panel.locator('[data-field="backtracks"]').textContent().then(Number), 500);
  assert.match(await page.locator("#input-error").textContent(), /limit reached: step limit/);
  assert.deepEqual(pageErrors, []);
});

test("an unthrottled run keeps the page drawing, and Stop ends it", async () => {
  await page.goto(`http://${server.address}/`);
  await page.selectOption("#sample", { label: "Anti-backtracking (17 givens)" });
  await page.selectOption("#algorithm", { label: "plain backtracking" });
  await page.selectOption("#pace", "0");
  await page.click("#start");
  const panel = page.locator('[data-panel="a"]');
  // The counters are drawn only in animation frames: seeing them pass 100,000 and
  // then move again proves the page keeps drawing while the steps pour in.
  const placements = '[data-panel="a"] [data-field="placements"]';
  const shown = () => page.locator(placements).textContent().then(Number);
  await page.waitForFunction(
    (selector) => Number(document.querySelector(selector)?.textContent) > 100000,
    placements,
    { timeout: 60_000 },
  );
  const before = await shown();
  await page.waitForFunction(
    ([selector, seen]) => Number(document.querySelector(selector)?.textContent) > seen,
    [placements, before],
    { timeout: 60_000 },
  );
  assert.equal(await panel.getAttribute("data-state"), "running");
  await page.screenshot({ path: `${screenshots}/dashboard-running.png`, fullPage: true });
  await page.click("#stop");
  await page.waitForFunction(() => document.querySelector('[data-panel="a"]')?.dataset.state === "stopped");
  assert.equal(await panel.locator(".status").textContent(), "stopped");
  assert.equal(await page.locator("#input-error").textContent(), "");
});

test("explain mode walks through a logical solve, and Generate fills in a new puzzle", async () => {
  await page.goto(`http://${server.address}/`);
  await page.selectOption("#level", "medium");
  await page.selectOption("#symmetry", "1");
  await page.click("#generate");
  await page.waitForFunction(() => /rating/.test(document.querySelector("#generated")?.textContent ?? ""));
  const puzzle = (await page.inputValue("#puzzle")).trim();
  assert.match(puzzle, /^[1-9.]{81}$/);
  for (let i = 0; i < 81; i++) {
    assert.equal(puzzle[i] === ".", puzzle[80 - i] === ".", `not symmetric at ${i}`);
  }
  assert.match(await page.locator("#generated").textContent(), /\(medium\)/);
  await page.click("#explain");
  const panel = page.locator('[data-panel="explain"]');
  await page.waitForFunction(() => document.querySelector('[data-panel="explain"]')?.dataset.state === "explained");
  const rating = Number(await panel.getAttribute("data-rating"));
  assert.ok(rating >= 1.3 && rating <= 1.6, `a medium puzzle rated ${rating}`);
  const steps = await panel.locator(".steps li").count();
  assert.ok(steps > 0);
  // Step through: each Next places or strikes out what the step says.
  await panel.locator('[data-nav="next"]').click();
  assert.equal(await panel.locator('[data-field="position"]').textContent(), `step 1 of ${steps}`);
  await panel.locator(".steps li").last().click();
  await panel.locator('[data-nav="next"]').click();
  const solved = (await panel.locator(".cell").allTextContents()).join("");
  const expected = execFileSync(binary, ["solve", "--threads", "1"], { input: `${puzzle}\n` }).toString().trim();
  assert.equal(solved, expected);
  await panel.locator('[data-nav="previous"]').click();
  assert.ok((await panel.locator(".marks .place, .marks .struck").count()) > 0, "the step is highlighted");
  await page.screenshot({ path: `${screenshots}/dashboard-explain.png`, fullPage: true });
  assert.deepEqual(pageErrors, []);
});

test("a stream cut by a server restart resumes where it was, without starting over", async () => {
  // A server of its own, which stops its streams at once on SIGTERM.
  const quick = { SUDOKUD_SHUTDOWN_GRACE: "0" };
  let restarted = await startServer("127.0.0.1:0", quick);
  const address = restarted.address;
  try {
    await page.goto(`http://${address}/`);
    await page.selectOption("#sample", { label: "Project Euler 96 #1 (easy)" });
    await page.selectOption("#algorithm", { label: "plain backtracking" });
    await page.selectOption("#pace", "200");
    await page.click("#start");
    const panel = page.locator('[data-panel="a"]');
    const placements = '[data-panel="a"] [data-field="placements"]';
    await page.waitForFunction(
      (selector) => Number(document.querySelector(selector)?.textContent) > 20,
      placements,
      { timeout: 60_000 },
    );
    const exited = new Promise((done) => restarted.child.once("exit", done));
    restarted.child.kill("SIGTERM");
    await exited;
    const before = Number(await page.locator(placements).textContent());
    restarted = await startServer(address, quick);
    await page.waitForFunction(
      () => ["solved", "error"].includes(document.querySelector('[data-panel="a"]')?.dataset.state),
      null,
      { timeout: 60_000 },
    );
    assert.equal(await panel.getAttribute("data-state"), "solved", await panel.locator(".status").textContent());
    // The replay check in the page passed (no "differ" error), the stream was
    // resumed rather than started over, and the page's counters are the server's.
    assert.equal(await panel.locator(".status").textContent(), "solved");
    assert.ok(Number(await panel.getAttribute("data-resumes")) >= 1);
    const server = panel.locator('[data-field="server"]');
    assert.equal(await panel.locator('[data-field="placements"]').textContent(), await server.getAttribute("data-placements"));
    assert.equal(await panel.locator('[data-field="backtracks"]').textContent(), await server.getAttribute("data-backtracks"));
    assert.ok(before > 20 && before < Number(await server.getAttribute("data-placements")));
    const grid = await panel.locator(".cell").allTextContents();
    const puzzle = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"
      .replace(/0/g, ".");
    assert.ok(isSolution(puzzle, grid.join("")), grid.join(""));
    assert.deepEqual(pageErrors, []);
  } finally {
    restarted.child.kill("SIGTERM");
  }
});
