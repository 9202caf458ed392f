//! Waiting for an event and resuming there: how one game is stepped event by event.
//!
//! The interpreter walks the flow recursively, and a live game has no transcript to pull the
//! next event from. When it reaches a waiting point with no event to judge, it stops with
//! `Halt::Wait`, and every statement, loop, call and waiting point the stop passes through on
//! its way out notes where it was (`Resume`): which statement of its block, which round of
//! its loop with the items still to come, which frame of locals. The notes are the game's
//! place, a plain value that can be kept and cloned with the variables. Resuming walks back
//! down the same path without running anything on it again (no statement's fuel, no
//! condition, no argument is paid twice), then judges the event where the game waited: the
//! cost of a step is the cost of its events and of the path's depth, never of the game so far.
//! A transcript never waits, so checking and playing run exactly as they did.

use std::rc::Rc;

use super::eval::Entries;
use super::{Candidate, Changes, Event, Halt, Machine, Note, Outcome, Source, State, Stop, Violation, stop_diag};
use crate::diag::Diag;
use crate::limits::Limits;
use crate::program::Program;
use crate::program::value::Value;
use crate::run::memo::Memo;
use crate::run::rng::Rng;

/// One level of the path to where a game waits, outermost first when resuming.
#[derive(Clone)]
pub(crate) enum Resume {
    /// In the flow, with its locals.
    Flow(Vec<Value>),
    /// The flow has run out: only `always` actions are open.
    AfterFlow,
    /// At statement `at` of a block.
    Block(usize),
    /// In the arm of an `if` its condition chose.
    If(bool),
    /// In a `for` loop's body, with the entries after the current one.
    For(Entries),
    /// In the body of a round of a `while` or a `loop`.
    Round,
    /// In a procedure's body, with its locals.
    Call(Vec<Value>),
    /// In the body of `due` step `due`, with its locals.
    Due(usize, Vec<Value>),
    /// In the effects of the branch that took an event: branch `branch` of the waiting point
    /// or, `ambient`, `always` record `branch` with its own frame.
    Effects { branch: usize, ambient: bool, own: Vec<Value> },
    /// In the `otherwise` block of the waiting point.
    Otherwise,
    /// Where the next event is judged (whether the point may be left without one).
    Wait(bool),
}

/// Events for a game stepped one at a time.
#[derive(Clone, Default)]
pub struct Live {
    /// The event to judge next, until it is taken.
    pub pending: Option<Event>,
    pub mode: LiveMode,
    /// The event a `Draw` chose, once it has.
    pub drawn: Option<Event>,
    /// What a `Draw` may choose from: only this action by this actor, when given.
    pub only: Option<(Value, u16)>,
}

/// What a live game does where it needs an event and has none.
#[derive(Clone, Default)]
pub enum LiveMode {
    /// Stops and waits for one.
    #[default]
    Wait,
    /// Runs as a transcript that ends here: optional points are left, and the game ends.
    End,
    /// Lists what would be judged legal: at an optional point its own actions, then leaves it
    /// and goes on to the next point for the rest (`judged_here`: the actions an earlier
    /// optional point judges, whatever their actor).
    Legal { found: Vec<Candidate>, judged_here: Vec<u16> },
    /// Draws an event as a random playout does (or leaves an optional point), then waits.
    Draw,
}

/// Where running a game got to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Progress {
    /// It waits for an event.
    Waiting,
    /// It ran out of events, or ended.
    Ended,
}

/// A game as it waits: everything a `Machine` holds but the program.
#[derive(Clone)]
pub struct Saved {
    players: Rc<[String]>,
    params: Vec<Value>,
    globals: Vec<Value>,
    finished: bool,
    finished_at: crate::span::Span,
    source: Source,
    violation: Option<Violation>,
    draining: bool,
    fuel: u64,
    limits: Limits,
    rng: Rng,
    explain: bool,
    taken: usize,
    seat_list: Value,
    kind_lists: Vec<Option<Value>>,
    open_windows: Vec<bool>,
    go_on: bool,
    stood: Vec<Violation>,
    notes: Vec<Note>,
    states: Option<Vec<(usize, State)>>,
    changes: Vec<Changes>,
    spent: u64,
    versions: Vec<u32>,
    memos: Vec<Option<Memo<bool>>>,
    remembered: u64,
    helper_memos: Vec<Option<Memo<Value>>>,
    calls_remembered: u64,
    resume: Vec<Resume>,
}

/// How long a game's logs were (`Saved::light`): what a game refused an event goes back to.
pub struct Marks {
    changes: Vec<usize>,
    notes: usize,
}

impl Default for Saved {
    /// No game: what a game's place holds while its state runs on elsewhere.
    fn default() -> Saved {
        Saved {
            players: Rc::from(Vec::<String>::new()),
            params: vec![],
            globals: vec![],
            finished: false,
            finished_at: 0..0,
            source: Source::Transcript { events: vec![], pos: 0 },
            violation: None,
            draining: false,
            fuel: 0,
            limits: Limits::DEFAULT,
            rng: Rng::new(0),
            explain: false,
            taken: 0,
            seat_list: Value::Null,
            kind_lists: vec![],
            open_windows: vec![],
            go_on: false,
            stood: vec![],
            notes: vec![],
            states: None,
            changes: vec![],
            spent: 0,
            versions: vec![],
            memos: vec![],
            remembered: 0,
            helper_memos: vec![],
            calls_remembered: 0,
            resume: vec![],
        }
    }
}

impl Saved {
    /// A copy to run a probe on, or to go back to: everything but what only grows with the
    /// game (each `history` variable keeps its last value, which is what a change is told
    /// from; no notes) and what is only remembered to save work (it is worked out again).
    /// It costs what the state costs, however long the game. With it, how long the logs were.
    pub fn light(&self) -> (Saved, Marks) {
        let marks = Marks { changes: self.changes.iter().map(Vec::len).collect(), notes: self.notes.len() };
        let light = Saved {
            changes: self.changes.iter().map(|c| c.last().cloned().into_iter().collect()).collect(),
            notes: vec![],
            stood: vec![],
            states: None,
            memos: vec![None; self.memos.len()],
            helper_memos: vec![None; self.helper_memos.len()],
            players: self.players.clone(),
            params: self.params.clone(),
            globals: self.globals.clone(),
            finished: self.finished,
            finished_at: self.finished_at.clone(),
            source: self.source.clone(),
            violation: self.violation.clone(),
            draining: self.draining,
            fuel: self.fuel,
            limits: self.limits,
            rng: self.rng.clone(),
            explain: self.explain,
            taken: self.taken,
            seat_list: self.seat_list.clone(),
            kind_lists: self.kind_lists.clone(),
            open_windows: self.open_windows.clone(),
            go_on: self.go_on,
            spent: self.spent,
            versions: self.versions.clone(),
            remembered: self.remembered,
            calls_remembered: self.calls_remembered,
            resume: self.resume.clone(),
        };
        (light, marks)
    }

    /// Gives a light copy back the logs of the game it was made from (`worked`, which ran on
    /// from it), as long as they were when it was made.
    pub fn restore_logs(&mut self, worked: Saved, marks: &Marks) {
        self.changes = worked.changes;
        for (changes, &len) in self.changes.iter_mut().zip(&marks.changes) {
            changes.truncate(len);
        }
        self.notes = worked.notes;
        self.notes.truncate(marks.notes);
    }

    /// The notes so far.
    pub fn notes(&self) -> &[Note] {
        &self.notes
    }

    pub fn set_notes(&mut self, notes: Vec<Note>) {
        self.notes = notes;
    }

    /// Whether a `finish` has run.
    pub fn finished(&self) -> bool {
        self.finished
    }

    /// Events taken so far.
    pub fn taken(&self) -> usize {
        self.taken
    }

    pub fn players(&self) -> &Rc<[String]> {
        &self.players
    }

    pub fn params(&self) -> &[Value] {
        &self.params
    }

    /// Every variable of the rules, as it is now.
    pub fn globals(&self) -> &[Value] {
        &self.globals
    }

    pub fn source_mut(&mut self) -> &mut Source {
        &mut self.source
    }

    /// The generator's state.
    pub fn rng(&self) -> &Rng {
        &self.rng
    }

    pub fn set_rng(&mut self, rng: Rng) {
        self.rng = rng;
    }
}

impl<'p> Machine<'p> {
    /// The game as it waits, to be resumed later (`resume`) with the same program.
    pub fn save(self) -> Saved {
        // Between events no check is being judged, no drawn event waits to be played, no due
        // step and no evaluation is under way: what is left out here is empty.
        Saved {
            players: self.players,
            params: self.params,
            globals: self.globals,
            finished: self.finished,
            finished_at: self.finished_at,
            source: self.source,
            violation: self.violation,
            draining: self.draining,
            fuel: self.fuel,
            limits: self.limits,
            rng: self.rng,
            explain: self.explain,
            taken: self.taken,
            seat_list: self.seat_list,
            kind_lists: self.kind_lists,
            open_windows: self.open_windows,
            go_on: self.go_on,
            stood: self.stood,
            notes: self.notes,
            states: self.states,
            changes: self.changes,
            spent: self.spent,
            versions: self.versions,
            memos: self.memos,
            remembered: self.remembered,
            helper_memos: self.helper_memos,
            calls_remembered: self.calls_remembered,
            resume: self.resume,
        }
    }

    /// A saved game, ready to run on from where it waited.
    pub fn resume(prog: &'p Program, saved: Saved) -> Machine<'p> {
        Machine {
            prog,
            players: saved.players,
            params: saved.params,
            globals: saved.globals,
            finished: saved.finished,
            finished_at: saved.finished_at,
            dead_end: None,
            source: saved.source,
            violation: saved.violation,
            draining: saved.draining,
            settling: false,
            fuel: saved.fuel,
            limits: saved.limits,
            depth: 0,
            nesting: 0,
            rng: saved.rng,
            explain: saved.explain,
            taken: saved.taken,
            seat_list: saved.seat_list,
            kind_lists: saved.kind_lists,
            spare_frames: vec![],
            spare_open: vec![],
            spare_items: vec![],
            open_windows: saved.open_windows,
            go_on: saved.go_on,
            broken_now: vec![],
            stood: saved.stood,
            notes: saved.notes,
            states: saved.states,
            changes: saved.changes,
            spent: saved.spent,
            versions: saved.versions,
            memos: saved.memos,
            remembered: saved.remembered,
            helper_memos: saved.helper_memos,
            calls_remembered: saved.calls_remembered,
            trying: false,
            passed: None,
            left_optional_for: None,
            resume: saved.resume,
            unwound: vec![],
        }
    }

    /// Whether an event broke a rule (the game then ran on as if its events ended there).
    pub fn has_violation(&self) -> bool {
        self.violation.is_some()
    }

    pub fn source_mut(&mut self) -> &mut Source {
        &mut self.source
    }

    /// Events taken so far.
    pub fn taken(&self) -> usize {
        self.taken
    }

    /// What `note` statements wrote so far.
    pub fn notes(&self) -> &[Note] {
        &self.notes
    }

    /// Draws from `seed` from here on (a live game's chance moves and draws).
    pub fn reseed(&mut self, seed: u64) {
        self.rng = Rng::new(seed);
    }

    /// Sets the variables to their first values (before the first `advance`).
    pub fn start(&mut self) -> Result<(), Diag> {
        self.init_globals().map_err(stop_diag)
    }

    /// Runs the flow from its start, or from where the game waited, to the next point where
    /// it waits for an event (a live game) or to its end.
    pub fn advance(&mut self) -> Result<Progress, Diag> {
        if matches!(self.resume.last(), Some(Resume::AfterFlow)) {
            self.resume.pop();
        } else {
            let mut frame = match self.resume.pop() {
                Some(Resume::Flow(frame)) => frame,
                _ => vec![Value::Null; self.prog.flow_locals],
            };
            let prog = self.prog;
            match self.exec_block(&prog.flow, &mut frame).map_err(Stop::halt) {
                Ok(_) | Err(Halt::Finished) => {}
                Err(Halt::End) => return Ok(Progress::Ended),
                Err(Halt::Wait) => return Ok(self.suspend(Resume::Flow(frame))),
                Err(Halt::Spec(d)) => return Err(d),
            }
        }
        match self.wait_after_flow().map_err(Stop::halt) {
            Ok(()) | Err(Halt::End | Halt::Finished) => Ok(Progress::Ended),
            Err(Halt::Wait) => Ok(self.suspend(Resume::AfterFlow)),
            Err(Halt::Spec(d)) => Err(d),
        }
    }

    /// Keeps the path the stop noted on its way out, `top` last: where resuming starts.
    fn suspend(&mut self, top: Resume) -> Progress {
        self.unwound.push(top);
        self.resume = std::mem::take(&mut self.unwound);
        Progress::Waiting
    }

    /// A place to resume that is not on the rules' path: a bug of the engine, reported as a
    /// failure of the run rather than a wrong verdict.
    #[cold]
    pub(super) fn lost_place(&self) -> Stop {
        let message = "the engine lost the place where the game waited (a bug: please report it)";
        Stop::new(Halt::Spec(Diag::new(crate::codes::RUNTIME, message)))
    }

    /// Notes one level of the path when a stop for an event passes through it.
    #[cold]
    pub(super) fn unwinding(&mut self, stop: &Stop, level: impl FnOnce() -> Resume) {
        if stop.is_wait() {
            self.unwound.push(level());
        }
    }

    /// The next event of a live game: the one pending, or what its mode does without one.
    pub(super) fn live_event(
        &mut self,
        c: Option<&'p crate::program::Choose>,
        frame: &mut Vec<Value>,
        has_otherwise: bool,
    ) -> super::Run<Option<Event>> {
        let Source::Live(live) = &mut self.source else { return Err(Stop::end()) };
        if let Some(e) = &live.pending {
            return Ok(Some(e.clone()));
        }
        match live.mode {
            LiveMode::Wait => {
                self.unwound.push(Resume::Wait(has_otherwise));
                Err(Stop::wait())
            }
            LiveMode::End if has_otherwise => Ok(None),
            LiveMode::End => Err(Stop::end()),
            LiveMode::Legal { .. } => self.legal_for_live(c, frame, has_otherwise),
            LiveMode::Draw => self.draw_for_live(c, frame),
        }
    }

    /// Adds what is legal here to a `Legal` listing: leaves an optional point for the next.
    fn legal_for_live(
        &mut self,
        c: Option<&'p crate::program::Choose>,
        frame: &mut Vec<Value>,
        has_otherwise: bool,
    ) -> super::Run<Option<Event>> {
        let point = self.legal_at_point(c, frame, has_otherwise)?;
        if let Source::Live(Live { mode: LiveMode::Legal { found, judged_here }, .. }) = &mut self.source {
            super::legal::add_point(found, judged_here, point);
        }
        if has_otherwise { Ok(None) } else { Err(Stop::end()) }
    }

    /// Draws the next event as a random playout does; the game waits again once it is taken.
    fn draw_for_live(
        &mut self,
        c: Option<&'p crate::program::Choose>,
        frame: &mut Vec<Value>,
    ) -> super::Run<Option<Event>> {
        match self.pick_random(c, frame)? {
            super::legal::Pick::Event(e) => {
                if let Source::Live(live) = &mut self.source {
                    live.pending = Some(e.clone());
                    live.drawn = Some(e.clone());
                }
                Ok(Some(e))
            }
            super::legal::Pick::Otherwise => Ok(None),
            super::legal::Pick::Stop => Err(Stop::end()),
        }
    }

    /// The outcome of the game as it stands: scores, winners, and what the run kept.
    pub fn outcome(&mut self) -> Result<Outcome, Diag> {
        let scores = self.eval_top(&self.prog.scores)?;
        let winners = if self.finished { self.eval_top(&self.prog.winners)? } else { Value::list(vec![]) };
        let events_run = match &self.source {
            Source::Transcript { pos, .. } | Source::Probe { pos, .. } => *pos,
            Source::Random { made, .. } => made.len(),
            Source::Live(_) => self.taken,
        };
        let stood = std::mem::take(&mut self.stood);
        let notes = std::mem::take(&mut self.notes);
        let violation = self.violation.take();
        let states = self.states.take().unwrap_or_default();
        let ended_at = self.finished.then(|| self.finished_at.clone());
        self.refuel();
        Ok(Outcome {
            stood,
            violation,
            finished: self.finished,
            scores,
            winners,
            events_run,
            notes,
            states,
            ended_at,
            dead_end: if self.finished { None } else { self.dead_end.clone() },
            fuel_spent: self.spent,
            conditions_remembered: self.remembered,
            calls_remembered: self.calls_remembered,
        })
    }
}
