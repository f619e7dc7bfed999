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
import { mkdirSync, readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { resolve } from "node:path";
import { test } from "node:test";
import assert from "node:assert/strict";
import { chromium } from "playwright-core";
import LZString from "lz-string";

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

/**
 * True when `grid` (N x N digits, 0 none) obeys the rules of a grid with boxes
 * of `rows` x `cols` and keeps the non-zero `givens`.
 */
function obeysRules(givens, grid, rows, cols) {
  const n = rows * cols;
  if (grid.length !== n * n || grid.some((d) => !(d >= 1 && d <= n))) return false;
  if (givens.some((d, i) => d !== 0 && d !== grid[i])) return false;
  const houses = [];
  for (let k = 0; k < n; k++) {
    const row = [], col = [], box = [];
    for (let j = 0; j < n; j++) {
      row.push(k * n + j);
      col.push(j * n + k);
      const top = Math.floor(k / rows) * rows, left = (k % rows) * cols;
      box.push((top + Math.floor(j / cols)) * n + left + (j % cols));
    }
    houses.push(row, col, box);
  }
  return houses.every((house) => new Set(house.map((i) => grid[i])).size === n);
}

/** A grid's symbols (1-9, A-Z; '' or '.' empty) as digits. */
const SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";
const digitsOf = (symbols) => symbols.map((c) => SYMBOLS.indexOf(c.toUpperCase()) + 1);

/** Picks the grid `label`, waits for the puzzle the page makes for it, and returns it. */
async function pickGrid(label) {
  await page.goto(`http://${server.address}/`);
  await page.selectOption("#size", { label });
  await page.waitForFunction(() => /clues/.test(document.querySelector("#generated")?.textContent ?? ""), null, {
    timeout: 60_000,
  });
  return (await page.inputValue("#puzzle")).trim();
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

/** Clicks Explain and waits (60 s at most) for the explanation to end well; the panel. */
async function explainNow() {
  await page.click("#explain");
  const panel = page.locator('[data-panel="explain"]');
  await page.waitForFunction(
    () => ["explained", "error"].includes(document.querySelector('[data-panel="explain"]')?.dataset.state),
    null,
    { timeout: 60_000 },
  );
  assert.equal(await panel.getAttribute("data-state"), "explained", await panel.locator(".status").textContent());
  return panel;
}

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

/** Pastes `link` as the puzzle, solves it unthrottled and returns the panel, solved. */
async function solveLink(link) {
  await page.goto(`http://${server.address}/`);
  await page.fill("#puzzle", link);
  await page.selectOption("#pace", "0");
  await page.click("#start");
  const panel = page.locator('[data-panel="a"]');
  await panel.locator('[data-field="server"][data-placements]').waitFor({ timeout: 60_000 });
  assert.equal(await panel.getAttribute("data-state"), "solved", await panel.locator(".status").textContent());
  return panel;
}

test("a pasted f-puzzles link is solved on the grid the server reads from it", async () => {
  // The X-sudoku link of the API page's call.
  const api = readFileSync(new URL("../../docs/api.md", import.meta.url), "utf8");
  const link = api.match(/"fpuzzles":"(https:[^"]+)"/)[1];
  const panel = await solveLink(link);
  const grid = (await panel.locator(".cell").allTextContents()).join("");
  const expected = execFileSync(binary, ["solve", "--fpuzzles", link]).toString().trim();
  assert.equal(grid, expected);
  assert.equal(await page.locator("#input-error").textContent(), "");
  assert.deepEqual(pageErrors, []);
});

/** The f-puzzles link of a line of benches/variants/data (9x9), written here as f-puzzles saves boards. */
function variantLink(set) {
  const text = readFileSync(new URL(`../../benches/variants/data/${set}.jsonl`, import.meta.url), "utf8");
  const line = JSON.parse(text.split("\n")[0]);
  const rules = line.rules;
  const rc = (cell) => `R${Math.floor(cell / 9) + 1}C${(cell % 9) + 1}`;
  const labels = rules.regions ? Array.from(rules.regions) : null;
  const grid = Array.from({ length: 9 }, (_, row) =>
    Array.from({ length: 9 }, (_, col) => {
      const i = row * 9 + col;
      const cell = line.puzzle[i] === "." ? {} : { value: Number(line.puzzle[i]), given: true };
      if (labels) cell.region = [...new Set(labels)].indexOf(labels[i]);
      return cell;
    }),
  );
  const board = { size: 9, grid };
  if (rules.cages) board.killercage = rules.cages.map((cage) => ({ cells: cage.cells.map(rc), value: String(cage.sum ?? "") }));
  if (rules.antiKnight) board.antiknight = true;
  const payload = LZString.compressToBase64(JSON.stringify(board));
  return { link: `https://www.f-puzzles.com/?load=${payload}`, line };
}

for (const set of ["killer", "jigsaw+antiknight"]) {
  test(`a pasted ${set} link is drawn with its rules and solved`, async () => {
    const { link, line } = variantLink(set);
    const panel = await solveLink(link);
    assert.equal((await panel.locator(".cell").allTextContents()).join(""), line.solution);
    // The title names the engine the server ran, not the bitboard asked for.
    assert.match(await panel.locator(".title").textContent(), /^wide/);
    const cells = panel.locator(".cell");
    if (line.rules.cages) {
      const caged = line.rules.cages.reduce((total, cage) => total + cage.cells.length, 0);
      assert.equal(await panel.locator(".cell.cage").count(), caged);
      const sums = line.rules.cages.filter((cage) => cage.sum).length;
      assert.equal(await panel.locator(".cell[data-sum]").count(), sums);
    }
    if (line.rules.regions) {
      // A thick line right of a cell exactly where the region changes.
      const labels = Array.from(line.rules.regions);
      const right = await cells.evaluateAll((all) => all.map((cell) => cell.classList.contains("box-right")));
      for (let i = 0; i < 81; i++) {
        const changes = i % 9 !== 8 && labels[i] !== labels[i + 1];
        assert.equal(right[i], changes, `cell ${i}`);
      }
    }
    await page.screenshot({ path: `${screenshots}/dashboard-${set.replace("+", "-")}.png`, fullPage: true });
    assert.deepEqual(pageErrors, []);
  });
}

test("explain mode takes a pasted killer link and names the killer techniques", async () => {
  const { link, line } = variantLink("killer");
  await page.goto(`http://${server.address}/`);
  await page.fill("#puzzle", link);
  await page.click("#explain");
  const panel = page.locator('[data-panel="explain"]');
  await page.waitForFunction(
    () => ["explained", "error"].includes(document.querySelector('[data-panel="explain"]')?.dataset.state),
  );
  assert.equal(await panel.getAttribute("data-state"), "explained", await panel.locator(".status").textContent());
  const steps = await panel.locator(".steps li").allTextContents();
  assert.ok(steps.some((step) => step.includes("cage combination")), steps.slice(0, 5).join("\n"));
  assert.ok(steps.some((step) => step.includes("innies and outies")), "no innies and outies");
  // The cages are drawn, and the steps replayed over the killer's peers end on its solution.
  assert.equal(await panel.locator(".cell[data-sum]").count(), line.rules.cages.filter((cage) => cage.sum).length);
  assert.doesNotMatch(await panel.locator(".status").textContent(), /differ/);
  await panel.locator(".steps li").last().click();
  await panel.locator('[data-nav="next"]').click();
  assert.equal((await panel.locator(".cell").allTextContents()).join(""), line.solution);
  await page.screenshot({ path: `${screenshots}/dashboard-explain-killer.png`, fullPage: true });
  assert.deepEqual(pageErrors, []);
});

test("New puzzle makes a killer as an f-puzzles link that Start solves and checks under its cages", async () => {
  await page.goto(`http://${server.address}/`);
  await page.selectOption("#variant", "killer");
  await page.click("#generate");
  await page.waitForFunction(() => /f-puzzles link|\(/.test(document.querySelector("#generated")?.textContent ?? ""));
  assert.match(await page.locator("#generated").textContent(), /killer as an f-puzzles link/);
  const link = (await page.inputValue("#puzzle")).trim();
  assert.match(link, /^https:\/\/www\.f-puzzles\.com\/\?load=/);
  // The server reads the link back: its count is one, and the answer keeps every cage's sum.
  assert.equal(execFileSync(binary, ["solve", "--count", "--fpuzzles", link]).toString().trim(), "1");
  await page.selectOption("#pace", "0");
  await page.click("#start");
  const panel = page.locator('[data-panel="a"]');
  await panel.locator('[data-field="server"][data-placements]').waitFor({ timeout: 60_000 });
  assert.equal(await panel.getAttribute("data-state"), "solved", await panel.locator(".status").textContent());
  const grid = (await panel.locator(".cell").allTextContents()).join("");
  assert.ok(isSolution(".".repeat(81), grid), grid);
  // Every cage of the link adds up in the answer, and each sum is drawn.
  const board = JSON.parse(LZString.decompressFromBase64(link.split("load=")[1]));
  const at = (name) => {
    const [, row, col] = name.match(/R(\d+)C(\d+)/);
    return (Number(row) - 1) * 9 + Number(col) - 1;
  };
  assert.ok(board.killercage.length > 10, `${board.killercage.length} cages`);
  for (const cage of board.killercage) {
    const total = cage.cells.reduce((sum, name) => sum + Number(grid[at(name)]), 0);
    assert.equal(total, Number(cage.value), JSON.stringify(cage));
  }
  assert.equal(await panel.locator(".cell[data-sum]").count(), board.killercage.length);
  await page.screenshot({ path: `${screenshots}/dashboard-generated-killer.png`, fullPage: true });
  assert.deepEqual(pageErrors, []);
});

test("a race runs two algorithms side by side", async () => {
  await page.goto(`http://${server.address}/`);
  await page.selectOption("#sample", { label: "Project Euler 96 #1 (easy)" });
  await page.check("#race");
  await page.selectOption("#algorithm", { label: "bitboard (fastest, 9x9)" });
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

test("explain mode draws a chain step's links as arrows over the pencil marks", async () => {
  await page.goto(`http://${server.address}/`);
  // A puzzle whose logical solve needs a forcing x-chain and a forcing chain.
  await page.fill("#puzzle", "69.....1.........6.2....37.2...65......8...4.8....32.7.41..9......1...6...3..8..4");
  const panel = await explainNow();
  const texts = await panel.locator(".steps li").allTextContents();
  const chain = texts.findIndex((text) => /forcing chain/.test(text));
  assert.ok(chain >= 0, `no chain step among ${texts.length}`);
  await panel.locator(".steps li").nth(chain).click();
  const arrows = panel.locator("svg.links line");
  assert.ok((await arrows.count()) > 0, "the chain step draws its links");
  assert.equal(Number(await panel.locator("svg.links").getAttribute("data-links")), await arrows.count());
  // Each arrow starts and ends on a mark highlighted as part of the chain.
  assert.ok((await panel.locator(".marks .chain").count()) >= 2);
  await page.screenshot({ path: `${screenshots}/dashboard-explain-chain.png`, fullPage: true });
  // A step without links draws none.
  const plain = texts.findIndex((text) => /hidden single|naked single|full house/.test(text));
  if (plain >= 0) {
    await panel.locator(".steps li").nth(plain).click();
    assert.equal(await panel.locator("svg.links").count(), 0);
  }
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

for (const [label, box, rows, cols] of [["6x6 (2x3)", "2x3", 2, 3], ["16x16 (4x4)", "4x4", 4, 4]]) {
  test(`a ${label} grid is drawn, generated and solved on the page`, async () => {
    const puzzle = await pickGrid(label);
    const n = rows * cols;
    const panel = page.locator('[data-panel="a"]');
    assert.equal(await panel.locator(".cell").count(), n * n);
    assert.equal(await panel.locator(".cell.box-right").count(), n * (rows - 1), "a thick line after each box but the last");
    await page.selectOption("#pace", "0");
    await page.click("#start");
    await panel.locator('[data-field="server"][data-placements]').waitFor({ timeout: 60_000 });
    assert.equal(await panel.getAttribute("data-state"), "solved", await panel.locator(".status").textContent());
    assert.equal(await panel.locator(".status").textContent(), "solved");
    const grid = digitsOf(await panel.locator(".cell").allTextContents());
    const givens = digitsOf(Array.from(puzzle.replace(/\s/g, "")));
    assert.ok(obeysRules(givens, grid, rows, cols), `not a ${label} solution: ${grid}`);
    const expected = execFileSync(binary, ["solve", "--box", box, "--threads", "1"], { input: `${puzzle}\n` })
      .toString()
      .trim();
    assert.deepEqual(grid, digitsOf(Array.from(expected)));
    await page.screenshot({ path: `${screenshots}/dashboard-${n}x${n}.png`, fullPage: true });
    assert.deepEqual(pageErrors, []);
  });
}

test("explain mode walks through a 16x16 solve with its pencil marks", async () => {
  const puzzle = await pickGrid("16x16 (4x4)");
  const panel = await explainNow();
  assert.equal(await panel.locator(".cell").count(), 256);
  // Pencil marks of 16 digits in the empty cells, the first step's pattern among them.
  assert.ok((await panel.locator(".cell.marks").count()) > 0);
  assert.ok((await panel.locator(".marks .pattern, .marks .place, .marks .struck").count()) > 0);
  const steps = await panel.locator(".steps li").count();
  assert.ok(steps > 0);
  assert.match(await panel.locator(".steps li").first().textContent(), /r\d+c\d+=\d+/);
  await panel.locator(".steps li").last().click();
  await panel.locator('[data-nav="next"]').click();
  const solved = digitsOf(await panel.locator(".cell").allTextContents());
  const expected = execFileSync(binary, ["solve", "--box", "4x4", "--threads", "1"], { input: `${puzzle}\n` })
    .toString()
    .trim();
  assert.deepEqual(solved, digitsOf(Array.from(expected)));
  await page.screenshot({ path: `${screenshots}/dashboard-explain-16x16.png`, fullPage: true });
  assert.deepEqual(pageErrors, []);
});

test("a 64x64 grid fits the page (the board scrolls), animates and solves", async () => {
  await page.goto(`http://${server.address}/`);
  await page.selectOption("#size", { label: "64x64 (8x8)" });
  // The page asks for a puzzle with ten seconds to make it (a debug build may
  // not); once that is settled, a grid of this test's own goes in: a full grid
  // by the pattern that staggers rows by box, every third cell emptied.
  await page.waitForFunction(() => document.querySelector("#generated")?.textContent !== "generating…", null, {
    timeout: 60_000,
  });
  const cells = [];
  for (let r = 0; r < 64; r++) {
    for (let c = 0; c < 64; c++) {
      const digit = (((r % 8) * 8 + Math.floor(r / 8) + c) % 64) + 1;
      cells.push((r * 64 + c) % 3 === 0 ? 0 : digit);
    }
  }
  const puzzle = cells.join(",");
  await page.fill("#puzzle", puzzle);
  const panel = page.locator('[data-panel="a"]');
  assert.equal(await panel.locator(".cell").count(), 4096);
  // The board stays within the page: wider grids scroll inside their panel.
  const width = await panel.locator(".board").evaluate((board) => board.getBoundingClientRect().width);
  assert.ok(width <= 1280, `the board is ${width}px wide`);
  await page.selectOption("#pace", "0");
  await page.click("#start");
  await panel.locator('[data-field="server"][data-placements]').waitFor({ timeout: 120_000 });
  assert.equal(await panel.locator(".status").textContent(), "solved");
  const grid = (await panel.locator(".cell").allTextContents()).map(Number);
  const givens = puzzle.split(/[\s,]+/).filter((t) => t !== "").map(Number);
  assert.ok(obeysRules(givens, grid, 8, 8), "not a 64x64 solution");
  await page.screenshot({ path: `${screenshots}/dashboard-64x64.png` });
  assert.deepEqual(pageErrors, []);
});
