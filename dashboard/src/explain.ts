// The dashboard's explain mode: streams Explain over gRPC-Web and lets a person
// walk through the logical solve. The board shows the position before the current
// step with its pencil marks: the pattern's candidates highlighted, the candidates
// it eliminates struck out, the digits it places marked. Positions are replayed
// from the givens, so Previous and Next are exact at every step.

import { Code, ConnectError, type Client } from "@connectrpc/connect";
import { type Candidate, type LogicStep, SudokuService } from "./gen/sudoku/v1/sudoku_pb";

type Service = Client<typeof SudokuService>;

const ALL = 0x1ff;

/** The 20 peers of each cell. */
const PEERS: number[][] = Array.from({ length: 81 }, (_, cell) => {
  const peers: number[] = [];
  for (let other = 0; other < 81; other++) {
    const sameRow = Math.floor(other / 9) === Math.floor(cell / 9);
    const sameCol = other % 9 === cell % 9;
    const sameBox =
      Math.floor(other / 27) === Math.floor(cell / 27) &&
      Math.floor((other % 9) / 3) === Math.floor((cell % 9) / 3);
    if (other !== cell && (sameRow || sameCol || sameBox)) peers.push(other);
  }
  return peers;
});

/** A position: each cell's digit (0 empty) and candidates (bit d-1 for digit d). */
interface Position {
  digits: Uint8Array;
  candidates: Uint16Array;
}

function start(puzzle: string): Position {
  const digits = new Uint8Array(81);
  for (let i = 0; i < 81; i++) digits[i] = puzzle[i] === "." ? 0 : Number(puzzle[i]);
  const candidates = new Uint16Array(81);
  for (let i = 0; i < 81; i++) {
    if (digits[i]) continue;
    let taken = 0;
    for (const peer of PEERS[i]) if (digits[peer]) taken |= 1 << (digits[peer] - 1);
    candidates[i] = ALL & ~taken;
  }
  return { digits, candidates };
}

function apply(position: Position, step: LogicStep): void {
  for (const { row, col, digit } of step.placements) {
    const cell = row * 9 + col;
    position.digits[cell] = digit;
    position.candidates[cell] = 0;
    for (const peer of PEERS[cell]) position.candidates[peer] &= ~(1 << (digit - 1));
  }
  for (const { row, col, digit } of step.eliminations) {
    position.candidates[row * 9 + col] &= ~(1 << (digit - 1));
  }
}

const key = (c: Candidate) => `${c.row * 9 + c.col}:${c.digit}`;

/** The explain panel: a board with pencil marks, the step list, and navigation. */
export class ExplainPanel {
  readonly root: HTMLElement;
  private readonly cells: HTMLElement[] = [];
  private readonly list: HTMLOListElement;
  private readonly status: HTMLElement;
  private readonly previous: HTMLButtonElement;
  private readonly next: HTMLButtonElement;
  private puzzle = ".".repeat(81);
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
    const board = this.root.querySelector(".board") as HTMLElement;
    for (let i = 0; i < 81; i++) {
      const cell = document.createElement("div");
      cell.dataset.cell = String(i);
      board.appendChild(cell);
      this.cells.push(cell);
    }
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

  /** Streams the explanation of `puzzle` (81 cells, '.' empty) into the list. */
  async run(puzzle: string): Promise<void> {
    this.abort?.abort();
    const abort = new AbortController();
    this.abort = abort;
    this.puzzle = puzzle;
    this.steps = [];
    this.failure = null;
    this.list.replaceChildren();
    this.root.dataset.state = "running";
    this.setStatus("explaining…", false);
    this.show(0);
    try {
      const stream = this.client.explain({ puzzle, finishBySearch: true }, { signal: abort.signal });
      for await (const response of stream) {
        const event = response.event;
        if (event.case === "started") {
          this.puzzle = event.value.puzzle;
        } else if (event.case === "steps") {
          for (const step of event.value.steps) this.add(step);
        } else if (event.case === "finished") {
          const done = event.value;
          const end = this.positionAfter(this.steps.length);
          const shown = Array.from(end.digits).join("");
          this.root.dataset.state = "explained";
          this.root.dataset.rating = done.rating.toFixed(1);
          const how = done.neededSearch
            ? "the techniques ran out; the search placed the rest"
            : `hardest step: ${done.technique}`;
          this.setStatus(`rating ${done.rating.toFixed(1)} (${done.level}); ${how}`, false);
          if (shown !== done.solution) {
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
    const position = start(this.puzzle);
    for (const step of this.steps.slice(0, count)) apply(position, step);
    return position;
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
    const pattern = new Set((step?.pattern ?? []).map(key));
    const struck = new Set((step?.eliminations ?? []).map(key));
    const placed = new Set((step?.placements ?? []).map(key));
    for (let i = 0; i < 81; i++) {
      const cell = this.cells[i];
      cell.className = "cell";
      if (i % 9 === 2 || i % 9 === 5) cell.classList.add("box-right");
      if (Math.floor(i / 9) === 2 || Math.floor(i / 9) === 5) cell.classList.add("box-bottom");
      const digit = position.digits[i];
      if (digit) {
        cell.textContent = String(digit);
        cell.classList.add(this.puzzle[i] === "." ? "r-hidden" : "given");
        continue;
      }
      cell.classList.add("marks");
      cell.replaceChildren();
      for (let d = 1; d <= 9; d++) {
        const mark = document.createElement("span");
        const here = `${i}:${d}`;
        if (position.candidates[i] & (1 << (d - 1))) {
          mark.textContent = String(d);
          if (placed.has(here)) mark.className = "place";
          else if (struck.has(here)) mark.className = "struck";
          else if (pattern.has(here)) mark.className = "pattern";
        }
        cell.appendChild(mark);
      }
    }
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
