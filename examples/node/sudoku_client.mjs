// A Node client for sudokud with @grpc/grpc-js: calls Solve, then streams
// SolveSteps to the end. The proto is loaded at start-up by @grpc/proto-loader,
// so nothing generated is kept in the repository.
//
//   npm ci && node sudoku_client.mjs [--addr 127.0.0.1:50051] [PUZZLE]

import path from "node:path";
import { fileURLToPath } from "node:url";

import grpc from "@grpc/grpc-js";
import protoLoader from "@grpc/proto-loader";

const here = path.dirname(fileURLToPath(import.meta.url));
export const PROTO_DIR = path.resolve(here, "../../proto");
export const DEFAULT_PUZZLE =
  "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";

// The SudokuService client class, from proto/sudoku/v1/sudoku.proto. Enums
// come as their names and 64-bit counters as strings, as grpcurl shows them.
export function loadService() {
  const definition = protoLoader.loadSync("sudoku/v1/sudoku.proto", {
    includeDirs: [PROTO_DIR],
    keepCase: true,
    longs: String,
    enums: String,
    defaults: true,
    oneofs: true,
  });
  return grpc.loadPackageDefinition(definition).sudoku.v1.SudokuService;
}

// A client of the server at `address` over plaintext HTTP/2.
export function connect(address) {
  const SudokuService = loadService();
  return new SudokuService(address, grpc.credentials.createInsecure());
}

// The unary call `method` as a promise.
export function unary(client, method, request, options = {}) {
  return new Promise((resolve, reject) => {
    client[method](request, new grpc.Metadata(), options, (error, reply) =>
      error ? reject(error) : resolve(reply),
    );
  });
}

// Every message of the server stream `method`, once it has ended OK.
export function collect(client, method, request, options = {}) {
  return new Promise((resolve, reject) => {
    const messages = [];
    const call = client[method](request, options);
    call.on("data", (message) => messages.push(message));
    call.on("error", reject);
    call.on("end", () => resolve(messages));
  });
}

async function main() {
  const args = process.argv.slice(2);
  const at = args.indexOf("--addr");
  const address = at >= 0 ? args.splice(at, 2)[1] : "127.0.0.1:50051";
  const puzzle = args[0] ?? DEFAULT_PUZZLE;
  const client = connect(address);
  const reply = await unary(client, "Solve", { puzzle, check_unique: true }, { deadline: Date.now() + 10_000 });
  console.log(reply.outcome, reply.solution, "solutions:", reply.solution_count);
  const messages = await collect(client, "SolveSteps", { puzzle, max_batch: 64 });
  const steps = messages.filter((m) => m.event === "steps").flatMap((m) => m.steps.steps);
  const finished = messages.at(-1).finished;
  console.log("streamed steps:", steps.length, "finished:", finished.outcome);
  client.close();
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    console.error(`${error.code ?? ""} ${error.details ?? error.message}`);
    process.exit(1);
  });
}
