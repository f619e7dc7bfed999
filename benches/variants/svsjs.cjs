// Rangsk's SudokuVariantSolverJS (built beside the project per its README:
// `npm install && npm run build`; never committed) on a variant set of
// benches/variants/data: each puzzle's rules written as the f-puzzles board
// both solvers read (the same link `sudokud solve --fpuzzles` takes), then
// its `solve` and `countSolutions` (to two) calls timed, best of three, the
// calls only (not Node's start nor the bundle's load). One JSON line a
// puzzle, as benches/variants/cpsat.py prints them.
//
//   node benches/variants/svsjs.cjs BUNDLE.js SET.jsonl [--links]
//
// With --links it prints each puzzle's f-puzzles link instead.
const fs = require('fs');

const [bundle, file, flag] = process.argv.slice(2);

function cellName(index, n) {
    return `R${Math.floor(index / n) + 1}C${(index % n) + 1}`;
}

// The f-puzzles board of a puzzle of the set (rules in the proto3 JSON form).
function boardOf(item) {
    const rules = item.rules;
    const puzzle = [...item.puzzle].filter(ch => !/\s/.test(ch));
    const n = Math.round(Math.sqrt(puzzle.length));
    const rows = rules.boxRows || (n === 9 ? 3 : 0);
    const cols = rules.boxCols || (n === 9 ? 3 : 0);
    let labels = null;
    if (rules.regions) {
        const text = rules.regions;
        const raw = text.includes(',') ? text.split(',').map(s => s.trim()) : [...text].filter(ch => !/\s/.test(ch));
        const names = [...new Set(raw)];
        labels = raw.map(label => names.indexOf(label));
    }
    const grid = [];
    for (let r = 0; r < n; r++) {
        const row = [];
        for (let c = 0; c < n; c++) {
            const i = r * n + c;
            const entry = {};
            if (puzzle[i] !== '.' && puzzle[i] !== '0') {
                entry.value = parseInt(puzzle[i], 36);
                entry.given = true;
            }
            entry.region = labels ? labels[i] : Math.floor(r / rows) * (n / cols) + Math.floor(c / cols);
            row.push(entry);
        }
        grid.push(row);
    }
    const names = cells => cells.map(cell => cellName(cell, n));
    const board = { size: n, grid };
    if (rules.diagonal) {
        board['diagonal+'] = true;
        board['diagonal-'] = true;
    }
    if (rules.antiKnight) board.antiknight = true;
    if (rules.antiKing) board.antiking = true;
    if (rules.nonConsecutive) board.nonconsecutive = true;
    const extra = (rules.extraRegions || []).map(region => ({ cells: names(region.cells) }));
    if (rules.windoku) {
        for (const [top, left] of [[1, 1], [1, 5], [5, 1], [5, 5]]) {
            const cells = [];
            for (let k = 0; k < 9; k++) cells.push((top + Math.floor(k / 3)) * n + left + (k % 3));
            extra.push({ cells: names(cells) });
        }
    }
    if (extra.length) board.extraregion = extra;
    if (rules.cages) {
        board.killercage = rules.cages.map(cage => {
            const entry = { cells: names(cage.cells) };
            if (cage.sum) entry.value = String(cage.sum);
            return entry;
        });
    }
    if (rules.thermometers) {
        board.thermometer = rules.thermometers.map(line => ({ lines: [names(line.cells)] }));
    }
    return board;
}

function link(board) {
    const lz = require(require.resolve('lz-string', { paths: [require('path').dirname(bundle) + '/..'] }));
    // the bundle's own dependency, from beside it
    return 'https://www.f-puzzles.com/?load=' + lz.compressToBase64(JSON.stringify(board));
}

// One call of the solver, answered through its message callback. One solver
// serves every call, as in its web worker (a second instance in the same
// process gives wrong counts); each call gets a board of its own, since the
// solver writes into the one it is given.
let answer = null;
let solver = null;
function call(method, data) {
    answer = null;
    const started = process.hrtime.bigint();
    return solver[method](data).then(() => [Number(process.hrtime.bigint() - started) / 1000, answer]);
}

async function main() {
    const lines = fs.readFileSync(file, 'utf8').split('\n').filter(Boolean);
    const items = lines.map(line => JSON.parse(line));
    if (flag === '--links') {
        for (const item of items) console.log(link(boardOf(item)));
        return;
    }
    globalThis.self = globalThis; // the UMD bundle is made for web workers
    const exported = require(require('path').resolve(bundle));
    const Solver = exported.default || exported;
    solver = new Solver(message => {
        if (message.result !== 'count' || message.complete) answer = message;
    });
    for (const item of items) {
        const board = boardOf(item);
        let first = Infinity;
        let count = Infinity;
        let right = false;
        let counted = 0;
        for (let round = 0; round < 3; round++) {
            const [firstUs, solved] = await call('solve', { board: structuredClone(board) });
            first = Math.min(first, firstUs);
            right = solved && solved.result === 'solution' && solved.solution.join('') === item.solution;
            const [countUs, countAnswer] = await call('countSolutions', {
                board: structuredClone(board),
                options: { maxSolutions: 2 },
            });
            count = Math.min(count, countUs);
            counted = countAnswer ? countAnswer.count : -1;
        }
        console.log(JSON.stringify({ name: item.name, first_us: first, count_us: count, right, count: counted }));
    }
}

main().catch(error => {
    console.error(error);
    process.exit(1);
});
