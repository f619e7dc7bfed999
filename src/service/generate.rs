//! `Generate` and `GenerateMany`: puzzles made on the compute pool under the
//! solve slots, in turns of a few milliseconds (a rating range may take many
//! attempts), each rated by the logical solver; at other sizes the same, with
//! fewer attempts the larger the grid, each puzzle's counts and rating bounded
//! by the client and the deadline. A
//! `GenerateMany` stream is a task that makes its next puzzle only once the
//! client has room for it. Knows nothing of how puzzles are made or rated.

use std::pin::Pin;
use std::time::{Duration, Instant};

use tokio_stream::Stream;
use tonic::{Code, Request, Response, Status};

use tracing::Instrument;

use super::SudokuSolver;
use super::call::{CallEnd, deadline_of, solver_failed, unavailable};
use super::compute::Work;
use super::outlet::{Cut, Outlet};
use super::tracker::OpenStream;
use super::wanted::{GridWanted, Wanted, wanted};
use crate::convert;
use crate::generate::{self, Generator, MAX_ATTEMPTS, Unmade};
use crate::logic::RatingRange;
use crate::pb;
use crate::solver::{Control, Interrupted};

/// The response stream of `GenerateMany`.
pub(super) type GenerateStream =
    Pin<Box<dyn Stream<Item = Result<pb::GenerateManyResponse, Status>> + Send>>;

/// How long one turn on the compute pool makes attempts before it lets others run.
const TURN: Duration = Duration::from_millis(5);

/// Puzzles being made for consecutive seeds, carried from turn to turn: the
/// generator of the current seed, its attempts so far, and the puzzles made.
struct Making {
    wanted: Wanted,
    /// Seeds still to make a puzzle for, the current one (`wanted.seed`) first.
    seeds: u32,
    generator: Generator,
    attempts: u32,
    made: Vec<pb::GenerateResponse>,
}

impl Making {
    fn new(wanted: Wanted, seeds: u32) -> Making {
        Making {
            generator: Generator::new(wanted.seed),
            wanted,
            seeds,
            attempts: 0,
            made: Vec::new(),
        }
    }

    /// Makes puzzles until the turn's time is up, the seeds are done, or the
    /// current seed has used its attempts.
    fn turn(&mut self, bounds: &super::compute::Bounds) -> Result<(), Work> {
        match self.wanted.grid {
            GridWanted::Classic => {}
            GridWanted::Sized(_) => return self.sized_turn(bounds),
            GridWanted::Variant(..) => return self.variant_turn(bounds),
        }
        let turn_ends = Instant::now() + TURN;
        while self.seeds > 0 && self.attempts < MAX_ATTEMPTS && Instant::now() < turn_ends {
            if let Some(why) = bounds.interrupted() {
                return Err(Work::Interrupted(why));
            }
            self.attempts += 1;
            let wanted = self.wanted.clone();
            let mut why = None;
            let attempt =
                self.generator
                    .attempt(wanted.symmetry, wanted.minimal, wanted.range, || {
                        why = bounds.interrupted();
                        why.is_none()
                    });
            if let Some(why) = why {
                return Err(Work::Interrupted(why));
            }
            if let Ok(Some((generated, rating))) = attempt {
                let made =
                    convert::generate_response(&generated, &rating, wanted.seed, wanted.minimal);
                self.next_seed(made);
            }
        }
        Ok(())
    }

    /// Keeps a puzzle made and moves on to the next seed.
    fn next_seed(&mut self, mut made: pb::GenerateResponse) {
        if made.rules.is_none() {
            made.rules = self.wanted.rules.clone();
        }
        self.made.push(made);
        self.seeds -= 1;
        self.wanted.seed = self.wanted.seed.wrapping_add(1);
        self.generator = Generator::new(self.wanted.seed);
        self.attempts = 0;
    }

    /// Puzzles of another size until the turn's time is up (at least one
    /// attempt: at most 16x16 one takes milliseconds to a second), each made
    /// and rated within [`shy_of_deadline`]'s bounds.
    fn sized_turn(&mut self, bounds: &super::compute::Bounds) -> Result<(), Work> {
        let GridWanted::Sized(notation) = self.wanted.grid.clone() else {
            return Ok(());
        };
        let control = shy_of_deadline(bounds);
        let turn_ends = Instant::now() + TURN;
        let cap = generate::attempts_for(self.wanted.shape());
        loop {
            self.attempts += 1;
            let wanted = &self.wanted;
            let attempt = self.generator.attempt_sized(
                notation.shape(),
                wanted.symmetry,
                wanted.minimal,
                wanted.range,
                &control,
            );
            match attempt {
                Ok(Some((generated, rating))) => {
                    let seed = wanted.seed;
                    let made = convert::generated_grid_response(
                        &notation,
                        &generated,
                        rating.as_ref(),
                        seed,
                    );
                    self.next_seed(made);
                }
                Ok(None) => {}
                Err(_) => {
                    return Err(Work::Interrupted(
                        bounds.interrupted().unwrap_or(Interrupted::DeadlinePassed),
                    ));
                }
            }
            if self.seeds == 0 || self.attempts >= cap || Instant::now() >= turn_ends {
                return Ok(());
            }
        }
    }

    /// Variant puzzles until the turn's time is up (at least one attempt),
    /// each made (and rated, when a rating bound or level is asked for)
    /// within the client's bounds as [`Making::sized_turn`] makes its own,
    /// with the full rules of each in its answer.
    fn variant_turn(&mut self, bounds: &super::compute::Bounds) -> Result<(), Work> {
        let GridWanted::Variant(notation, rules) = self.wanted.grid.clone() else {
            return Ok(());
        };
        let control = shy_of_deadline(bounds);
        let turn_ends = Instant::now() + TURN;
        let cap = generate::attempts_for(self.wanted.shape());
        loop {
            self.attempts += 1;
            let wanted = &self.wanted;
            let made = self.generator.attempt_variant(
                &rules,
                wanted.symmetry,
                wanted.minimal,
                wanted.range,
                &control,
            );
            let made = match made {
                Ok(made) => made,
                Err(Unmade::NoSolution) => {
                    return Err(Work::Refused(Status::failed_precondition(
                        "the rules admit no solution: no puzzle can be made under them",
                    )));
                }
                Err(Unmade::Stopped(why)) => {
                    return Err(Work::Interrupted(bounds.interrupted().unwrap_or(why)));
                }
            };
            if let Some((made, rating)) = made {
                let rules = wanted.rules.clone().unwrap_or_default();
                let response = convert::generated_variant_response(
                    &notation,
                    &made,
                    rules,
                    rating.as_ref(),
                    wanted.seed,
                );
                self.next_seed(response);
            }
            if self.seeds == 0 || self.attempts >= cap || Instant::now() >= turn_ends {
                return Ok(());
            }
        }
    }
}

/// The bounds of one puzzle's work: the client's, less a tenth of the time
/// left (at most a second), so a puzzle not yet minimal, or not yet rated
/// when any rating will do, still comes back in time.
fn shy_of_deadline(bounds: &super::compute::Bounds) -> Control<'_> {
    let mut control = bounds.control();
    control.deadline = control.deadline.map(|deadline| {
        let left = deadline.saturating_duration_since(Instant::now());
        deadline - (left / 10).min(Duration::from_secs(1))
    });
    control
}

impl SudokuSolver {
    pub(super) async fn generate_unary(
        &self,
        request: Request<pb::GenerateRequest>,
    ) -> Result<Response<pb::GenerateResponse>, Status> {
        let deadline = deadline_of(request.metadata());
        let wanted = wanted(&request.into_inner())?;
        let making = Making::new(wanted, 1);
        let mut made = self.make_some(making, deadline).await?.made;
        Ok(Response::new(made.pop().ok_or_else(solver_failed)?))
    }

    /// Goes on with `making` in turns on the compute pool until it has made at
    /// least one more puzzle (a turn makes as many as it can in its time).
    async fn make_some(
        &self,
        mut making: Making,
        deadline: Option<Instant>,
    ) -> Result<Making, Status> {
        loop {
            making = self
                .compute(deadline, move |bounds| {
                    making.turn(bounds)?;
                    Ok(making)
                })
                .await?;
            if !making.made.is_empty() || making.seeds == 0 {
                return Ok(making);
            }
            let shape = making.wanted.shape();
            let cap = generate::attempts_for(shape);
            if making.attempts >= cap {
                let RatingRange { low, high } = making.wanted.range;
                let high = if high == f64::MAX {
                    "any".to_owned()
                } else {
                    format!("{high:.1}")
                };
                return Err(Status::resource_exhausted(format!(
                    "no puzzle of {shape} rated {low:.1} to {high} found in {cap} attempts; \
                     widen the range"
                )));
            }
        }
    }

    /// Checks the request and starts the task that streams its puzzles.
    pub(super) async fn open_generate_many(
        &self,
        request: Request<pb::GenerateManyRequest>,
        mut end: CallEnd,
    ) -> Result<Response<GenerateStream>, Status> {
        let deadline = self.stream_deadline(deadline_of(request.metadata()));
        let r = request.into_inner();
        let admitted = wanted(&convert::generate_request_of(&r))
            .and_then(|wanted| Ok((wanted, self.admit_open_stream(false)?)));
        let (wanted, open) = match admitted {
            Ok(admitted) => admitted,
            Err(status) => {
                end.set(status.code());
                return Err(status);
            }
        };
        let (out, receiver) = self.outlet(deadline);
        let span = end.log.span.clone();
        end.unfinished(Code::Internal);
        let task = Many {
            service: self.clone(),
            wanted,
            count: r.count.max(1),
            end: ManyEnd {
                call: end,
                _open: open,
            },
        };
        tokio::spawn(task.run(out).instrument(span));
        Ok(Response::new(receiver))
    }
}

/// The task of one `GenerateMany` stream.
struct Many {
    service: SudokuSolver,
    wanted: Wanted,
    count: u32,
    end: ManyEnd,
}

/// Held by the task: the call is closed, then the stream released.
struct ManyEnd {
    call: CallEnd,
    _open: OpenStream,
}

impl Many {
    async fn run(mut self, out: Outlet<pb::GenerateManyResponse>) {
        let code = match self.send(&out).await {
            Ok(Ok(())) => Code::Ok,
            Ok(Err(status)) | Err(Some(status)) => {
                let code = status.code();
                match out.send_closing(Err(status)).await {
                    Ok(()) => code,
                    Err(()) => Code::Cancelled,
                }
            }
            Err(None) => Code::Cancelled,
        };
        self.end.call.set(code);
    }

    /// Each puzzle once the client has room for it; puzzle `i` is the one
    /// `Generate` gives for the seed `seed + i`. `Err(None)`: the client left.
    async fn send(
        &mut self,
        out: &Outlet<pb::GenerateManyResponse>,
    ) -> Result<Result<(), Status>, Option<Status>> {
        let cut = |cut: Cut| match cut {
            Cut::Gone => None,
            Cut::Deadline => Some(Status::deadline_exceeded(
                "deadline exceeded before every puzzle was made",
            )),
            Cut::Shutdown => Some(unavailable()),
        };
        let mut sent = 0u32;
        while sent < self.count {
            let permit = out.room().await.map_err(cut)?;
            // As many as the client has room for, made in the same turns.
            let room = (1 + out.free()).min((self.count - sent) as usize) as u32;
            let wanted = Wanted {
                seed: self.wanted.seed.wrapping_add(u64::from(sent)),
                ..self.wanted.clone()
            };
            let making = Making::new(wanted, room);
            let made = tokio::select! {
                made = self.service.make_some(making, out.deadline) => made,
                why = out.interruption() => return Err(cut(why)),
            };
            let made = match made {
                Ok(making) => making.made,
                Err(status) => return Ok(Err(status)),
            };
            let mut permit = Some(permit);
            for one in made {
                let message = Ok(convert::generate_many_response(one));
                match permit.take() {
                    Some(permit) => permit.send(message),
                    None => out.send_now(message).map_err(|()| None)?,
                }
                sent += 1;
            }
            self.end.call.sent(u64::from(sent));
        }
        Ok(Ok(()))
    }
}
