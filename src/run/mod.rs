//! The interpreter: runs a program's flow for one game, consuming transcript events at
//! every `choose`, and lists the legal actions wherever the game waits.

mod eval;
mod exec;
mod fast;
mod in_place;
mod legal;
mod memo;
pub mod rng;
mod show;
pub mod suspend;

pub use legal::Candidate;
pub use memo::Carried;
pub use show::{show, show_plain, shown};
pub use suspend::{Live, LiveMode, Progress, Saved};

use std::rc::Rc;

use crate::codes;
use crate::diag::Diag;
use crate::limits::Limits;
use crate::program::value::Value;
use crate::program::{E, Program, X};
use crate::run::rng::Rng;
use crate::span::Span;

/// The default fuel between two events (`Limits::fuel_per_event`: far above any real game,
/// and reached in well under a second), which is also what compiling a rules file may spend
/// evaluating its constants (`resolve`).
pub const FUEL_PER_EVENT: u64 = Limits::DEFAULT.fuel_per_event;
/// Deepest nesting of evaluations and statements at run time (calls times the depth of the
/// expressions in each): a stop before the stack runs out, with a diagnostic. Not one of the
/// `Limits`: it guards the stack, whatever a game may cost.
pub const MAX_NESTING: u32 = 2_000;

/// One transcript event, decoded against the action's shape.
#[derive(Debug, Clone)]
pub struct Event {
    pub actor: Value,
    pub action: u16,
    pub arg: Value,
    pub index: usize,
    pub line: usize,
    pub span: Span,
}

impl Event {
    /// A legal action as an event (its place in a transcript left to the caller).
    pub fn of(k: &Candidate) -> Event {
        Event { actor: k.actor.clone(), action: k.action, arg: k.arg.clone(), index: 0, line: 0, span: 0..0 }
    }
}

/// The first broken rule.
#[derive(Debug, Clone)]
pub struct Violation {
    pub rule: u16,
    pub event: usize,
    pub message: String,
    /// Where the rules file states what was broken.
    pub spec_span: Span,
    /// The first legal actions in words (for the help line).
    pub legal: Vec<String>,
    /// The legal actions, up to `Limits::legal_events` of them, and how many there were.
    pub legal_events: Vec<Candidate>,
    pub legal_count: usize,
    /// The event met a point that may be left without an event, and what was legal is that of
    /// the point where it was judged alone: what a live game listed before it needs the events
    /// before it run again (`Machine::list_as_live` after a check; `Game` asks `check`).
    pub listed_where_judged: bool,
    /// The variables of the rules' `view` just before the event.
    pub state: State,
    /// For each `history` variable the broken check reads: its first value, then each change
    /// with the event after which it was seen.
    pub history: Vec<(u16, Changes)>,
}

/// A variable's values over a game: (the event after which it was seen, the value).
pub type Changes = Vec<(Option<usize>, Value)>;

/// Where events come from: a transcript, or random legal choices.
#[derive(Clone)]
pub enum Source {
    Transcript {
        events: Vec<Event>,
        pos: usize,
    },
    Random {
        rng: Rng,
        limit: usize,
        made: Vec<Event>,
    },
    /// Runs the events, then records what is legal where the next one would be judged, as a
    /// live game lists it: from a point that may be left without an event, its own actions and
    /// then those of the points after it (`judged`: the actions open at the points left, whose
    /// events are judged there and not later).
    Probe {
        events: Vec<Event>,
        pos: usize,
        legal: Option<Vec<Candidate>>,
        judged: Vec<u16>,
    },
    /// A game stepped one event at a time (`suspend`).
    Live(Live),
}

/// Why running stopped early: one pointer. Every evaluation returns a `Result` carrying
/// this, and with a one-word error a `Run<Value>` is two words instead of three.
pub struct Stop(Box<Halt>);

/// What a `Stop` stopped for.
pub enum Halt {
    /// No more events to consume at a point that needs one.
    End,
    /// `finish` ran: the game is over at once, wherever the flow was.
    Finished,
    /// The rules file misbehaved while running (a type error, a runaway loop).
    Spec(Diag),
    /// A live game needs an event it does not have yet: it waits (`suspend`).
    Wait,
}

impl Stop {
    fn new(halt: Halt) -> Stop {
        Stop(Box::new(halt))
    }

    fn end() -> Stop {
        Stop::new(Halt::End)
    }

    fn finished() -> Stop {
        Stop::new(Halt::Finished)
    }

    fn wait() -> Stop {
        Stop::new(Halt::Wait)
    }

    fn is_wait(&self) -> bool {
        matches!(*self.0, Halt::Wait)
    }

    fn halt(self) -> Halt {
        *self.0
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Ctl {
    Next,
    Break,
    Continue,
    Again,
}

type Run<T> = Result<T, Stop>;

/// One game being run.
pub struct Machine<'p> {
    pub prog: &'p Program,
    pub players: Rc<[String]>,
    pub params: Vec<Value>,
    pub globals: Vec<Value>,
    pub finished: bool,
    /// The `finish` statement that ended the game, once it has.
    finished_at: Span,
    /// Where a random game found nothing legal to draw, before it finished.
    dead_end: Option<DeadEnd>,
    pub source: Source,
    pub violation: Option<Violation>,
    /// Set after a violation: the rest runs as if the transcript had ended there.
    draining: bool,
    /// A `due` step is running: its own waiting points do not look for other dues.
    settling: bool,
    fuel: u64,
    /// What the game may cost (`set_limits`): read here, not through the checker, on every
    /// refill, call and list built.
    limits: Limits,
    depth: u32,
    /// Evaluations and blocks under way, one inside another (`MAX_NESTING`).
    nesting: u32,
    rng: Rng,
    /// Whether failing checks write their messages (not while listing legal actions).
    explain: bool,
    /// Events taken so far (`events_taken` in the rules).
    taken: usize,
    /// `players` and each card kind as lists, built once (a kind when it is first read).
    seat_list: Value,
    kind_lists: Vec<Option<Value>>,
    /// Frames of finished helper calls, reused so that a call allocates nothing.
    spare_frames: Vec<Vec<Value>>,
    /// The list of the branches open at the last event, kept empty for the next one, so that
    /// judging an event allocates none (`legal::open_branches`).
    spare_open: Vec<legal::OpenBranch<'p>>,
    /// The items of a list written on the right of `x = x + [...]`, kept for the next one
    /// (`in_place`).
    spare_items: Vec<Value>,
    /// For each action, whether its `window` records are open.
    open_windows: Vec<bool>,
    /// Go on past a broken rule that `stands`, the move played as recorded.
    go_on: bool,
    /// The standing checks the event being judged broke.
    broken_now: Vec<Broken<'p>>,
    /// The violations gone past so far.
    stood: Vec<Violation>,
    /// What `note` statements wrote so far.
    notes: Vec<Note>,
    /// The state after each event (`record_states`): event index, the view's variables.
    states: Option<Vec<(usize, State)>>,
    /// For each `history` variable, its values so far.
    changes: Vec<Changes>,
    /// The fuel burnt by the events already judged (each event starts with a full tank).
    spent: u64,
    /// For each `var`, how many times it has been assigned: a remembered condition holds
    /// while the variables it reads keep their counts.
    versions: Vec<u32>,
    /// The last value of each `due` condition, then of each `always` guard, then of each
    /// quantifier numbered, with what it read.
    memos: Vec<Option<memo::Memo<bool>>>,
    /// Whether candidates are being tried (`passes`): only then is a quantifier asked again
    /// with nothing changed, one candidate after another, and only then is it remembered.
    trying: bool,
    /// How many conditions were answered from memory.
    remembered: u64,
    /// The last call of each helper that may be remembered, by `fn` index.
    helper_memos: Vec<Option<memo::Memo<Value>>>,
    /// How many helper calls were answered from memory.
    calls_remembered: u64,
    /// In a random playout: the event just drawn passed the checks of the branch it will be
    /// judged against, with the names they bound.
    passed: Option<Passed<'p>>,
    /// The transcript's event that left a point which may be left without an event, if the
    /// latest did: what was legal for it is what a live game listed there (`legal_before`).
    left_optional_for: Option<usize>,
    /// Where a live game waits, outermost level last: what resuming walks back down.
    resume: Vec<suspend::Resume>,
    /// The levels a stop for an event has passed through so far, innermost first.
    unwound: Vec<suspend::Resume>,
}

/// A drawn event's branch, whether it is an `always` one, and the frame its checks filled
/// (an `always` branch's own; empty for a branch of the waiting point, which uses the flow's).
struct Passed<'p> {
    branch: &'p crate::program::Branch,
    ambient: bool,
    frame: Vec<Value>,
}

/// The variables of a rules' `view`, as (variable, value).
pub type State = Vec<(u16, Value)>;

/// A standing check the event being judged broke: the rule, its message, where it is, and its
/// `costs` block with the names the checks had at that point.
struct Broken<'p> {
    rule: u16,
    message: String,
    at: Span,
    cost: Option<(&'p crate::program::Block, Vec<Value>)>,
}

/// A line a `note` statement wrote for the verdict.
#[derive(Debug, Clone, PartialEq)]
pub struct Note {
    pub message: String,
    /// The last event judged when the note was written (none before the first).
    pub event: Option<usize>,
    /// The `note` statement in the rules file.
    pub spec_span: Span,
}

/// What running a whole game gives.
pub struct Outcome {
    /// Violations of rules that let the move stand, gone past in order (`let_moves_stand`).
    pub stood: Vec<Violation>,
    /// The violation the game stopped at.
    pub violation: Option<Violation>,
    pub finished: bool,
    pub scores: Value,
    pub winners: Value,
    pub events_run: usize,
    /// What the rules' `note` statements wrote, in order.
    pub notes: Vec<Note>,
    /// The state after each event judged, when recorded (`record_states`).
    pub states: Vec<(usize, State)>,
    /// The `finish` statement that ended the game, once it has.
    pub ended_at: Option<Span>,
    /// A random game that stopped, not finished, at a waiting point where nothing was
    /// legal: where (a dead end, a bug of the rules).
    pub dead_end: Option<DeadEnd>,
    /// The fuel the whole run burnt: the work the fuel limit counts, a property of the rules
    /// and the events alone, so a faster evaluator must burn exactly as much.
    pub fuel_spent: u64,
    /// How many `due` conditions and `always` guards were answered from memory instead of
    /// being evaluated again.
    pub conditions_remembered: u64,
    /// How many helper calls were answered from memory.
    pub calls_remembered: u64,
}

/// Where a random game found nothing legal before it finished.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DeadEnd {
    /// At this `choose`.
    Choose(Span),
    /// After the flow ran out without `finish`, where only the `always` records are open
    /// (no `choose` waits): at the flow's last statement (empty for an empty flow).
    AfterFlow(Span),
}

impl<'p> Machine<'p> {
    pub fn new(prog: &'p Program, players: Rc<[String]>, params: Vec<Value>, source: Source) -> Self {
        let rng = match &source {
            Source::Random { rng, .. } => rng.clone(),
            _ => Rng::new(0),
        };
        let seat_list = Value::list((0..players.len()).map(|i| Value::Player(i as u8)).collect());
        // Built when first read: many machines (a parameter's bound, a default) read none.
        let kind_lists = vec![None; prog.kinds.len()];
        Machine {
            prog,
            players,
            params,
            globals: vec![],
            finished: false,
            finished_at: 0..0,
            dead_end: None,
            source,
            violation: None,
            draining: false,
            settling: false,
            fuel: Limits::DEFAULT.fuel_per_event,
            limits: Limits::DEFAULT,
            depth: 0,
            nesting: 0,
            rng,
            explain: true,
            taken: 0,
            seat_list,
            kind_lists,
            spare_frames: vec![],
            spare_open: vec![],
            spare_items: vec![],
            open_windows: vec![false; prog.actions.len()],
            go_on: false,
            broken_now: vec![],
            stood: vec![],
            notes: vec![],
            states: None,
            changes: vec![],
            spent: 0,
            versions: vec![0; prog.vars.len()],
            memos: vec![None; prog.dues.len() + prog.always.len() + prog.remembered.quantifiers.len()],
            passed: None,
            left_optional_for: None,
            remembered: 0,
            helper_memos: vec![None; prog.fns.len()],
            calls_remembered: 0,
            trying: false,
            resume: vec![],
            unwound: vec![],
        }
    }

    /// Checks on past every broken rule that `stands` (`check --all`): the move is played as
    /// recorded and each such violation is kept, in order.
    pub fn let_moves_stand(&mut self) {
        self.go_on = true;
    }

    /// Runs the game within `limits` instead of the defaults (before `run`).
    pub fn set_limits(&mut self, limits: &Limits) {
        self.limits = *limits;
        self.fuel = limits.fuel_per_event;
    }

    /// Keeps the state after every event of a transcript (for a replay).
    pub fn record_states(&mut self) {
        self.states = Some(vec![]);
    }

    /// Runs the flow to the end of the events (or of the game) and reports.
    pub fn run(&mut self) -> Result<Outcome, Diag> {
        self.start()?;
        self.advance()?;
        self.list_as_live();
        self.outcome()
    }

    fn eval_top(&mut self, x: &X) -> Result<Value, Diag> {
        self.refuel();
        self.eval(x, &mut vec![]).map_err(stop_diag)
    }

    fn init_globals(&mut self) -> Run<()> {
        let mut globals = Vec::with_capacity(self.prog.vars.len());
        for var in &self.prog.vars {
            let init = self.eval(&var.init, &mut vec![])?;
            globals.push(if var.per_player { self.per_player(&init) } else { init });
        }
        self.changes = self.prog.history.iter().map(|&g| vec![(None, globals[g as usize].clone())]).collect();
        self.globals = globals;
        Ok(())
    }

    /// A map from every player to the same value.
    fn per_player(&self, value: &Value) -> Value {
        Value::map((0..self.players.len()).map(|i| (Value::Player(i as u8), value.clone())).collect())
    }

    /// Keeps what a `note` statement wrote, up to `Limits::notes`; the note past the last kept
    /// says so in its place. A `note` in a loop could otherwise write millions of lines of up
    /// to `MAX_SHOWN` characters each within the fuel (the rest are still written, so the fuel
    /// is the same).
    fn keep_note(&mut self, message: String, at: &Span) {
        let event = self.taken.checked_sub(1);
        let most = self.limits.notes;
        let message = match self.notes.len() {
            n if n < most => message,
            n if n == most => format!("… further notes were not kept: a game keeps at most {most}"),
            _ => return,
        };
        self.notes.push(Note { message, event, spec_span: at.clone() });
    }

    /// Counts the fuel burnt since the last refill and fills the tank for the next event.
    fn refuel(&mut self) {
        self.spent += self.limits.fuel_per_event.saturating_sub(self.fuel);
        self.fuel = self.limits.fuel_per_event;
    }

    /// Spends one unit of fuel; a runaway rules file stops here with a diagnostic.
    #[inline]
    fn burn(&mut self, span: &Span) -> Run<()> {
        if self.fuel == 0 {
            return Err(self.out_of_fuel(span));
        }
        self.fuel -= 1;
        Ok(())
    }

    /// Spends fuel for `n` items of work done at once (a built-in building a list).
    fn burn_n(&mut self, n: usize, span: &Span) -> Run<()> {
        let n = n as u64;
        if self.fuel < n {
            self.fuel = 0;
            return Err(self.out_of_fuel(span));
        }
        self.fuel -= n;
        Ok(())
    }

    /// Steps one level deeper into evaluation; the caller steps out (`nesting -= 1`) when
    /// this succeeds.
    #[inline]
    fn enter(&mut self, span: &Span) -> Run<()> {
        if self.nesting >= MAX_NESTING {
            return Err(self.too_deep_run(span));
        }
        self.nesting += 1;
        Ok(())
    }

    #[cold]
    fn too_deep_run(&self, span: &Span) -> Stop {
        self.past_limit(
            format!("the rules nest calls and expressions more than {MAX_NESTING} deep"),
            span,
            "reached here",
            "a helper that calls itself needs a case that stops; deep recursion can often be a `for` loop",
        )
    }

    /// A `shinpan::spec::limit` diagnostic pointing into the rules file.
    fn past_limit(&self, message: String, span: &Span, label: &str, help: &str) -> Stop {
        let diag = Diag::new(codes::LIMIT, message).label(span.clone(), label).help(help);
        Stop::new(Halt::Spec(self.prog.source.place(diag)))
    }

    /// Refuses to keep a value nested deeper than `Limits::value_depth` (real games nest three
    /// or four levels; every value is compared, shown and dropped by recursion, so the bound
    /// keeps those within the stack).
    fn shallow_enough(&self, v: &Value, span: &Span) -> Run<()> {
        if v.deeper_than(self.limits.value_depth) {
            return Err(self.too_deep_value(span));
        }
        Ok(())
    }

    #[cold]
    fn too_deep_value(&self, span: &Span) -> Stop {
        self.past_limit(
            format!("the rules build a value nested more than {} lists or maps deep", self.limits.value_depth),
            span,
            "this value",
            "a value that wraps itself in a loop (`x = [x]`) grows without end; keep the items in one flat list",
        )
    }

    /// Spends fuel for the work a value stands for (showing it, comparing it, building it).
    fn burn_weight(&mut self, v: &Value, span: &Span) -> Run<()> {
        let w = v.weight(usize::try_from(self.fuel).unwrap_or(usize::MAX));
        self.burn_n(w, span)
    }

    #[cold]
    fn overflow(&self, x: &X) -> Stop {
        self.spec_error(&x.span, "arithmetic overflow or division by zero".into())
    }

    #[cold]
    fn out_of_fuel(&self, span: &Span) -> Stop {
        let steps = self.limits.fuel_per_event;
        let diag = Diag::new(codes::FUEL, format!("the rules ran {steps} steps without waiting for an event"))
            .label(span.clone(), "still running here")
            .help("a loop that never reaches a `choose`, `break` or its end: bound it by a collection or a condition that changes");
        Stop::new(Halt::Spec(self.prog.source.place(diag)))
    }

    /// A frame of `size` nulls, from the spare ones when there is one.
    fn take_frame(&mut self, size: usize) -> Vec<Value> {
        let mut frame = self.spare_frames.pop().unwrap_or_default();
        frame.clear();
        // Made, not cloned: cloning a value would ask its kind for every slot.
        frame.resize_with(size, || Value::Null);
        frame
    }

    fn give_frame(&mut self, frame: Vec<Value>) {
        // An empty frame that never held anything spares no allocation.
        if frame.capacity() > 0 && self.spare_frames.len() < 64 {
            self.spare_frames.push(frame);
        }
    }

    pub fn spec_error(&self, span: &Span, message: String) -> Stop {
        Stop::new(Halt::Spec(
            self.prog.source.place(Diag::new(codes::RUNTIME, message).label(span.clone(), "while evaluating this")),
        ))
    }
}

fn stop_diag(s: Stop) -> Diag {
    match s.halt() {
        Halt::Spec(d) => d,
        Halt::End => Diag::new(codes::RUNTIME, "the rules waited for an event where none may come"),
        Halt::Finished => Diag::new(codes::RUNTIME, "`finish` ran where no game is under way"),
        Halt::Wait => Diag::new(codes::RUNTIME, "the rules waited for an event where none may come"),
    }
}

/// Evaluates expressions that need no game (card attributes and codes) while a rules file is
/// compiled. All of them together get one budget of fuel, as the steps between two events do.
pub struct Constants<'p> {
    machine: Machine<'p>,
}

impl<'p> Constants<'p> {
    pub fn new(prog: &'p Program, fuel: u64) -> Self {
        let source = Source::Transcript { events: vec![], pos: 0 };
        let mut machine = Machine::new(prog, Rc::from(Vec::<String>::new()), vec![], source);
        machine.fuel = fuel;
        Constants { machine }
    }

    pub fn eval(&mut self, x: &X, locals: &[Value]) -> Result<Value, Diag> {
        let mut frame = locals.to_vec();
        frame.resize(frame.len() + 16, Value::Null);
        self.machine.eval(x, &mut frame).map_err(stop_diag)
    }

    /// The fuel not spent yet.
    pub fn fuel(&self) -> u64 {
        self.machine.fuel
    }
}

/// Evaluates an expression with parameters bound but no game state (parameter bounds).
pub fn eval_with_params(prog: &Program, players: Rc<[String]>, params: &[Value], x: &X) -> Result<Value, Diag> {
    eval_with_locals(prog, players, params, x, &[])
}

/// Evaluates an expression with parameters and some locals bound but no game state (the
/// conditions and checks of cards read from a file).
pub fn eval_with_locals(
    prog: &Program,
    players: Rc<[String]>,
    params: &[Value],
    x: &X,
    locals: &[Value],
) -> Result<Value, Diag> {
    // Most bounds and defaults are literals (`int 1..13`, `= 30`), read for every transcript
    // and every event's value: a constant is its value, with no machine to set up.
    if let E::Const(v) = &x.e {
        return Ok(v.clone());
    }
    let mut m = Machine::new(prog, players, params.to_vec(), Source::Transcript { events: vec![], pos: 0 });
    let mut frame = locals.to_vec();
    frame.resize(frame.len() + 16, Value::Null);
    m.eval(x, &mut frame).map_err(stop_diag)
}
