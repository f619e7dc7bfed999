// Interop test: Node clients against a running sudokud.
//
//   node interop_test.mjs --addr 127.0.0.1:50051 [--puzzles FILE]
//
// Over gRPC with @grpc/grpc-js: Solve, SolveSteps read to the end (consecutive
// seqs, replay equals the solution), the google.rpc.BadRequest detail of an
// invalid puzzle decoded, a deadline, a cancelled stream, and SolveBatch of a
// whole puzzle file. Over the JSON route with plain fetch: Solve and a bad
// puzzle's Connect error. Prints "N passed, M failed" and exits non-zero on a
// failure.

import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

import grpc from "@grpc/grpc-js";
import protobuf from "protobufjs";

import { DEFAULT_PUZZLE, collect, connect, unary } from "./sudoku_client.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
// Built to defeat row-major backtracking: about 69 million placements.
const DEFEATER = "..............3.85..1.2.......5.7.....4...1...9.......5......73..2.1........4...9";

// Whether `solution` solves `puzzle`: every given kept, every unit 1-9 once.
function isSolution(puzzle, solution) {
  if (!/^[1-9]{81}$/.test(solution)) return false;
  for (let i = 0; i < 81; i++) {
    if (/[1-9]/.test(puzzle[i]) && puzzle[i] !== solution[i]) return false;
  }
  const units = [];
  for (let k = 0; k < 9; k++) {
    const row = [], col = [], box = [];
    for (let i = 0; i < 9; i++) {
      row.push(k * 9 + i);
      col.push(i * 9 + k);
      box.push((Math.floor(k / 3) * 3 + Math.floor(i / 3)) * 9 + (k % 3) * 3 + (i % 3));
    }
    units.push(row, col, box);
  }
  return units.every((unit) => new Set(unit.map((i) => solution[i])).size === 9);
}

// google.rpc.Status and google.rpc.BadRequest, declared by hand: only the
// fields read here (the wire numbers are googleapis').
const rpcTypes = protobuf.Root.fromJSON({
  nested: {
    Any: { fields: { type_url: { type: "string", id: 1 }, value: { type: "bytes", id: 2 } } },
    Status: {
      fields: {
        code: { type: "int32", id: 1 },
        message: { type: "string", id: 2 },
        details: { rule: "repeated", type: "Any", id: 3 },
      },
    },
    FieldViolation: {
      fields: { field: { type: "string", id: 1 }, description: { type: "string", id: 2 } },
    },
    BadRequest: { fields: { field_violations: { rule: "repeated", type: "FieldViolation", id: 1 } } },
  },
});

// The field violations in a gRPC error's `grpc-status-details-bin`.
function badRequest(error) {
  const [bytes] = error.metadata.get("grpc-status-details-bin");
  assert.ok(bytes, "no grpc-status-details-bin on the error");
  const status = rpcTypes.lookupType("Status").decode(bytes);
  const detail = status.details.find((any) => any.type_url.endsWith("/google.rpc.BadRequest"));
  assert.ok(detail, "no google.rpc.BadRequest detail");
  return rpcTypes.lookupType("BadRequest").decode(detail.value).field_violations;
}

async function rejects(promise) {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  assert.fail("the call succeeded");
}

const tests = {
  async solve({ client }) {
    const reply = await unary(client, "Solve", { puzzle: DEFAULT_PUZZLE, check_unique: true }, { deadline: Date.now() + 10_000 });
    assert.equal(reply.outcome, "OUTCOME_SOLVED");
    assert.equal(reply.solution_count, 1);
    assert.ok(isSolution(DEFAULT_PUZZLE, reply.solution));
  },

  async solve_steps_to_the_end({ client }) {
    const messages = await collect(client, "SolveSteps", { puzzle: DEFAULT_PUZZLE, max_batch: 16 });
    assert.equal(messages[0].event, "started");
    assert.equal(messages.at(-1).event, "finished");
    const steps = messages.slice(1, -1).flatMap((message) => message.steps.steps);
    steps.forEach((step, i) => assert.equal(Number(step.seq), i + 1));
    const board = [...DEFAULT_PUZZLE];
    for (const step of steps) {
      board[step.row * 9 + step.col] = step.kind === "STEP_KIND_PLACE" ? String(step.digit) : ".";
    }
    const finished = messages.at(-1).finished;
    assert.equal(finished.outcome, "OUTCOME_SOLVED");
    assert.equal(board.join(""), finished.solution);
  },

  async bad_request_detail({ client }) {
    const puzzle = DEFAULT_PUZZLE.slice(0, 40) + "x" + DEFAULT_PUZZLE.slice(41);
    const error = await rejects(unary(client, "Solve", { puzzle }));
    assert.equal(error.code, grpc.status.INVALID_ARGUMENT);
    assert.match(error.details, /at r5c5 /);
    const [violation] = badRequest(error);
    assert.equal(violation.field, "puzzle");
    assert.match(violation.description, /bad character 'x' at r5c5 /);
  },

  async deadline({ client }) {
    const request = { puzzle: DEFEATER, algorithm: "ALGORITHM_BACKTRACKING" };
    const error = await rejects(unary(client, "Solve", request, { deadline: Date.now() + 100 }));
    assert.equal(error.code, grpc.status.DEADLINE_EXCEEDED);
  },

  async cancelled_stream({ client }) {
    const call = client.SolveSteps({ puzzle: DEFEATER, algorithm: "ALGORITHM_BACKTRACKING", step_interval_ms: 5 });
    const code = await new Promise((resolve) => {
      let seen = 0;
      call.on("data", () => {
        seen += 1;
        if (seen === 3) call.cancel();
      });
      call.on("error", (error) => resolve(error.code));
      call.on("end", () => resolve("ended"));
    });
    assert.equal(code, grpc.status.CANCELLED);
    // The server is fine after it.
    await tests.solve({ client });
  },

  async solve_batch_of_a_file({ client, puzzles }) {
    const lines = fs.readFileSync(puzzles, "utf8").split("\n").map((line) => line.trim()).filter(Boolean);
    const answers = new Map();
    await new Promise((resolve, reject) => {
      const call = client.SolveBatch({ deadline: Date.now() + 60_000 });
      call.on("data", (message) => {
        for (const answer of message.answers) {
          assert.ok(!answers.has(answer.id), `${answer.id} answered twice`);
          answers.set(answer.id, answer);
        }
      });
      call.on("error", reject);
      call.on("end", resolve);
      for (let start = 0; start < lines.length; start += 256) {
        const chunk = lines.slice(start, start + 256).map((puzzle, i) => ({ id: String(start + i), puzzle }));
        call.write({ puzzles: chunk });
      }
      call.end();
    });
    assert.equal(answers.size, lines.length);
    lines.forEach((puzzle, i) => {
      const answer = answers.get(String(i));
      assert.equal(answer.code, 0, `${i}: ${answer.error}`);
      assert.ok(isSolution(puzzle, answer.solution), `line ${i + 1}`);
    });
  },

  async json_route_with_fetch({ address }) {
    const post = (body) =>
      fetch(`http://${address}/v1/solve`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const ok = await post({ puzzle: DEFAULT_PUZZLE, checkUnique: true });
    assert.equal(ok.status, 200);
    const reply = await ok.json();
    assert.equal(reply.outcome, "OUTCOME_SOLVED");
    assert.ok(isSolution(DEFAULT_PUZZLE, reply.solution));
    const bad = await post({ puzzle: "12x" });
    assert.equal(bad.status, 400);
    const error = await bad.json();
    assert.equal(error.code, "invalid_argument");
    assert.match(error.message, /at r1c3 \(character 3 of the text\)/);
    assert.equal(error.details[0].type, "google.rpc.BadRequest");
  },
};

async function main() {
  const args = process.argv.slice(2);
  const flag = (name, fallback) => {
    const at = args.indexOf(name);
    return at >= 0 ? args[at + 1] : fallback;
  };
  const address = flag("--addr", "127.0.0.1:50051");
  const puzzles = flag("--puzzles", path.resolve(here, "../../../shared/data/puzzles/norvig_top95.txt"));
  const client = connect(address);
  let passed = 0;
  let failed = 0;
  for (const [name, test] of Object.entries(tests)) {
    try {
      await test({ client, address, puzzles });
      passed += 1;
      console.log(`ok   ${name}`);
    } catch (error) {
      failed += 1;
      console.log(`FAIL ${name}`);
      console.log(error);
    }
  }
  client.close();
  console.log(`${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

main();
