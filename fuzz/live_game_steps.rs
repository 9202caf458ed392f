//! The steps of the `live_game` fuzz target, shared with `tests/fuzz_findings.rs`, which replays
//! its findings the same way.
//!
//! The input's first byte picks a built-in game (`specs::BUILTIN`), a player count within its
//! range and the seed; the rest is UTF-8 text, one step a line:
//!
//! | line | step |
//! |---|---|
//! | `legal` | `legal()`, each event written out |
//! | `take K` | `apply_legal` of the K-th legal event (modulo their number) |
//! | `give K` | `apply` of the K-th legal event as written by `event()` (a chance move: `apply_legal`) |
//! | `draw` or `draw N` | `draw()`, N times (at most 200), until nothing is drawn |
//! | `undo` | `undo()` |
//! | `clone` | goes on on a clone; the original must stay as it was |
//! | `reseed N` | `reseed(N)` |
//! | `verdict` | `verdict()`, against `check` of `transcript()` (the whole JSON line) |
//! | `look` | `state()`, `variables()`, `scores()`, `winners()`, `finished()`, `players()` |
//! | `resume` | `resume_game` of the game's own transcript must give the same game |
//! | `named NAMES` | a new game among NAMES (a JSON list) |
//! | `resume K` | the rest of the input is a transcript: `resume_game_after(.., K, ..)` and `resume_game` of it |
//! | anything else | read as JSON (a string when it is not JSON) and given to `apply` |
//!
//! None may panic, and a refused event must leave the game as it was: its transcript, what is
//! legal, its variables and its next draw, and its verdict is `check`'s of the transcript with
//! the event after the others. An event `legal()` lists is taken unless the rules
//! themselves fail (`Refused::is_rules_failure`); `undo` gives back the game as it was before
//! the event it takes back; a game's verdict is `check`'s of its transcript.

use serde_json::Value as Json;
use shinpan::{Game, Rules, Verdict};

/// Steps run on one input, and events one game may reach by `draw N`: an `undo` plays the game
/// again, so these keep an input's cost to a few seconds.
const MAX_STEPS: usize = 200;
const MAX_EVENTS: usize = 1000;

/// Runs one input's steps.
pub fn run(data: &[u8]) {
    let Some((&pick, rest)) = data.split_first() else { return };
    let builtins = shinpan::lang::specs::BUILTIN;
    let (name, _) = builtins[pick as usize % builtins.len()];
    let Ok(rules) = Rules::new(name) else { panic!("built-in rules {name} do not compile") };
    let Ok((fewest, most)) = rules.player_counts() else { panic!("{name}: no player counts") };
    let players = fewest + (pick as usize / builtins.len()) % (most - fewest + 1);
    let seed = u64::from(pick);
    let game = match rules.new_game(players, seed) {
        Ok(game) => game,
        Err(e) => panic!("{name} with {players} players: {}", e.message),
    };
    let text = String::from_utf8_lossy(rest);
    Steps { rules, seed, game, before: vec![], originals: vec![] }.run(&text);
}

struct Steps {
    rules: Rules,
    seed: u64,
    game: Game,
    /// The game before each event it took, newest last, for `undo`.
    before: Vec<Game>,
    /// Games left for a clone, with their transcripts then.
    originals: Vec<(Game, String)>,
}

impl Steps {
    fn run(mut self, text: &str) {
        let mut offset = 0;
        for (n, line) in text.split_inclusive('\n').enumerate() {
            offset += line.len();
            if n >= MAX_STEPS {
                break;
            }
            let line = line.trim_end_matches(['\n', '\r']);
            let (word, arg) = line.split_once(' ').unwrap_or((line, ""));
            let number = arg.trim().parse::<u64>().ok();
            match (word, number) {
                ("legal", None) => self.legal(),
                ("take", Some(k)) => self.take(k as usize, false),
                ("give", Some(k)) => self.take(k as usize, true),
                ("draw", _) => self.draw(number.unwrap_or(1).min(200)),
                ("undo", None) => self.undo(),
                ("clone", None) => self.clone_game(),
                ("reseed", Some(seed)) => self.game.reseed(seed),
                ("verdict", None) => self.verdict(),
                ("look", None) => self.look(),
                ("resume", None) => self.resume_own(),
                ("resume", Some(k)) => {
                    // The rest of the input is the transcript: no more steps, but the clones'
                    // originals are still held to what they were.
                    self.resume_text(&text[offset..], k as usize);
                    break;
                }
                ("named", _) => self.named(arg),
                _ => {
                    let event = serde_json::from_str(line).unwrap_or_else(|_| Json::String(line.to_string()));
                    self.apply(&event);
                }
            }
        }
        for (original, transcript) in &self.originals {
            assert_eq!(&original.transcript(), transcript, "a clone played on changed its original");
        }
    }

    fn legal(&self) {
        let Ok(legal) = self.game.legal() else { return };
        for l in &legal {
            let _ = (l.by(), l.action(), l.words(), l.json());
            assert_eq!(l.event().is_none(), l.chance(), "{l:?}: an event is written unless it is a chance move");
        }
    }

    fn take(&mut self, k: usize, written: bool) {
        let Ok(legal) = self.game.legal() else { return };
        if legal.is_empty() {
            return;
        }
        let chosen = &legal[k % legal.len()];
        let before = self.game.clone();
        let answer = match chosen.event() {
            Some(event) if written => self.game.apply(&event),
            _ => self.game.apply_legal(chosen),
        };
        match answer {
            Ok(()) => {
                assert_eq!(self.game.event_count(), before.event_count() + 1, "{chosen:?} taken");
                self.before.push(before);
            }
            Err(refused) => {
                assert!(refused.is_rules_failure(), "{chosen:?}, listed as legal, refused: {refused}");
                self.unchanged(&before, &refused);
            }
        }
    }

    fn draw(&mut self, times: u64) {
        for _ in 0..times {
            if self.game.event_count() >= MAX_EVENTS {
                return;
            }
            let before = self.game.clone();
            match self.game.draw() {
                Ok(Some(event)) => {
                    assert_eq!(self.game.event_count(), before.event_count() + 1, "{event} drawn");
                    self.before.push(before);
                }
                Ok(None) => {
                    assert_eq!(self.game.transcript(), before.transcript(), "nothing drawn, yet the game changed");
                    return;
                }
                Err(refused) => {
                    self.unchanged(&before, &refused);
                    return;
                }
            }
        }
    }

    fn apply(&mut self, event: &Json) {
        let before = self.game.clone();
        match self.game.apply(event) {
            Ok(()) => {
                assert_eq!(self.game.event_count(), before.event_count() + 1, "{event} taken");
                self.before.push(before);
            }
            Err(refused) => {
                self.unchanged(&before, &refused);
                self.refused_as_checked(event, &refused);
            }
        }
    }

    /// A refused event gets `check`'s verdict on the game's transcript with the event written
    /// after the others, the whole JSON line alike (unless the rules themselves failed, which
    /// a live game reports where it met it).
    fn refused_as_checked(&self, event: &Json, refused: &shinpan::Refused) {
        if refused.is_rules_failure() {
            return;
        }
        let transcript = self.game.transcript();
        let head =
            transcript.strip_suffix("events: []\n").map_or_else(|| transcript.clone(), |h| format!("{h}events:\n"));
        let checked = self.rules.check_text(self.game.name(), &format!("{head}  - {event}\n"));
        assert_eq!(refused.json_line(), checked.json_line(), "{event} refused, against check");
    }

    /// After a refusal: the game is as it was, and the refusal is a verdict that is not legal.
    fn unchanged(&self, before: &Game, refused: &shinpan::Refused) {
        assert_ne!(refused.verdict, Verdict::Legal, "refused with a legal verdict: {refused:?}");
        let _ = (refused.json_line(), refused.to_string());
        same_game(&self.game, before, "after a refusal");
    }

    fn undo(&mut self) {
        let count = self.game.event_count();
        match self.game.undo() {
            Ok(true) => {
                assert_eq!(self.game.event_count() + 1, count, "undo");
                if let Some(before) = self.before.pop() {
                    same_game(&self.game, &before, "after undo");
                }
            }
            Ok(false) => assert_eq!(count, 0, "undo of a game with events took none back"),
            // The game played again failed: the rules failed while running, which the game
            // that took these events already met.
            Err(refused) => assert!(refused.is_rules_failure(), "undo refused: {refused}"),
        }
    }

    fn clone_game(&mut self) {
        if self.originals.len() < 4 {
            let original = self.game.clone();
            let transcript = original.transcript();
            self.originals.push((original, transcript));
        }
        self.game = self.game.clone();
    }

    fn verdict(&self) {
        let verdict = self.game.verdict();
        let _ = (verdict.json_line(), self.game.scores(), self.game.winners());
        if verdict.spec_errors.is_empty() {
            let checked = self.rules.check_text(self.game.name(), &self.game.transcript());
            assert_eq!(verdict.json_line(), checked.json_line(), "the verdict against check's");
        }
    }

    fn look(&self) {
        let _ = (self.game.state(), self.game.variables(), self.game.finished(), self.game.players());
        let _ = (self.game.scores(), self.game.winners(), self.game.name(), self.game.event_count());
    }

    /// The game's own transcript resumes to the same game.
    fn resume_own(&mut self) {
        let transcript = self.game.transcript();
        match self.rules.resume_game_after(self.game.name(), &transcript, usize::MAX, self.seed) {
            Ok(again) => assert_eq!(again.transcript(), transcript, "resumed from its own transcript"),
            Err(refused) => assert!(refused.is_rules_failure(), "its own transcript refused: {refused}"),
        }
    }

    fn named(&mut self, names: &str) {
        let Ok(names) = serde_json::from_str::<Vec<String>>(names) else { return };
        if let Ok(game) = self.rules.new_game_named(&names, self.seed) {
            self.game = game;
            self.before.clear();
        }
    }

    /// Any text as a transcript, resumed after `events` events and whole; a game resumed is
    /// played on a few steps.
    fn resume_text(&mut self, text: &str, events: usize) {
        let name = "fuzz.yaml";
        if let Ok(game) = self.rules.resume_game_after(name, text, events, self.seed) {
            assert!(game.event_count() <= events, "resumed after {events} events, with {}", game.event_count());
            self.game = game;
            self.before.clear();
            self.legal();
            self.take(events, true);
            self.draw(3);
            self.undo();
            self.verdict();
        }
        if let Err(refused) = self.rules.resume_game(name, text, self.seed) {
            assert_ne!(refused.verdict, Verdict::Legal, "resume refused with a legal verdict: {refused:?}");
            let _ = refused.json_line();
        }
    }
}

/// Two games are the same: their transcripts, what is legal, their variables and next draw.
fn same_game(game: &Game, other: &Game, when: &str) {
    assert_eq!(game.event_count(), other.event_count(), "{when}: events");
    assert_eq!(game.transcript(), other.transcript(), "{when}: transcript");
    assert_eq!(game.finished(), other.finished(), "{when}: finished");
    assert_eq!(game.variables(), other.variables(), "{when}: variables");
    match (game.legal(), other.legal()) {
        (Ok(a), Ok(b)) => assert_eq!(a, b, "{when}: legal"),
        (Err(a), Err(b)) => assert_eq!(a.message, b.message, "{when}: legal"),
        (a, b) => panic!("{when}: legal {:?} against {:?}", a.map(|l| l.len()), b.map(|l| l.len())),
    }
    let (mut a, mut b) = (game.clone(), other.clone());
    match (a.draw(), b.draw()) {
        (Ok(a), Ok(b)) => assert_eq!(a, b, "{when}: next draw"),
        (Err(a), Err(b)) => assert_eq!(a.json_line(), b.json_line(), "{when}: next draw"),
        (a, b) => panic!("{when}: next draw {:?} against {:?}", a.is_ok(), b.is_ok()),
    }
}
