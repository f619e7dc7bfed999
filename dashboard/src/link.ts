// A puzzle and its variant rules written as an f-puzzles link, as f-puzzles
// saves boards (LZ-string, base64): the dashboard's generated variants go into
// the puzzle box this way, so Start and Explain send them with their rules and
// a person can open them in f-puzzles or SudokuPad.

import LZString from "lz-string";
import type { Rules } from "./gen/sudoku/v1/sudoku_pb";

/** The f-puzzles name of a cell of a grid `n` wide: R1C1. */
function named(cell: number, n: number): string {
  return `R${Math.floor(cell / n) + 1}C${(cell % n) + 1}`;
}

/** The f-puzzles link of `cells` (0 empty) on a grid `n` wide under `rules`. */
export function fpuzzlesLink(cells: ArrayLike<number>, n: number, rules: Rules): string {
  const text = rules.regions.trim();
  const labels = text ? (text.includes(",") ? text.split(",").map((l) => l.trim()) : Array.from(text.replace(/\s/g, ""))) : null;
  const order = labels ? [...new Set(labels)] : [];
  const grid = Array.from({ length: n }, (_, row) =>
    Array.from({ length: n }, (_, col) => {
      const i = row * n + col;
      const cell: { value?: number; given?: boolean; region?: number } = cells[i] ? { value: cells[i], given: true } : {};
      if (labels) cell.region = order.indexOf(labels[i]);
      return cell;
    }),
  );
  const names = (list: ReadonlyArray<number>) => list.map((cell) => named(cell, n));
  const board: Record<string, unknown> = { size: n, grid };
  if (rules.diagonal) Object.assign(board, { "diagonal+": true, "diagonal-": true });
  if (rules.antiKnight) board.antiknight = true;
  if (rules.antiKing) board.antiking = true;
  if (rules.nonConsecutive) board.nonconsecutive = true;
  const extra = rules.extraRegions.map((region) => ({ cells: names(region.cells) }));
  if (rules.windoku && n === 9) {
    for (const [top, left] of [[1, 1], [1, 5], [5, 1], [5, 5]]) {
      const window = Array.from({ length: 9 }, (_, k) => (top + Math.floor(k / 3)) * 9 + left + (k % 3));
      extra.push({ cells: names(window) });
    }
  }
  if (extra.length) board.extraregion = extra;
  if (rules.cages.length) {
    board.killercage = rules.cages.map((cage) => ({ cells: names(cage.cells), value: cage.sum ? String(cage.sum) : "" }));
  }
  if (rules.thermometers.length) {
    board.thermometer = rules.thermometers.map((line) => ({ lines: [names(line.cells)] }));
  }
  return `https://www.f-puzzles.com/?load=${LZString.compressToBase64(JSON.stringify(board))}`;
}
