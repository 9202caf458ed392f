//! One game played move by move: the live referee. A `Game` waits where its rules wait for an
//! event; it lists what is legal there, takes one event at a time (or refuses it with the
//! verdict `check` would give), draws random or chance moves, and can be cloned, undone and
//! written out as a transcript that `check` judges the same way.
//!
//! ```
//! let rules = shinpan::Rules::new("hangover")?;
//! let mut game = rules.new_game(4, 1)?;
//! // The deal is a chance move, listed by its kind; the game draws it from its seed.
//! assert_eq!(game.legal()?[0].words(), "table deal (any the rules allow)");
//! let deal = game.draw()?.expect("a deal");
//! assert_eq!(deal["by"], "table");
//! // Chance moves until a player's move is legal, then the first of them.
//! while game.legal()?.iter().all(|l| l.by() == "table") {
//!     game.draw()?;
//! }
//! let first = game.legal()?.iter().find(|l| l.by() != "table").and_then(|l| l.event()).expect("a move");
//! let taken = game.event_count();
//! game.apply(&first)?;
//! assert_eq!(game.event_count(), taken + 1);
//! // A move no one may make now is refused with check's verdict, and the game is as it was.
//! let refused = game.apply(&first).unwrap_err();
//! assert_eq!(refused.verdict, shinpan::Verdict::Illegal);
//! assert_eq!(game.event_count(), taken + 1);
//! let transcript = game.transcript();
//! assert_eq!(rules.check_text("game", &transcript).verdict, shinpan::Verdict::Legal);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::rc::Rc;

use serde_json::{Map, Value as Json, json};

use crate::diag::{Diag, printable};
use crate::limits::Limits;
use crate::program::Program;
use crate::program::value::Value;
use crate::report::check::{Judged, Report};
use crate::rules::{Rules, RulesError};
use crate::run::rng::Rng;
use crate::run::{Candidate, Event, Live, LiveMode, Machine, Progress, Saved, Source};
use crate::transcript::Yaml;

/// A game under way, waiting for its next event. Cloning it is cheap (its values are
/// shared until one side changes them), and a clone goes on on its own. It stays on the
/// thread that made it.
#[derive(Clone)]
pub struct Game {
    rules: Rules,
    program: Rc<Program>,
    /// The game where it waits for its next event.
    saved: Saved,
    /// The events taken so far, each with the generator's state before it (so an undo that
    /// plays the game again draws as it did).
    events: Vec<(Event, Rng)>,
    /// The state as the game began, which `undo` plays the events again from.
    start: Saved,
    /// What verdicts and the transcript call the game.
    name: String,
    /// How long its transcript is: an event that would make it longer than a transcript may
    /// be (`Limits::transcript_bytes`) is refused as `check` would refuse that transcript.
    bytes: usize,
}

/// An action that is legal where the game waits. Its words and its event are written when
/// asked for, so that listing what is legal costs only the judging.
#[derive(Clone)]
pub struct LegalEvent {
    candidate: Candidate,
    program: Rc<Program>,
    players: Rc<[String]>,
}

impl PartialEq for LegalEvent {
    fn eq(&self, other: &LegalEvent) -> bool {
        let (a, b) = (&self.candidate, &other.candidate);
        (&a.actor, a.action, &a.arg, a.sampled) == (&b.actor, b.action, &b.arg, b.sampled)
    }
}

impl std::fmt::Debug for LegalEvent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "LegalEvent({})", self.words())
    }
}

impl LegalEvent {
    /// Who takes it: a player's name, or `table`.
    pub fn by(&self) -> String {
        crate::run::show(&self.program, &self.players, &self.candidate.actor)
    }

    /// The action's name.
    pub fn action(&self) -> &str {
        &self.program.actions[self.candidate.action as usize].name
    }

    /// Whether it is a chance move: the rules draw its argument at random (`Game::apply_legal` of
    /// this move plays one; `Game::draw` plays any legal event, as `play` draws).
    pub fn chance(&self) -> bool {
        self.candidate.sampled
    }

    /// The event as a transcript writes it (`{"by": PLAYER, ACTION: ARG}`); `None` for a
    /// chance move, whose argument is not known until it is drawn.
    pub fn event(&self) -> Option<Json> {
        let k = &self.candidate;
        let values = Limits::DEFAULT.verdict_json_values;
        let event =
            crate::report::values::action_json(&self.program, &self.players, &k.actor, k.action, &k.arg, values);
        (!k.sampled).then_some(event)
    }

    /// The action in words, as a verdict's help line says it (`aki play S5`; a chance move as
    /// `table deal (any the rules allow)`).
    pub fn words(&self) -> String {
        if self.candidate.sampled {
            return format!("{} {} (any the rules allow)", self.by(), self.action());
        }
        let machine = Machine::new(&self.program, self.players.clone(), vec![], Source::Live(Live::default()));
        machine.describe(&self.candidate)
    }

    /// As JSON: `{"by", "action", "event", "words", "chance"}` (`event` null for a chance move).
    pub fn json(&self) -> Json {
        json!({"by": self.by(), "action": self.action(), "event": self.event(), "words": self.words(), "chance": self.chance()})
    }
}

/// An event the game did not take (or a game it could not resume), with the verdict `check`
/// gives the transcript with that event at its end: it reads as that `Report`.
pub struct Refused {
    /// The verdict: illegal (the rule broken, what was legal, the state before the event),
    /// or malformed (an event that cannot be read, rules that failed while running).
    pub report: Box<Report>,
}

impl From<Report> for Refused {
    fn from(report: Report) -> Refused {
        Refused { report: Box::new(report) }
    }
}

impl std::ops::Deref for Refused {
    type Target = Report;

    fn deref(&self) -> &Report {
        &self.report
    }
}

impl std::fmt::Debug for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Refused({})", self.report.json_line())
    }
}

/// What a person reads: a message may quote the event, whose text came from a client, so its
/// control and direction characters are shown escaped (`Report`'s fields keep the text as it is).
impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let r = &self.report;
        match (r.violations.first(), r.errors.first()) {
            (Some(v), _) => write!(f, "{}: {}", v.rule, printable(&v.message)),
            (None, Some(e)) => write!(f, "{}", printable(&e.message)),
            (None, None) => write!(f, "{}", r.verdict.word()),
        }
    }
}

impl std::error::Error for Refused {}

impl Refused {
    /// Whether the rules themselves failed while running (a runaway loop, a type error):
    /// a fault of the rules file, not of the event.
    pub fn is_rules_failure(&self) -> bool {
        !self.report.spec_errors.is_empty()
    }
}

impl Rules {
    /// A new game among `players` players (named as `play` names them, or by the rules'
    /// seats), with these rules' parameters; `seed` drives its chance moves and `draw`.
    pub fn new_game(&self, players: usize, seed: u64) -> Result<Game, RulesError> {
        let program = self.program()?;
        let (fewest, most) = program.players;
        if !(fewest as usize..=most as usize).contains(&players) {
            let words = program.player_count_words();
            return Err(RulesError::usage(format!("`{}` is for {words}, not {players}", program.name)));
        }
        let names: Vec<Yaml> = match &program.seats {
            Some(seats) => seats.iter().map(|s| Yaml::Str(s.clone())).collect(),
            None => crate::play::default_names(players),
        };
        self.game_among(names, seed)
    }

    /// A new game among players with these names, in seating order.
    pub fn new_game_named(&self, names: &[String], seed: u64) -> Result<Game, RulesError> {
        let names = names.iter().map(|n| Yaml::Str(n.clone())).collect();
        self.game_among(names, seed)
    }

    /// The game a transcript (YAML or JSON text) has reached, ready to go on from its last
    /// event, with its players and its `variant` under these rules' parameters; the verdict
    /// on it when it is not a legal game.
    pub fn resume_game(&self, name: &str, transcript: &str, seed: u64) -> Result<Game, Refused> {
        let report = self.check_text(name, transcript);
        if report.verdict != crate::Verdict::Legal {
            return Err(Refused::from(report));
        }
        self.resume_game_after(name, transcript, usize::MAX, seed)
    }

    /// The game a transcript had reached after its first `events` events (all of them when it
    /// has fewer), ready to go on from there: to try another move than the one it records next.
    /// What follows those events is not judged (it may be illegal, or unreadable). The
    /// verdict when the transcript cannot be read (its players, its `variant`), or when one of
    /// those events is refused: the verdict `check` gives the transcript cut after that event.
    ///
    /// ```
    /// let rules = shinpan::Rules::new("hangover")?;
    /// let text = std::fs::read_to_string("fixtures/hangover/must-follow.yaml").unwrap();
    /// let broken = rules.check_text("must-follow.yaml", &text).violations[0].event;
    /// // The game before the illegal event, where what was legal instead can be played.
    /// let game = rules.resume_game_after("must-follow.yaml", &text, broken, 1).unwrap();
    /// assert_eq!(game.event_count(), broken);
    /// assert!(!game.legal()?.is_empty());
    /// assert!(rules.resume_game_after("must-follow.yaml", &text, broken + 1, 1).is_err());
    /// # Ok::<(), shinpan::RulesError>(())
    /// ```
    pub fn resume_game_after(&self, name: &str, transcript: &str, events: usize, seed: u64) -> Result<Game, Refused> {
        let raw = crate::transcript::read(transcript).map_err(|_| Refused::from(self.check_text(name, transcript)))?;
        let variant: Vec<(String, Yaml)> = match raw.variant.as_ref().map(|v| &v.value) {
            Some(Yaml::Map(entries)) => entries
                .iter()
                .filter_map(|(k, v)| match k {
                    Yaml::Str(k) => Some((k.clone(), v.clone())),
                    _ => None,
                })
                .collect(),
            _ => vec![],
        };
        let rules = self.under_variant(&variant);
        let names = raw.players.as_ref().map_or(Yaml::Null, |p| p.value.clone());
        let Yaml::Seq(names) = names else { return Err(Refused::from(self.check_text(name, transcript))) };
        let mut game = rules.game_among(names, seed).map_err(|e| Refused::from(report_of_error(name, &e)))?;
        game.name = name.to_string();
        for e in raw.events.and_then(Result::ok).unwrap_or_default().into_iter().take(events) {
            game.apply(&e.value.to_json())?;
        }
        Ok(game)
    }

    fn game_among(&self, names: Vec<Yaml>, seed: u64) -> Result<Game, RulesError> {
        self.program()?;
        let located = |value| Some(crate::transcript::Located { value, line: 0, span: 0..0 });
        // The players alone: the program and its parameters are read from a transcript's head,
        // never from its events.
        let raw = crate::transcript::RawTranscript { players: located(Yaml::Seq(names)), ..Default::default() };
        let (program, setup) = self.game_program(raw).map_err(RulesError::usage)?;
        let limits = self.limits();
        let mut machine = Machine::new(&program, setup.players, setup.params, Source::Live(Live::default()));
        machine.set_limits(&limits);
        machine.reseed(seed);
        let failed = |d: Diag| RulesError { code: d.code, message: d.message.clone(), diagnostics: vec![d] };
        machine.start().map_err(failed)?;
        machine.advance().map_err(failed)?;
        let saved = machine.save();
        let mut game = Game {
            rules: self.clone(),
            start: saved.clone(),
            saved,
            program,
            events: vec![],
            name: String::new(),
            bytes: 0,
        };
        game.set_name("game");
        game.bytes = game.transcript().len();
        Ok(game)
    }
}

impl Game {
    /// The legal events where the game waits. At a point the rules may leave without an
    /// event (`otherwise`), they are its own actions and then those of the points after it.
    pub fn legal(&self) -> Result<Vec<LegalEvent>, RulesError> {
        let (mut saved, _) = self.saved.light();
        *saved.source_mut() =
            Source::Live(Live { mode: LiveMode::Legal { found: vec![], judged_here: vec![] }, ..Live::default() });
        let mut machine = Machine::resume(&self.program, saved);
        machine.advance().map_err(|d| RulesError { code: d.code, message: d.message.clone(), diagnostics: vec![d] })?;
        let found = match machine.save().source_mut() {
            Source::Live(Live { mode: LiveMode::Legal { found, .. }, .. }) => std::mem::take(found),
            _ => vec![],
        };
        Ok(self.described(found))
    }

    /// The candidates as legal events: each once (the same order of equal cards, listed by
    /// `choices` as two, is one event), a chance move once per actor and action.
    fn described(&self, found: Vec<Candidate>) -> Vec<LegalEvent> {
        // The same event twice is found by sorting, which compares values where hashing would
        // walk every one of them (the candidates are usually all different).
        let key = |k: &Candidate| (k.actor.clone(), k.action, if k.sampled { Value::Null } else { k.arg.clone() });
        let keys: Vec<_> = found.iter().map(key).collect();
        let mut order: Vec<usize> = (0..found.len()).collect();
        order.sort_by(|&a, &b| keys[a].cmp(&keys[b]).then(a.cmp(&b)));
        let mut again = vec![false; found.len()];
        for pair in order.windows(2) {
            if keys[pair[0]] == keys[pair[1]] {
                again[pair[1]] = true;
            }
        }
        let (program, players) = (&self.program, self.saved.players());
        let kept = found.into_iter().zip(again).filter(|(_, again)| !again);
        kept.map(|(k, _)| LegalEvent { candidate: k, program: program.clone(), players: players.clone() }).collect()
    }

    /// Takes one event (a transcript's event: `{"by": PLAYER, ACTION: ARG}`). Refused, the
    /// game is as it was and the answer is the verdict `check` gives the transcript with the
    /// event added: illegal (the rule, what was legal, the state), or malformed (an event
    /// that cannot be read, or rules that failed).
    pub fn apply(&mut self, event: &Json) -> Result<(), Refused> {
        let raw = self.raw_event(event);
        let decoded = crate::transcript::decode::one_event(
            &self.program,
            self.saved.players(),
            self.saved.params(),
            self.events.len(),
            &raw,
        );
        match decoded {
            Ok(e) => self.take(e, LiveMode::Wait, None).map(|_| ()),
            Err(_) => Err(Refused::from(self.check_with(Some(event)))),
        }
    }

    /// Takes an event `legal()` listed, as `apply` takes it written out (judged all the
    /// same), without reading it again; a chance move is drawn (`draw`). For a program that
    /// picks its moves from the list.
    pub fn apply_legal(&mut self, legal: &LegalEvent) -> Result<(), Refused> {
        let k = &legal.candidate;
        if !k.sampled {
            return self.take(Event::of(k), LiveMode::Wait, None).map(|_| ());
        }
        match self.take(placeholder(), LiveMode::Draw, Some((k.actor.clone(), k.action)))? {
            Some(_) => Ok(()),
            // Not open here: judged as that action with no argument would be.
            None => Err(Refused::from(self.check_with(Some(&json!({"by": legal.by(), legal.action(): null}))))),
        }
    }

    /// Draws the next event as a random game does (uniformly among the legal ones, a chance
    /// move as its rules' `choices` draw it, from the game's own seed) and takes it: the
    /// event, or `None` when no event can be drawn (the game is over, or nothing is legal).
    pub fn draw(&mut self) -> Result<Option<Json>, Refused> {
        Ok(self.take(placeholder(), LiveMode::Draw, None)?.map(|(_, written)| written))
    }

    /// Seeds the generator `draw` and chance moves use from here on.
    pub fn reseed(&mut self, seed: u64) {
        self.saved.set_rng(Rng::new(seed));
    }

    /// Runs the game on from where it waits with `event` (`Wait`), or with an event it draws
    /// (`Draw`): what was taken, if anything; refused, the game is unchanged.
    fn take(
        &mut self,
        mut event: Event,
        mode: LiveMode,
        only: Option<(Value, u16)>,
    ) -> Result<Option<(Event, Json)>, Refused> {
        event.index = self.events.len();
        let rng = self.saved.rng().clone();
        // Taken before the state moves out (a draw leaves nothing in its place).
        let players = self.saved.players().clone();
        let drawing = matches!(mode, LiveMode::Draw);
        // The game runs on as it is; what stays behind is a copy to go back to, which costs
        // what the state costs, not what the game so far does. A drawn event passes its checks
        // by construction: a draw in a game under way keeps no copy, and in the rare case it
        // fails (rules that fail while running, a dead end, a transcript grown too long) the
        // game is played again to where it was. Once the game is over, drawing nothing is the
        // usual answer, and the copy is kept.
        let (mut working, marks) = if drawing && !self.saved.finished() {
            (std::mem::take(&mut self.saved), None)
        } else {
            let (backup, marks) = self.saved.light();
            (std::mem::replace(&mut self.saved, backup), Some(marks))
        };
        let pending = (!drawing).then(|| event.clone());
        *working.source_mut() = Source::Live(Live { pending, mode, drawn: None, only });
        let mut machine = Machine::resume(&self.program, working);
        let progress = machine.advance();
        let drawn = match machine.source_mut() {
            Source::Live(live) => live.drawn.take(),
            _ => None,
        };
        let taken = drawn.clone().unwrap_or(event);
        let written = crate::play::event_json(&self.program, &players, &taken);
        // As the transcript writes it: `  - EVENT` and a line break.
        let bytes = self.bytes + written.to_string().len() + 5;
        let too_long = bytes as u64 > self.rules.limits().transcript_bytes;
        if matches!(progress, Ok(Progress::Waiting)) && !machine.has_violation() && !too_long {
            self.saved = machine.save();
            self.events.push((taken.clone(), rng));
            self.bytes = bytes;
            return Ok(Some((taken, written)));
        }
        // Refused (or nothing to draw): the game goes back to where it was, with its logs.
        let notes = machine.notes().to_vec();
        let Some(marks) = marks else {
            let outcome = (progress.is_ok() && machine.has_violation()).then(|| machine.outcome());
            drop(machine);
            *self = self.replayed(rng)?;
            return match (progress, outcome) {
                (Err(d), _) | (Ok(_), Some(Err(d))) => Err(Refused::from(self.rules_failed(d, Some(&taken)))),
                (Ok(_), Some(Ok(outcome))) => Err(Refused::from(self.refusal(outcome, &taken, &written))),
                (Ok(_), None) if drawn.is_none() => Ok(None),
                (Ok(_), None) => Err(Refused::from(self.too_long())),
            };
        };
        let answer = match progress {
            Err(d) => Err(Refused::from(self.rules_failed(d, Some(&taken)))),
            Ok(_) if !machine.has_violation() && drawn.is_none() && drawing => Ok(None),
            Ok(_) if too_long && !machine.has_violation() => Err(Refused::from(self.too_long())),
            Ok(_) => match machine.outcome() {
                Ok(outcome) => Err(Refused::from(self.refusal(outcome, &taken, &written))),
                Err(d) => Err(Refused::from(self.rules_failed(d, Some(&taken)))),
            },
        };
        let mut worked = machine.save();
        worked.set_notes(notes);
        self.saved.restore_logs(worked, &marks);
        answer
    }

    /// The variables the rules' `view` shows, by name, in transcript words.
    pub fn state(&self) -> Map<String, Json> {
        let view: Vec<u16> = self.program.view.clone();
        self.named(&view)
    }

    /// Every variable of the rules, by name, in transcript words.
    pub fn variables(&self) -> Map<String, Json> {
        let all: Vec<u16> = (0..self.program.vars.len() as u16).collect();
        self.named(&all)
    }

    fn named(&self, which: &[u16]) -> Map<String, Json> {
        let globals = self.saved.globals();
        let state: Vec<(u16, Value)> =
            which.iter().filter_map(|&v| Some((v, globals.get(v as usize)?.clone()))).collect();
        let mut budget = crate::report::values::JsonBudget::new(self.rules.limits().verdict_json_values);
        crate::report::values::state_json(&self.program, self.saved.players(), &state, &mut budget)
    }

    /// Whether a `finish` has run: the game is over, though `always` actions may still be open.
    pub fn finished(&self) -> bool {
        self.saved.finished()
    }

    /// The verdict `check` gives the transcript of the game so far (`transcript()`): legal,
    /// with the scores, the winners once finished, and the rules' notes. Any `otherwise` the
    /// game waits at is left, as at the end of a transcript.
    pub fn verdict(&self) -> Report {
        let mut saved = self.saved.clone();
        *saved.source_mut() = Source::Live(Live { mode: LiveMode::End, ..Live::default() });
        let mut machine = Machine::resume(&self.program, saved);
        let outcome = machine.advance().and_then(|_| machine.outcome());
        match outcome {
            Ok(outcome) => self.report(outcome, None),
            Err(d) => self.rules_failed(d, None),
        }
    }

    /// Each player's score as `check` gives it for the game so far (`verdict()`).
    pub fn scores(&self) -> Map<String, Json> {
        self.verdict().scores.unwrap_or_default().into_iter().collect()
    }

    /// The winners as `check` gives them for the game so far: none before the game is finished.
    pub fn winners(&self) -> Vec<String> {
        self.verdict().winners
    }

    /// How many events the game has taken.
    pub fn event_count(&self) -> usize {
        self.events.len()
    }

    /// The players in seating order.
    pub fn players(&self) -> Vec<String> {
        self.saved.players().to_vec()
    }

    /// Takes back the last event: the game is as it was before it (its generator too). False
    /// when there is none. It plays the game again from the start without it, so it costs
    /// what the game so far cost.
    pub fn undo(&mut self) -> Result<bool, Refused> {
        let Some(((_, rng), kept)) = self.events.split_last() else { return Ok(false) };
        let shorter = Game { events: kept.to_vec(), ..self.clone() };
        *self = shorter.replayed(rng.clone())?;
        Ok(true)
    }

    /// The game played again from its start through its events, each with the generator as
    /// it was before it, and `rng` after them.
    fn replayed(&self, rng: Rng) -> Result<Game, Refused> {
        let mut again = Game { saved: self.start.clone(), events: vec![], ..self.clone() };
        again.bytes = again.transcript().len();
        for (event, before) in &self.events {
            again.saved.set_rng(before.clone());
            again.take(event.clone(), LiveMode::Wait, None)?;
        }
        again.saved.set_rng(rng);
        Ok(again)
    }

    /// Names the game in verdicts (`game` unless given).
    pub fn set_name(&mut self, name: &str) {
        self.name = name.to_string();
    }

    /// What verdicts call the game.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The game so far as a transcript (YAML in JSON flow style, one event a line, as `play`
    /// writes them), which `check` judges as this game judged each event.
    pub fn transcript(&self) -> String {
        self.transcript_with(None).0
    }

    /// The transcript, with `extra` as one more event at its end (an event that may not be
    /// read), and the events with the lines and places where the text writes them.
    fn transcript_with(&self, extra: Option<&Json>) -> (String, Vec<Event>) {
        let (program, players) = (&*self.program, self.saved.players());
        let any_events = !self.events.is_empty() || extra.is_some();
        let mut text = crate::play::transcript_head(self.rules.name(), players, self.rules.variant(), any_events);
        let header = text.lines().count();
        let mut events = Vec::with_capacity(self.events.len() + 1);
        let values = Limits::DEFAULT.verdict_json_values;
        for (line, (e, _)) in (header + 1..).zip(&self.events) {
            let written = crate::report::values::action_json_text(program, players, &e.actor, e.action, &e.arg, values);
            let start = text.len() + 4;
            text.push_str(&format!("  - {written}\n"));
            events.push(Event { line, span: start..text.len() - 1, ..e.clone() });
        }
        if let Some(extra) = extra {
            text.push_str(&format!("  - {extra}\n"));
        }
        (text, events)
    }

    /// The verdict on an event that would make the transcript longer than a transcript file
    /// may be: what `check` says of such a file.
    fn too_long(&self) -> Report {
        let limit = self.rules.limits().transcript_bytes;
        let message = format!("the game's transcript would be larger than {limit} bytes, the most a transcript may be");
        Report::unreadable(&self.name, crate::transcript::Problem::TooLarge, message)
    }

    /// The transcript with one more event, checked whole: the verdict on an event that could
    /// not be read.
    fn check_with(&self, extra: Option<&Json>) -> Report {
        let (text, _) = self.transcript_with(extra);
        let mut report = self.rules.check_text(&self.name, &text);
        report.fuel_spent = 0;
        report
    }

    /// The verdict on an event that broke a rule, from the run that judged it; from `check`
    /// of the transcript with it at its end where what was legal before it lies past a point
    /// that may be left without an event, which only a run over the events before it lists.
    fn refusal(&self, outcome: crate::run::Outcome, taken: &Event, written: &Json) -> Report {
        if outcome.violation.as_ref().is_some_and(|v| v.listed_where_judged) {
            return self.check_with(Some(written));
        }
        self.report(outcome, Some(taken))
    }

    /// The verdict from a run's outcome, on the transcript with `extra` at its end.
    fn report(&self, outcome: crate::run::Outcome, extra: Option<&Event>) -> Report {
        let extra_json = extra.map(|e| crate::play::event_json(&self.program, self.saved.players(), e));
        let (text, mut events) = self.transcript_with(extra_json.as_ref());
        if let Some(e) = extra {
            let line = text.lines().count();
            let start = text.trim_end().rfind('\n').map_or(0, |i| i + 5);
            events.push(Event { line, span: start..text.len() - 1, ..e.clone() });
        }
        let judged = Judged {
            program: &self.program,
            players: self.saved.players(),
            events: &events,
            limits: &self.rules.limits(),
        };
        crate::report::check::report(&self.name, Rc::new(text), Some(self.program.name.clone()), judged, outcome)
    }

    /// The verdict when the rules themselves failed while running.
    fn rules_failed(&self, d: Diag, extra: Option<&Event>) -> Report {
        let extra = extra.map(|e| crate::play::event_json(&self.program, self.saved.players(), e));
        let (text, _) = self.transcript_with(extra.as_ref());
        crate::report::check::rules_failed(&self.name, Rc::new(text), Some(self.program.name.clone()), d)
    }

    /// An event given as JSON, read as a transcript's event is.
    fn raw_event(&self, event: &Json) -> crate::transcript::RawEvent {
        let text = event.to_string();
        let value = crate::transcript::parse_value(&text).unwrap_or(Yaml::Null);
        crate::transcript::RawEvent { value, line: 0, span: 0..0 }
    }
}

/// Where an event is drawn rather than given.
fn placeholder() -> Event {
    Event { actor: Value::Null, action: 0, arg: Value::Null, index: 0, line: 0, span: 0..0 }
}

/// A verdict for rules that could not be used at all.
fn report_of_error(name: &str, e: &RulesError) -> Report {
    Report::unreadable(name, crate::transcript::Problem::BadRules, e.message.clone())
}

#[cfg(test)]
mod tests {
    use super::Game;
    use crate::Rules;

    /// The variables of `game` whose values its rules' static types do not allow, by name.
    fn ill_typed(game: &Game) -> Vec<String> {
        let prog = &game.program;
        let globals = game.saved.globals();
        prog.vars
            .iter()
            .zip(&prog.var_types)
            .zip(globals)
            .filter(|((_, t), value)| !t.admits(prog, value))
            .map(|((var, t), value)| format!("{} = {value:?}, typed {t:?}", var.name))
            .collect()
    }

    /// The types the static check gives the variables hold in play: after every event of
    /// seeded random games of each built-in game and of the gallery, each variable's value is
    /// one its type allows. A typed layout of the state (a hand as card numbers, a per-seat
    /// variable as an array) may rely on them only because this holds.
    #[test]
    fn every_variable_holds_values_of_its_static_type() {
        let names = crate::rules::shipped_rules();
        let mut events = 0;
        for name in &names {
            let rules = Rules::new(name).unwrap();
            let (fewest, most) = rules.player_counts().unwrap();
            for (players, seed) in (fewest..=most).flat_map(|n| (1..=5).map(move |seed| (n, seed))) {
                let mut game = rules.new_game(players, seed).unwrap();
                assert_eq!(
                    ill_typed(&game),
                    Vec::<String>::new(),
                    "{name}, {players} players, seed {seed}: at the start"
                );
                while game.draw().unwrap().is_some() {
                    events += 1;
                    let wrong = ill_typed(&game);
                    let at = game.event_count();
                    assert!(wrong.is_empty(), "{name}, {players} players, seed {seed}, after event {at}: {wrong:#?}");
                }
            }
        }
        assert!(events > 10_000, "only {events} events were played");
    }
}
