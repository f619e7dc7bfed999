// The sudokud dashboard: streams SolveSteps over gRPC-Web and animates the search.
// Steps update plain arrays as they arrive; the board, counters and depth plot are
// drawn once per animation frame, so an unthrottled stream never freezes the page.

import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createGrpcWebTransport } from "@connectrpc/connect-web";
import { ExplainPanel } from "./explain";
import { fpuzzlesLink } from "./link";
import { type Drawn, SHAPES, Shape } from "./grid";
import {
  Algorithm,
  Outcome,
  Reason,
  StepKind,
  SudokuService,
  type Symmetry,
  type Finished,
  type Step,
} from "./gen/sudoku/v1/sudoku_pb";

/** Famous puzzles to pick from. */
const SAMPLES: ReadonlyArray<[string, string]> = [
  ["AI Escargot (Inkala, 2006)", "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3.."],
  ["Easter Monster", "1.......2.9.4...5...6...7...5.9.3.......7.......85..4.7.....6...3...9.8...2.....1"],
  ["\"World's hardest\" (Inkala, 2012)", "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4.."],
  ["Norvig's slowest (top95)", "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"],
  ["Anti-backtracking (17 givens)", "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9"],
  ["Project Euler 96 #1 (easy)", "003020600900305001001806400008102900700000008006708200002609500800203009005010300"],
];

const ALGORITHMS: ReadonlyArray<[Algorithm, string]> = [
  [Algorithm.BITBOARD, "bitboard (fastest, 9x9)"],
  [Algorithm.WIDE, "wide (every size: propagation, Hall sets, learning)"],
  [Algorithm.PROPAGATION, "propagation (singles + fewest candidates)"],
  [Algorithm.SINGLES, "singles, then backtracking"],
  [Algorithm.BACKTRACKING, "plain backtracking"],
];

/** The engines that search the classic 9x9 only (a link may hold variant rules). */
const ROW_MAJOR: ReadonlyArray<Algorithm> = [Algorithm.BITBOARD, Algorithm.SINGLES, Algorithm.BACKTRACKING];

const REASON_CLASS: Record<Reason, string> = {
  [Reason.UNSPECIFIED]: "r-other",
  [Reason.GUESS]: "r-guess",
  [Reason.NAKED_SINGLE]: "r-naked",
  [Reason.HIDDEN_SINGLE]: "r-hidden",
  [Reason.LOCKED_CANDIDATES]: "r-locked",
  [Reason.CONSTRAINT]: "r-rule",
};

/** The server: this page's origin, or `?server=URL` for another one (CORS). */
const serverUrl = new URLSearchParams(location.search).get("server") ?? location.origin;
const client = createClient(SudokuService, createGrpcWebTransport({ baseUrl: serverUrl }));

function element<T extends HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (!found) throw new Error(`missing #${id}`);
  return found as T;
}

/** One board being solved: its cells, counters, depth plot and stream. */
class Panel {
  readonly root: HTMLElement;
  private cells: HTMLElement[] = [];
  private readonly plot: HTMLCanvasElement;
  private readonly field: Record<string, HTMLElement> = {};
  private readonly message: HTMLElement;

  private shape = Shape.CLASSIC;
  // Search state, updated per step.
  private digits = new Uint8Array(81);
  private reasons = new Uint8Array(81);
  private given = new Uint8Array(81);
  private undone = new Uint8Array(81); // backtracked since the last frame
  private dirty = new Uint8Array(81);
  private placements = 0;
  private backtracks = 0;
  private guesses = 0;
  private depth = 0;
  private maxDepth = 0;
  private depths: number[] = [];
  private started = 0;
  private ended = 0;
  private rateMark = { time: 0, steps: 0, rate: 0 };
  private running = false;
  private frame = 0;
  private abort: AbortController | null = null;
  /** The error the last run ended with, if any. */
  failure: ConnectError | null = null;

  constructor(container: HTMLElement, readonly name: string) {
    this.root = document.createElement("section");
    this.root.className = "panel";
    this.root.dataset.panel = name;
    this.root.innerHTML = `
      <h2 class="title"></h2>
      <div class="board" role="grid" aria-label="board ${name}"></div>
      <dl class="counters">
        <div><dt>placements</dt><dd data-field="placements">0</dd></div>
        <div><dt>backtracks</dt><dd data-field="backtracks">0</dd></div>
        <div><dt>guesses</dt><dd data-field="guesses">0</dd></div>
        <div><dt>depth</dt><dd data-field="depth">0</dd></div>
        <div><dt>steps/s</dt><dd data-field="rate">0</dd></div>
        <div><dt>elapsed</dt><dd data-field="elapsed">0.0 s</dd></div>
      </dl>
      <canvas class="plot" width="360" height="90" aria-label="depth over time"></canvas>
      <p class="status" data-field="status">ready</p>
      <p class="server-stats" data-field="server"></p>`;
    container.appendChild(this.root);
    this.layout(Shape.CLASSIC);
    for (const node of this.root.querySelectorAll<HTMLElement>("[data-field]")) {
      this.field[node.dataset.field as string] = node;
    }
    this.plot = this.root.querySelector(".plot") as HTMLCanvasElement;
    this.message = this.field.status;
  }

  /** Makes the board's cells for `shape`, when it is not the one shown. */
  private layout(shape: Shape): void {
    if (this.cells.length === shape.cells && this.shape === shape) return;
    this.shape = shape;
    this.cells = shape.layout(this.root.querySelector(".board") as HTMLElement, false);
    for (const name of ["digits", "reasons", "given", "undone", "dirty"] as const) {
      this[name] = new Uint8Array(shape.cells);
    }
  }

  /** Shows the givens `cells` of a grid of `shape` and clears everything else. */
  reset(cells: Uint8Array, title: string, shape: Shape): void {
    this.layout(shape);
    for (let i = 0; i < shape.cells; i++) {
      const digit = cells[i] ?? 0;
      this.digits[i] = digit;
      this.given[i] = digit ? 1 : 0;
      this.reasons[i] = 0;
      this.dirty[i] = 1;
    }
    this.undone.fill(0);
    this.placements = this.backtracks = this.guesses = this.depth = this.maxDepth = 0;
    this.depths = [];
    this.started = performance.now();
    this.ended = 0;
    this.rateMark = { time: this.started, steps: 0, rate: 0 };
    (this.root.querySelector(".title") as HTMLElement).textContent = title;
    this.field.server.textContent = "";
    this.root.dataset.state = "ready";
    this.setStatus("ready", false);
    this.draw();
  }

  setStatus(text: string, isError: boolean): void {
    this.message.textContent = text;
    this.message.classList.toggle("error", isError);
  }

  /**
   * Streams a solve and animates it; resolves when the stream ends. A stream cut
   * on its way (the server restarting, the connection lost) is resumed after the
   * last step shown, so the animation goes on where it was.
   */
  async run(puzzle: string, algorithm: Algorithm, intervalMs: number, maxSteps: bigint): Promise<void> {
    // A pasted f-puzzles link carries its puzzle and rules: the grid is the
    // one the server reads from it (set when the stream starts).
    const link = isLink(puzzle);
    const rules = link ? { fpuzzles: puzzle } : this.shape.rules();
    if (link) puzzle = "";
    // The row-major engines take no variant rules: the server picks for a link.
    if (link && ROW_MAJOR.includes(algorithm)) algorithm = Algorithm.UNSPECIFIED;
    this.abort?.abort();
    const abort = new AbortController();
    this.abort = abort;
    this.running = true;
    this.failure = null;
    this.root.dataset.state = "running";
    this.root.dataset.resumes = "0";
    this.setStatus("solving…", false);
    this.scheduleFrame();
    const request = { puzzle, algorithm, stepIntervalMs: intervalMs, maxSteps, maxBatch: 0, rules };
    const followed = { seq: 0n, engineVersion: "", algorithm };
    let tries = 0;
    try {
      for (;;) {
        const shown = followed.seq;
        try {
          await this.follow(request, followed, abort.signal);
          break;
        } catch (error) {
          const failure = ConnectError.from(error);
          if (followed.seq > shown) tries = 0;
          if (abort.signal.aborted || !isCut(failure) || tries >= RECONNECTS) throw failure;
          tries++;
          this.root.dataset.resumes = String(Number(this.root.dataset.resumes) + 1);
          this.setStatus(`reconnecting (${describe(failure)})…`, false);
          await pause(Math.min(100 * 2 ** (tries - 1), 2000), abort.signal);
          this.setStatus("solving…", false);
        }
      }
    } catch (error) {
      const failure = ConnectError.from(error);
      if (failure.code === Code.Canceled && abort.signal.aborted) {
        this.setStatus("stopped", false);
        this.root.dataset.state = "stopped";
      } else {
        this.failure = failure;
        this.setStatus(describe(failure), true);
        this.root.dataset.state = "error";
      }
    } finally {
      if (this.abort === abort) this.abort = null;
      this.running = false;
      this.ended = performance.now();
      this.draw();
    }
  }

  /** One stream, resumed after `followed.seq` once a stream has started. */
  private async follow(
    request: {
      puzzle: string;
      algorithm: Algorithm;
      stepIntervalMs: number;
      maxSteps: bigint;
      maxBatch: number;
      rules?: { boxRows: number; boxCols: number } | { fpuzzles: string };
    },
    followed: { seq: bigint; engineVersion: string; algorithm: Algorithm },
    signal: AbortSignal,
  ): Promise<void> {
    if (signal.aborted) throw new ConnectError("stopped", Code.Canceled);
    const resume = followed.engineVersion
      ? { algorithm: followed.algorithm, resumeAfterSeq: followed.seq, resumeEngineVersion: followed.engineVersion }
      : {};
    const stream = client.solveSteps({ ...request, ...resume }, { signal });
    let slice = performance.now();
    for await (const response of stream) {
      // Buffered messages resolve as microtasks, which would starve rendering
      // and input: give the event loop a turn every few milliseconds.
      if (performance.now() - slice > SLICE_MS) {
        await yieldToBrowser();
        slice = performance.now();
      }
      const event = response.event;
      if (event.case === "started" && !followed.engineVersion) {
        followed.engineVersion = event.value.engineVersion;
        followed.algorithm = event.value.algorithm;
        if (request.rules && "fpuzzles" in request.rules) {
          this.adopt(event.value.puzzle, event.value.rules, event.value.algorithm);
        }
      } else if (event.case === "steps") {
        for (const step of event.value.steps) {
          if (step.seq !== followed.seq + 1n) {
            throw new ConnectError(`step ${step.seq} came after step ${followed.seq}`, Code.DataLoss);
          }
          this.apply(step);
          followed.seq = step.seq;
        }
      } else if (event.case === "finished") {
        this.finish(event.value);
      }
    }
  }

  stop(): void {
    this.abort?.abort();
  }

  /** Shows the grid and givens the server read from a link. */
  private adopt(
    puzzle: string,
    rules: ({ boxRows: number; boxCols: number } & Drawn) | undefined,
    algorithm: Algorithm,
  ): void {
    const shape = rules ? new Shape(rules.boxRows, rules.boxCols).drawn(rules) : Shape.CLASSIC;
    const read = shape.parse(puzzle);
    // The server may have chosen the engine (the row-major ones take no variants).
    const title = ALGORITHMS.find(([value]) => value === algorithm)?.[1] ?? "";
    this.reset("cells" in read ? read.cells : new Uint8Array(shape.cells), title, shape);
    this.root.dataset.state = "running";
    this.setStatus("solving…", false);
  }

  private apply(step: Step): void {
    const cell = step.row * this.shape.n + step.col;
    this.depth = step.depth;
    if (step.depth > this.maxDepth) this.maxDepth = step.depth;
    if (step.kind === StepKind.PLACE) {
      this.digits[cell] = step.digit;
      this.reasons[cell] = step.reason;
      this.undone[cell] = 0;
      this.placements++;
      if (step.reason === Reason.GUESS) this.guesses++;
    } else if (step.kind === StepKind.BACKTRACK) {
      this.digits[cell] = 0;
      this.undone[cell] = 1;
      this.backtracks++;
    }
    this.dirty[cell] = 1;
  }

  private finish(finished: Finished): void {
    const stats = finished.stats;
    const solved = finished.outcome === Outcome.SOLVED;
    this.root.dataset.state = solved ? "solved" : "unsolvable";
    this.setStatus(solved ? "solved" : "no solution exists", false);
    // The board is the replay of the steps; it must match the server's solution.
    const solution = this.shape.parse(finished.solution);
    const differs = !("cells" in solution) || solution.cells.some((digit, i) => digit !== this.digits[i]);
    if (solved && differs) {
      this.setStatus("solved, but the replayed steps differ from the server's solution", true);
    }
    if (stats) {
      const server = this.field.server;
      server.dataset.placements = String(stats.placements);
      server.dataset.backtracks = String(stats.backtracks);
      server.dataset.guesses = String(stats.guesses);
      server.textContent =
        `server: ${stats.placements} placements, ${stats.backtracks} backtracks, ` +
        `${stats.guesses} guesses, ${(Number(stats.elapsedMicros) / 1000).toFixed(1)} ms of search`;
    }
  }

  private scheduleFrame(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.draw();
      if (this.running) this.scheduleFrame();
    });
  }

  /** Draws what changed since the last frame. */
  private draw(): void {
    for (let i = 0; i < this.shape.cells; i++) {
      if (!this.dirty[i] && !this.undone[i]) continue;
      const cell = this.cells[i];
      const digit = this.digits[i];
      cell.textContent = this.shape.symbol(digit);
      cell.className = "cell";
      cell.classList.add(...this.shape.borders(i));
      if (this.given[i]) cell.classList.add("given");
      else if (digit) cell.classList.add(REASON_CLASS[this.reasons[i] as Reason] ?? "r-other");
      else if (this.undone[i]) cell.classList.add("undone");
      this.dirty[i] = this.undone[i]; // an undone cell fades on the next frame
      this.undone[i] = 0;
    }
    const now = this.running ? performance.now() : this.ended || performance.now();
    const steps = this.placements + this.backtracks;
    if (!this.running) {
      // Over: the average over the whole run.
      this.rateMark.rate = (steps * 1000) / Math.max(1, now - this.started);
    } else if (now - this.rateMark.time >= 500) {
      this.rateMark.rate = ((steps - this.rateMark.steps) * 1000) / (now - this.rateMark.time);
      this.rateMark = { time: now, steps, rate: this.rateMark.rate };
    }
    this.field.placements.textContent = String(this.placements);
    this.field.backtracks.textContent = String(this.backtracks);
    this.field.guesses.textContent = String(this.guesses);
    this.field.depth.textContent = `${this.depth} (max ${this.maxDepth})`;
    this.field.rate.textContent = Math.round(this.rateMark.rate).toLocaleString("en");
    this.field.elapsed.textContent = `${((now - this.started) / 1000).toFixed(1)} s`;
    if (this.running) this.depths.push(this.depth);
    this.drawPlot();
  }

  private drawPlot(): void {
    const context = this.plot.getContext("2d");
    if (!context) return;
    const { width, height } = this.plot;
    context.clearRect(0, 0, width, height);
    const points = this.depths;
    if (points.length < 2) return;
    const top = Math.max(1, this.maxDepth);
    context.strokeStyle = "#3b6ea5";
    context.lineWidth = 1.5;
    context.beginPath();
    for (let i = 0; i < points.length; i++) {
      const x = (i / (points.length - 1)) * (width - 4) + 2;
      const y = height - 2 - (points[i] / top) * (height - 4);
      if (i === 0) context.moveTo(x, y);
      else context.lineTo(x, y);
    }
    context.stroke();
  }
}

/** The longest stretch of stream processing between two turns of the event loop. */
const SLICE_MS = 8;

/**
 * Resolves after the browser has had a turn (input, timers, a frame when due).
 * A message on a channel is a new task without setTimeout's 4 ms clamp.
 */
const turns = new MessageChannel();
const waiting: Array<() => void> = [];
turns.port1.onmessage = () => waiting.shift()?.();
function yieldToBrowser(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    turns.port2.postMessage(null);
  });
}

/** Tries in a row to resume a cut stream before the panel shows the error. */
const RECONNECTS = 8;

/**
 * Whether a stream that failed so was cut on its way and is worth resuming: the
 * server shutting down (`UNAVAILABLE`), a lost connection or a proxy's reset
 * (`UNKNOWN`, `INTERNAL`, `CANCELED` not asked for). Never a request's own error.
 */
function isCut(error: ConnectError): boolean {
  return [Code.Unavailable, Code.Unknown, Code.Internal, Code.Canceled].includes(error.code);
}

/** Waits `ms`, or less when `signal` aborts (then throws `CANCELED`). */
async function pause(ms: number, signal: AbortSignal): Promise<void> {
  await new Promise<void>((done) => {
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", () => {
      clearTimeout(timer);
      done();
    }, { once: true });
  });
  if (signal.aborted) throw new ConnectError("stopped", Code.Canceled);
}

/** A server error as a person should read it. */
function describe(error: ConnectError): string {
  const what: Partial<Record<Code, string>> = {
    [Code.InvalidArgument]: "rejected",
    [Code.ResourceExhausted]: "limit reached",
    [Code.DeadlineExceeded]: "out of time",
    [Code.Unavailable]: "server unavailable",
    [Code.Unauthenticated]: "not allowed",
  };
  return `${what[error.code] ?? Code[error.code]}: ${error.rawMessage}`;
}

function main(): void {
  const puzzle = element<HTMLTextAreaElement>("puzzle");
  const sample = element<HTMLSelectElement>("sample");
  const algorithm = element<HTMLSelectElement>("algorithm");
  const second = element<HTMLSelectElement>("algorithm-b");
  const race = element<HTMLInputElement>("race");
  const pace = element<HTMLSelectElement>("pace");
  const limit = element<HTMLInputElement>("max-steps");
  const start = element<HTMLButtonElement>("start");
  const stop = element<HTMLButtonElement>("stop");
  const inputError = element<HTMLElement>("input-error");
  const boards = element<HTMLElement>("boards");

  const size = element<HTMLSelectElement>("size");
  const level = element<HTMLSelectElement>("level");
  const generated = element<HTMLElement>("generated");
  for (const [name, text] of SAMPLES) sample.add(new Option(name, text));
  SHAPES.forEach(([name], index) => size.add(new Option(name, String(index))));
  for (const select of [algorithm, second]) {
    for (const [value, name] of ALGORITHMS) select.add(new Option(name, String(value)));
  }
  second.value = String(Algorithm.BACKTRACKING);
  puzzle.value = SAMPLES[0][1];
  let shape = Shape.CLASSIC;
  sample.addEventListener("change", () => {
    puzzle.value = sample.value;
    showGivens();
  });
  const syncRace = () => {
    second.disabled = !race.checked;
    panels[1].root.hidden = !race.checked;
  };
  const panels = [new Panel(boards, "a"), new Panel(boards, "b")];
  race.addEventListener("change", syncRace);
  syncRace();
  /** The puzzle's cells as the boards show them before a run (empty when unreadable). */
  const givens = (): Uint8Array => {
    const read = shape.parse(puzzle.value);
    return "cells" in read ? read.cells : new Uint8Array(shape.cells);
  };
  const showGivens = () => {
    for (const panel of panels) panel.reset(givens(), "", shape);
  };
  showGivens();

  // Another size: the boards redraw, the 9x9-only choices step aside, and a
  // puzzle of that size is made to start from.
  size.addEventListener("change", async () => {
    shape = SHAPES[Number(size.value)][1];
    sample.disabled = !shape.classic;
    if (!shape.classic && algorithm.value === String(Algorithm.BITBOARD)) {
      algorithm.value = String(Algorithm.WIDE);
    }
    level.value = shape.classic ? "hard" : "";
    puzzle.value = shape.classic ? sample.value : "";
    showGivens();
    if (!shape.classic) await generate();
  });

  start.addEventListener("click", async () => {
    inputError.textContent = "";
    const checked = shape.parse(puzzle.value);
    // The server checks too (and says where a conflict is); this catches typos early.
    if ("error" in checked && !isLink(puzzle.value)) inputError.textContent = checked.error;
    const perSecond = Number(pace.value);
    const interval = perSecond > 0 ? Math.max(1, Math.round(1000 / perSecond)) : 0;
    const maxSteps = BigInt(Math.max(0, Math.floor(Number(limit.value) || 0)));
    const chosen = [Number(algorithm.value) as Algorithm];
    if (race.checked) chosen.push(Number(second.value) as Algorithm);
    start.disabled = true;
    stop.disabled = false;
    const runs = chosen.map((choice, index) => {
      const panel = panels[index];
      const label = ALGORITHMS.find(([value]) => value === choice)?.[1] ?? "";
      panel.reset(givens(), label, shape);
      return panel.run(puzzle.value.trim(), choice, interval, maxSteps);
    });
    await Promise.all(runs);
    // Say what went wrong next to the input as well: a rejected puzzle as the
    // server words it, a limit or other failure with what kind it was.
    const failed = panels.find((panel) => panel.failure !== null)?.failure;
    if (failed) {
      inputError.textContent =
        failed.code === Code.InvalidArgument ? failed.rawMessage : describe(failed);
    }
    start.disabled = false;
    stop.disabled = true;
  });
  stop.addEventListener("click", () => {
    for (const panel of panels) panel.stop();
  });

  const explainer = new ExplainPanel(boards, client);
  explainer.root.hidden = true;
  element<HTMLButtonElement>("explain").addEventListener("click", async () => {
    inputError.textContent = "";
    const link = isLink(puzzle.value.trim());
    const checked = shape.parse(puzzle.value);
    if ("error" in checked && !link) {
      inputError.textContent = checked.error;
      return;
    }
    explainer.root.hidden = false;
    const givens = "cells" in checked ? checked.cells : new Uint8Array(shape.cells);
    await explainer.run(puzzle.value.trim(), givens, shape, link);
    if (explainer.failure) inputError.textContent = explainer.failure.rawMessage;
  });

  /**
   * A new puzzle of the size shown. From 25x25 up a minimal puzzle can take
   * minutes: the server gets ten seconds and answers a unique one.
   */
  const generate = async () => {
    generated.textContent = "generating…";
    // A variant comes back with its full rules (drawn cages or regions): it
    // goes into the puzzle box as an f-puzzles link, which carries them.
    const kind = element<HTMLSelectElement>("variant").value;
    const rules = { ...(shape.rules() ?? {}), ...(kind && kind !== "killer" && kind !== "jigsaw" ? { [kind]: true } : {}) };
    try {
      const made = await client.generate(
        {
          level: kind ? "" : level.value,
          symmetry: Number(element<HTMLSelectElement>("symmetry").value) as Symmetry,
          rules,
          randomCages: kind === "killer",
          randomRegions: kind === "jigsaw",
          notMinimal: shape.n >= 25,
        },
        { timeoutMs: shape.n >= 25 || kind ? 10_000 : undefined },
      );
      const read = shape.parse(made.puzzle);
      if (kind && made.rules && "cells" in read) {
        puzzle.value = fpuzzlesLink(read.cells, shape.n, made.rules);
        showGivens();
        generated.textContent = `${made.clues} clues, ${kind} as an f-puzzles link (Start and Explain read its rules), seed ${made.seed}`;
        return;
      }
      puzzle.value = made.puzzle;
      showGivens();
      const rated = made.level ? `rating ${made.rating.toFixed(1)} (${made.level})` : "not rated in time";
      generated.textContent = `${made.clues} clues, ${rated}, seed ${made.seed}`;
    } catch (error) {
      generated.textContent = describe(ConnectError.from(error));
    }
  };
  element<HTMLButtonElement>("generate").addEventListener("click", generate);
  // Variant puzzles come unrated: the level steps aside for them.
  const variant = element<HTMLSelectElement>("variant");
  variant.addEventListener("change", () => {
    level.disabled = variant.value !== "";
  });
  element<HTMLElement>("server").textContent = serverUrl;
}

main();

/** True for an f-puzzles or SudokuPad link (or its `load=` payload) pasted as the puzzle. */
function isLink(text: string): boolean {
  const trimmed = text.trim();
  return /^https?:\/\//i.test(trimmed) || /load=/.test(trimmed) || /^N4Ig/.test(trimmed);
}
