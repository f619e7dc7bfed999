// The grid a puzzle is on: 9x9 with 3x3 boxes, or any shape the server takes
// (boxes of 2 to 8 rows and columns, N = rows x cols from 4 to 64). It reads the
// text a person pastes, writes digits as the server writes them (symbols up to
// 35x35, numbers beyond), says where box borders fall, and lists each cell's
// peers for the pencil marks.

/** The default symbols, cut to N, as the server's `rules.symbols` default. */
const SYMBOLS = "123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";

/** The variant rules a grid is drawn with (the fields of the API's `Rules`). */
export interface Drawn {
  regions?: string;
  diagonal?: boolean;
  windoku?: boolean;
  extraRegions?: ReadonlyArray<{ cells: ReadonlyArray<number> }>;
  cages?: ReadonlyArray<{ cells: ReadonlyArray<number>; sum: number }>;
  thermometers?: ReadonlyArray<{ cells: ReadonlyArray<number> }>;
  antiKnight?: boolean;
  antiKing?: boolean;
}

export class Shape {
  readonly n: number;
  readonly cells: number;
  private peerCache: number[][] | null = null;
  /** Each cell's region label when regions replace the boxes. */
  private regions: string[] | null = null;
  /** Each cell's picture classes (cage edges, diagonals, windows, thermometers). */
  private pictures: string[][] | null = null;
  /** The sum shown in a cage's first cell. */
  readonly sums = new Map<number, number>();
  /** A variant's groups of cells that hold different digits beyond rows and columns. */
  private groups: number[][] | null = null;
  /** A variant's moves whose cells differ (a knight's, a king's), as [row, col] steps. */
  private moves: [number, number][] = [];

  constructor(
    readonly boxRows: number,
    readonly boxCols: number,
  ) {
    this.n = boxRows * boxCols;
    this.cells = this.n * this.n;
  }

  /** The classic 9x9. */
  static readonly CLASSIC = new Shape(3, 3);

  get classic(): boolean {
    return this.boxRows === 3 && this.boxCols === 3;
  }

  /** `rules` for a request: none for 9x9 (its text as it always was). */
  rules(): { boxRows: number; boxCols: number } | undefined {
    return this.classic ? undefined : { boxRows: this.boxRows, boxCols: this.boxCols };
  }

  /** How a digit is shown: its symbol up to 35x35, its number beyond. */
  symbol(digit: number): string {
    if (!digit) return "";
    return this.n <= SYMBOLS.length ? SYMBOLS[digit - 1] : String(digit);
  }

  /** Puzzle text as cells (0 empty), or what is wrong with it. */
  parse(text: string): { cells: Uint8Array } | { error: string } {
    const n = this.n;
    const cells = new Uint8Array(this.cells);
    const numbers = n > SYMBOLS.length || /[,;]/.test(text);
    const tokens = numbers
      ? text.split(/[\s,;]+/).filter((token) => token !== "")
      : Array.from(text.replace(/[\s|+\-]/g, ""));
    if (tokens.length !== this.cells) {
      return { error: `the puzzle has ${tokens.length} cells; a ${n}x${n} grid needs ${this.cells}` };
    }
    for (let i = 0; i < tokens.length; i++) {
      const token = tokens[i].toUpperCase();
      let digit = -1;
      if (token === "." || token === "_" || token === "0") digit = 0;
      else if (numbers && /^\d+$/.test(token)) digit = Number(token);
      else if (!numbers) digit = SYMBOLS.slice(0, n).indexOf(token) + 1 || -1;
      if (digit < 0 || digit > n) {
        return { error: `'${tokens[i]}' at cell ${i + 1} is not a digit of a ${n}x${n} grid or empty` };
      }
      cells[i] = digit;
    }
    return { cells };
  }

  /** Cells as the server writes them in the symbols form ('.' empty) or numbers. */
  format(cells: ArrayLike<number>): string {
    const all = Array.from(cells);
    if (this.n > SYMBOLS.length) return all.join(",");
    return all.map((digit) => (digit ? SYMBOLS[digit - 1] : ".")).join("");
  }

  /**
   * This grid drawn with a variant's rules: jigsaw regions in place of the
   * boxes, cage outlines and sums, shaded diagonals, windows, extra regions
   * and thermometers (a darker bulb).
   */
  drawn(rules: Drawn): Shape {
    const shape = new Shape(this.boxRows, this.boxCols);
    const n = this.n;
    const text = (rules.regions ?? "").trim();
    if (text) {
      const labels = text.includes(",") ? text.split(",").map((label) => label.trim()) : Array.from(text.replace(/\s/g, ""));
      if (labels.length === shape.cells) shape.regions = labels;
    }
    const pictures: string[][] = Array.from({ length: shape.cells }, () => []);
    const mark = (cells: Iterable<number>, name: string) => {
      for (const cell of cells) if (cell < shape.cells) pictures[cell].push(name);
    };
    if (rules.diagonal) mark(Array.from({ length: n }, (_, k) => [k * n + k, k * n + n - 1 - k]).flat(), "diag");
    if (rules.windoku && n === 9) {
      for (const [top, left] of [[1, 1], [1, 5], [5, 1], [5, 5]]) {
        mark(Array.from({ length: 9 }, (_, k) => (top + Math.floor(k / 3)) * 9 + left + (k % 3)), "extra");
      }
    }
    for (const region of rules.extraRegions ?? []) mark(region.cells, "extra");
    shape.groups = variantGroups(shape, rules);
    if (rules.antiKnight) shape.moves.push([1, 2], [2, 1], [1, -2], [2, -1], [-1, 2], [-2, 1], [-1, -2], [-2, -1]);
    if (rules.antiKing) shape.moves.push([1, 1], [1, -1], [-1, 1], [-1, -1]);
    for (const line of rules.thermometers ?? []) {
      mark(line.cells, "thermo");
      mark(line.cells.slice(0, 1), "bulb");
    }
    for (const cage of rules.cages ?? []) {
      const inside = new Set(cage.cells);
      for (const cell of cage.cells) {
        const [row, col] = [Math.floor(cell / n), cell % n];
        const edges = [
          ["cage-t", row === 0 || !inside.has(cell - n)],
          ["cage-b", row === n - 1 || !inside.has(cell + n)],
          ["cage-l", col === 0 || !inside.has(cell - 1)],
          ["cage-r", col === n - 1 || !inside.has(cell + 1)],
        ] as const;
        mark([cell], "cage");
        for (const [name, edge] of edges) if (edge) mark([cell], name);
      }
      if (cage.sum && cage.cells.length) shape.sums.set(Math.min(...cage.cells), cage.sum);
    }
    shape.pictures = pictures;
    return shape;
  }

  /** Each cell's region label, when jigsaw regions replace the boxes. */
  regionLabels(): readonly string[] | null {
    return this.regions;
  }

  /** The border and picture classes of cell `i`: a thick line after each box (or region). */
  borders(i: number): string[] {
    const row = Math.floor(i / this.n);
    const col = i % this.n;
    const found: string[] = [];
    const regions = this.regions;
    if (regions) {
      if (col !== this.n - 1 && regions[i] !== regions[i + 1]) found.push("box-right");
      if (row !== this.n - 1 && regions[i] !== regions[i + this.n]) found.push("box-bottom");
    } else {
      if ((col + 1) % this.boxCols === 0 && col !== this.n - 1) found.push("box-right");
      if ((row + 1) % this.boxRows === 0 && row !== this.n - 1) found.push("box-bottom");
    }
    if (this.pictures) found.push(...this.pictures[i]);
    return found;
  }

  /**
   * The cells that may not hold `cell`'s digit: those sharing a row, a column
   * or a box, and under a variant's rules its region, diagonal, window, extra
   * region or cage, or a knight's or king's move away.
   */
  peers(cell: number): number[] {
    if (!this.peerCache) {
      const n = this.n;
      const boxOf = (i: number) =>
        Math.floor(Math.floor(i / n) / this.boxRows) * this.boxRows + Math.floor((i % n) / this.boxCols);
      const sets = Array.from({ length: this.cells }, () => new Set<number>());
      for (let at = 0; at < this.cells; at++) {
        const [row, col] = [Math.floor(at / n), at % n];
        for (let other = 0; other < this.cells; other++) {
          const sameRow = Math.floor(other / n) === row;
          const sameCol = other % n === col;
          const sameBox = !this.regions && boxOf(other) === boxOf(at);
          if (other !== at && (sameRow || sameCol || sameBox)) sets[at].add(other);
        }
        for (const [dr, dc] of this.moves) {
          const [r, c] = [row + dr, col + dc];
          if (r >= 0 && r < n && c >= 0 && c < n) sets[at].add(r * n + c);
        }
      }
      for (const group of this.groups ?? []) {
        for (const a of group) for (const b of group) if (a !== b) sets[a].add(b);
      }
      this.peerCache = sets.map((set) => [...set].sort((a, b) => a - b));
    }
    return this.peerCache[cell];
  }

  /**
   * Fills `board` with this grid's cells, sized for it (N columns, cells as
   * large as fit; with room for N pencil marks a cell when `marks`), and
   * returns them.
   */
  layout(board: HTMLElement, marks: boolean): HTMLElement[] {
    const n = this.n;
    const cell = marks
      ? Math.max(2.2, Math.ceil(Math.sqrt(n)) * 0.62)
      : n <= 9 ? 2.2 : n <= 16 ? 1.7 : n <= 25 ? 1.3 : 1.0;
    board.style.setProperty("--n", String(n));
    board.style.setProperty("--cell", `${cell}rem`);
    board.style.setProperty("--marks", String(Math.ceil(Math.sqrt(n))));
    board.dataset.size = String(n);
    const cells = Array.from({ length: this.cells }, (_, i) => {
      const cell = document.createElement("div");
      cell.className = "cell";
      cell.dataset.cell = String(i);
      const sum = this.sums.get(i);
      if (sum) cell.dataset.sum = String(sum);
      return cell;
    });
    board.replaceChildren(...cells);
    return cells;
  }
}

/** A variant's groups of different digits beyond rows and columns: regions, diagonals, windows, extra regions, cages. */
function variantGroups(shape: Shape, rules: Drawn): number[][] {
  const n = shape.n;
  const groups: number[][] = [];
  const labels = shape.regionLabels();
  if (labels) {
    const byLabel = new Map<string, number[]>();
    labels.forEach((label, cell) => byLabel.set(label, [...(byLabel.get(label) ?? []), cell]));
    groups.push(...byLabel.values());
  }
  if (rules.diagonal) {
    groups.push(Array.from({ length: n }, (_, k) => k * n + k), Array.from({ length: n }, (_, k) => k * n + n - 1 - k));
  }
  if (rules.windoku && n === 9) {
    for (const [top, left] of [[1, 1], [1, 5], [5, 1], [5, 5]]) {
      groups.push(Array.from({ length: 9 }, (_, k) => (top + Math.floor(k / 3)) * 9 + left + (k % 3)));
    }
  }
  for (const region of rules.extraRegions ?? []) groups.push([...region.cells]);
  for (const cage of rules.cages ?? []) groups.push([...cage.cells]);
  return groups;
}

/** The shapes the size selector offers, 9x9 first. */
export const SHAPES: ReadonlyArray<[string, Shape]> = [
  ["9x9 (3x3 boxes)", Shape.CLASSIC],
  ["4x4 (2x2)", new Shape(2, 2)],
  ["6x6 (2x3)", new Shape(2, 3)],
  ["6x6 (3x2)", new Shape(3, 2)],
  ["8x8 (2x4)", new Shape(2, 4)],
  ["12x12 (3x4)", new Shape(3, 4)],
  ["16x16 (4x4)", new Shape(4, 4)],
  ["25x25 (5x5)", new Shape(5, 5)],
  ["36x36 (6x6)", new Shape(6, 6)],
  ["64x64 (8x8)", new Shape(8, 8)],
];
