// The dashboard's explain mode: streams Explain over gRPC-Web and lets a person
// walk through the logical solve. The board shows the position before the current
// step with its pencil marks: the pattern's candidates highlighted, the candidates
// it eliminates struck out, the digits it places marked, and a chain step's links
// drawn as arrows between the marks. Positions are replayed
// from the givens, so Previous and Next are exact at every step.

import { Code, ConnectError, type Client } from "@connectrpc/connect";
import { type Candidate, type LogicStep, SudokuService } from "./gen/sudoku/v1/sudoku_pb";
import { Shape } from "./grid";

type Service = Client<typeof SudokuService>;

/**
 * A position: each cell's digit (0 empty), and its candidates as one flag a
 * digit (`candidates[cell * N + digit - 1]`), so every size up to 64x64 fits.
 */
interface Position {
  digits: Uint8Array;
  candidates: Uint8Array;
}

function start(givens: Uint8Array, shape: Shape): Position {
  const n = shape.n;
  const digits = Uint8Array.from(givens);
  const candidates = new Uint8Array(shape.cells * n);
  for (let i = 0; i < shape.cells; i++) {
    if (digits[i]) continue;
    candidates.fill(1, i * n, (i + 1) * n);
    for (const peer of shape.peers(i)) if (digits[peer]) candidates[i * n + digits[peer] - 1] = 0;
  }
  return { digits, candidates };
}

function apply(position: Position, step: LogicStep, shape: Shape): void {
  const n = shape.n;
  for (const { row, col, digit } of step.placements) {
    const cell = row * n + col;
    position.digits[cell] = digit;
    position.candidates.fill(0, cell * n, (cell + 1) * n);
    for (const peer of shape.peers(cell)) position.candidates[peer * n + digit - 1] = 0;
  }
  for (const { row, col, digit } of step.eliminations) {
    position.candidates[(row * n + col) * n + digit - 1] = 0;
  }
}

/** The explain panel: a board with pencil marks, the step list, and navigation. */
export class ExplainPanel {
  readonly root: HTMLElement;
  private cells: HTMLElement[] = [];
  private readonly list: HTMLOListElement;
  private readonly status: HTMLElement;
  private readonly previous: HTMLButtonElement;
  private readonly next: HTMLButtonElement;
  private shape = Shape.CLASSIC;
  private givens: Uint8Array<ArrayBufferLike> = new Uint8Array(81);
  private steps: LogicStep[] = [];
  /** Steps applied to the position shown; the step at this index is the current one. */
  private at = 0;
  private abort: AbortController | null = null;
  /** The error the last run ended with, if any. */
  failure: ConnectError | null = null;

  constructor(container: HTMLElement, private readonly client: Service) {
    this.root = document.createElement("section");
    this.root.className = "panel explain";
    this.root.dataset.panel = "explain";
    this.root.innerHTML = `
      <h2 class="title">Explain: the solve as a person reasons</h2>
      <div class="board" role="grid" aria-label="explained board"></div>
      <div class="row nav">
        <button type="button" data-nav="previous" disabled>Previous</button>
        <button type="button" data-nav="next" disabled>Next</button>
        <span data-field="position"></span>
      </div>
      <p class="step-text" data-field="current"></p>
      <p class="status" data-field="status">ready</p>
      <ol class="steps" data-field="steps"></ol>`;
    container.appendChild(this.root);
    this.layout(Shape.CLASSIC);
    this.list = this.root.querySelector('[data-field="steps"]') as HTMLOListElement;
    this.status = this.root.querySelector('[data-field="status"]') as HTMLElement;
    this.previous = this.root.querySelector('[data-nav="previous"]') as HTMLButtonElement;
    this.next = this.root.querySelector('[data-nav="next"]') as HTMLButtonElement;
    this.previous.addEventListener("click", () => this.show(this.at - 1));
    this.next.addEventListener("click", () => this.show(this.at + 1));
    this.list.addEventListener("click", (event) => {
      const item = (event.target as HTMLElement).closest("li");
      if (item?.dataset.index) this.show(Number(item.dataset.index));
    });
  }

  /** Makes the board's cells for `shape`, when it is not the one shown. */
  private layout(shape: Shape): void {
    if (this.cells.length === shape.cells && this.shape === shape) return;
    this.shape = shape;
    this.cells = shape.layout(this.root.querySelector(".board") as HTMLElement, true);
  }

  /**
   * Streams the explanation of `text` (as the person wrote it; `givens` its
   * cells, 0 empty) on a grid of `shape` into the list. A pasted f-puzzles
   * link (`link`) is sent as the rules: the grid, its rules and its givens are
   * the ones the server reads from it.
   */
  async run(text: string, givens: Uint8Array<ArrayBufferLike>, shape: Shape, link = false): Promise<void> {
    this.abort?.abort();
    const abort = new AbortController();
    this.abort = abort;
    this.layout(shape);
    this.givens = givens;
    this.steps = [];
    this.failure = null;
    this.list.replaceChildren();
    this.root.dataset.state = "running";
    this.setStatus("explaining…", false);
    this.show(0);
    try {
      const rules = link ? { fpuzzles: text } : shape.rules();
      const request = { puzzle: link ? "" : text, finishBySearch: true, rules };
      const stream = this.client.explain(request, { signal: abort.signal });
      for await (const response of stream) {
        const event = response.event;
        if (event.case === "started") {
          const given = event.value.rules;
          if (link && given) {
            shape = new Shape(given.boxRows, given.boxCols).drawn(given);
            this.layout(shape);
          }
          const read = shape.parse(event.value.puzzle);
          if ("cells" in read) this.givens = read.cells;
        } else if (event.case === "steps") {
          for (const step of event.value.steps) this.add(step);
        } else if (event.case === "finished") {
          const done = event.value;
          const end = this.positionAfter(this.steps.length);
          const solution = shape.parse(done.solution);
          const differs = !("cells" in solution) || solution.cells.some((d, i) => d !== end.digits[i]);
          this.root.dataset.state = "explained";
          this.root.dataset.rating = done.rating.toFixed(1);
          const how = done.neededSearch
            ? "the techniques ran out; the search placed the rest"
            : `hardest step: ${done.technique}`;
          this.setStatus(`rating ${done.rating.toFixed(1)} (${done.level}); ${how}`, false);
          if (differs) {
            this.setStatus("the replayed steps differ from the server's solution", true);
          }
        }
      }
    } catch (error) {
      const failure = ConnectError.from(error);
      if (!(failure.code === Code.Canceled && abort.signal.aborted)) {
        this.failure = failure;
        this.root.dataset.state = "error";
        this.setStatus(`${Code[failure.code]}: ${failure.rawMessage}`, true);
      }
    } finally {
      if (this.abort === abort) this.abort = null;
      this.show(this.at);
    }
  }

  private add(step: LogicStep): void {
    const item = document.createElement("li");
    item.dataset.index = String(this.steps.length);
    item.textContent = step.bySearch ? step.description : `[${step.rating.toFixed(1)}] ${step.description}`;
    this.list.appendChild(item);
    this.steps.push(step);
  }

  private positionAfter(count: number): Position {
    const position = start(this.givens, this.shape);
    for (const step of this.steps.slice(0, count)) apply(position, step, this.shape);
    return position;
  }

  /**
   * Draws a chain step's links as arrows over the pencil marks, from one
   * candidate's mark to the next: solid for a strong link (start false, so end
   * true), dashed for a weak one (start true, so end false).
   */
  private drawLinks(step: LogicStep | undefined): void {
    const board = this.root.querySelector(".board") as HTMLElement;
    board.querySelector("svg.links")?.remove();
    const links = step?.links ?? [];
    if (links.length === 0) return;
    const n = this.shape.n;
    const svgNs = "http://www.w3.org/2000/svg";
    const svg = document.createElementNS(svgNs, "svg");
    svg.classList.add("links");
    svg.setAttribute("width", String(board.scrollWidth));
    svg.setAttribute("height", String(board.scrollHeight));
    svg.innerHTML =
      '<defs><marker id="link-head" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z"/></marker></defs>';
    const frame = board.getBoundingClientRect();
    const centre = (c: { row: number; col: number; digit: number } | undefined) => {
      const mark = c ? this.cells[c.row * n + c.col]?.children[c.digit - 1] : undefined;
      if (!mark) return null;
      mark.classList.add("chain");
      const box = mark.getBoundingClientRect();
      return {
        x: box.left - frame.left + board.scrollLeft + box.width / 2,
        y: box.top - frame.top + board.scrollTop + box.height / 2,
      };
    };
    for (const link of links) {
      const [from, to] = [centre(link.start), centre(link.end)];
      if (!from || !to) continue;
      const line = document.createElementNS(svgNs, "line");
      // Stop short of the end's mark so the head does not hide its digit.
      const length = Math.hypot(to.x - from.x, to.y - from.y) || 1;
      const trim = Math.min(6, length / 3);
      line.setAttribute("x1", String(from.x));
      line.setAttribute("y1", String(from.y));
      line.setAttribute("x2", String(to.x - ((to.x - from.x) * trim) / length));
      line.setAttribute("y2", String(to.y - ((to.y - from.y) * trim) / length));
      line.setAttribute("marker-end", "url(#link-head)");
      line.classList.add(link.strong ? "strong" : "weak");
      svg.appendChild(line);
    }
    svg.dataset.links = String(svg.querySelectorAll("line").length);
    board.appendChild(svg);
  }

  private setStatus(text: string, isError: boolean): void {
    this.status.textContent = text;
    this.status.classList.toggle("error", isError);
  }

  /** Shows the position after `count` steps, with the next step highlighted. */
  private show(count: number): void {
    this.at = Math.max(0, Math.min(count, this.steps.length));
    const position = this.positionAfter(this.at);
    const step = this.steps[this.at];
    const { n, cells } = this.shape;
    const key = (c: Candidate) => `${c.row * n + c.col}:${c.digit}`;
    const pattern = new Set((step?.pattern ?? []).map(key));
    const struck = new Set((step?.eliminations ?? []).map(key));
    const placed = new Set((step?.placements ?? []).map(key));
    for (let i = 0; i < cells; i++) {
      const cell = this.cells[i];
      cell.className = "cell";
      cell.classList.add(...this.shape.borders(i));
      const digit = position.digits[i];
      if (digit) {
        cell.textContent = this.shape.symbol(digit);
        cell.classList.add(this.givens[i] ? "given" : "r-hidden");
        continue;
      }
      cell.classList.add("marks");
      cell.replaceChildren();
      for (let d = 1; d <= n; d++) {
        const mark = document.createElement("span");
        const here = `${i}:${d}`;
        if (position.candidates[i * n + d - 1]) {
          mark.textContent = this.shape.symbol(d);
          if (placed.has(here)) mark.className = "place";
          else if (struck.has(here)) mark.className = "struck";
          else if (pattern.has(here)) mark.className = "pattern";
        }
        cell.appendChild(mark);
      }
    }
    this.drawLinks(step);
    for (const item of this.list.children) {
      item.classList.toggle("current", Number((item as HTMLElement).dataset.index) === this.at);
    }
    this.list.children[this.at]?.scrollIntoView({ block: "nearest" });
    const current = this.root.querySelector('[data-field="current"]') as HTMLElement;
    current.textContent = step ? `next: ${step.description}` : this.steps.length ? "solved" : "";
    (this.root.querySelector('[data-field="position"]') as HTMLElement).textContent =
      `step ${this.at} of ${this.steps.length}`;
    this.previous.disabled = this.at === 0;
    this.next.disabled = this.at >= this.steps.length;
  }
}
