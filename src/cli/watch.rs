//! `sudokud watch`: one `SolveSteps` stream shown live in the terminal (or one
//! line a step through a pipe), then the final grid and statistics.

use std::io::{self, BufWriter, IsTerminal};

use terminal_size::{Height, Width, terminal_size};

use super::args::WatchArgs;
use super::config::interval_ms;
use super::runtime::{CliResult, Threads, runtime};
use crate::watch::{View, fits};

pub(super) fn run(args: WatchArgs) -> CliResult {
    let puzzle = if args.puzzle == "-" {
        let mut line = String::new();
        io::stdin().read_line(&mut line)?;
        line.trim().to_owned()
    } else {
        args.puzzle.clone()
    };
    let request = request_of(&args, puzzle)?;
    let shape = linked_shape(&request).unwrap_or_else(|| args.grid.shape());
    let pictured = request.rules.as_ref().is_some_and(|rules| {
        let shape_only = crate::pb::Rules {
            box_rows: rules.box_rows,
            box_cols: rules.box_cols,
            symbols: rules.symbols.clone(),
            ..Default::default()
        };
        *rules != shape_only
    });
    let target = args.connect.target(args.auth_token.clone())?;
    let view = match (io::stdout().is_terminal(), terminal_size()) {
        (false, _) => View::Lines,
        (true, Some((Width(columns), Height(rows)))) if !fits(shape, pictured, columns, rows) => {
            eprintln!(
                "the {shape} grid does not fit this {columns}x{rows} terminal: one line a step"
            );
            View::Lines
        }
        (true, _) => View::Terminal,
    };
    runtime(Threads::One)?.block_on(async {
        let channel = target.connect(None).await?;
        let mut out = BufWriter::new(io::stdout().lock());
        let reconnect = crate::watch::Reconnect {
            attempts: args.reconnects,
            ..Default::default()
        };
        crate::watch::watch(
            channel,
            request,
            target.authorization()?,
            view,
            reconnect,
            &mut out,
        )
        .await
    })?;
    Ok(())
}

/// The grid's shape when the request's rules are an f-puzzles link, read
/// here to size the picture (a link this side cannot read is left to the
/// server to refuse by name).
fn linked_shape(request: &crate::pb::SolveStepsRequest) -> Option<crate::board::Shape> {
    let link = &request.rules.as_ref()?.fpuzzles;
    if link.is_empty() {
        return None;
    }
    let imported = crate::convert::read_fpuzzles(link).ok()?;
    let (notation, _) = crate::convert::rules_from_pb(&imported.rules).ok()?;
    Some(notation.shape())
}

/// The stream to watch: `puzzle` on the grid of `--box`, or an f-puzzles
/// link's puzzle and rules, with the engine the server picks unless one is
/// asked for (the row-major ones take no variants).
fn request_of(
    args: &WatchArgs,
    puzzle: String,
) -> Result<crate::pb::SolveStepsRequest, Box<dyn std::error::Error + Send + Sync>> {
    let notation = args.grid.notation()?;
    let engine = args.algorithm.engine_for(args.grid.shape());
    let mut request = crate::pb::SolveStepsRequest {
        puzzle,
        algorithm: crate::convert::algorithm_to_pb(engine).into(),
        max_steps: args.max_steps,
        max_batch: 0,
        step_interval_ms: interval_ms(args.pace),
        rules: notation.as_ref().map(|_| args.grid.rules()),
        ..Default::default()
    };
    if crate::convert::is_link(&request.puzzle) {
        let link = std::mem::take(&mut request.puzzle);
        request.rules = Some(crate::pb::Rules {
            fpuzzles: link,
            ..Default::default()
        });
        request.algorithm = args
            .algorithm
            .0
            .map_or(0, |chosen| crate::convert::algorithm_to_pb(chosen).into());
    }
    Ok(request)
}

#[cfg(test)]
mod tests {
    use super::linked_shape;
    use crate::pb::{Rules, SolveStepsRequest};

    fn by_link(link: String) -> SolveStepsRequest {
        SolveStepsRequest {
            rules: Some(Rules {
                fpuzzles: link,
                ..Default::default()
            }),
            ..Default::default()
        }
    }

    #[test]
    fn a_link_sizes_the_picture_by_its_own_grid() {
        let row = vec![serde_json::json!({}); 6];
        let board = serde_json::json!({"size": 6, "grid": vec![row; 6]});
        let payload = lz_str::compress_to_base64(board.to_string().as_str());
        let shape = linked_shape(&by_link(format!("https://f-puzzles.com/?load={payload}")));
        assert_eq!(shape.map(|shape| shape.size()), Some(6));
        assert_eq!(linked_shape(&by_link("load=%%".to_owned())), None);
        assert_eq!(linked_shape(&SolveStepsRequest::default()), None);
    }
}
