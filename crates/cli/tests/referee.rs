//! `shinpan referee` over a pipe: games drawn through it are the games `play` writes and get
//! `check`'s verdicts; a refused event carries check's verdict and changes nothing; undo,
//! resuming, many games at once; every bad request gets an error reply and the process goes
//! on; the line, game and event caps; every fixture stepped event by event gets the verdict
//! of the whole file; the Python example plays a game. Every request and reply is checked
//! against the published schema (docs/referee.schema.json) on its way.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "tests fail loudly")]

mod common;

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::OnceLock;

use common::{Scratch, bin, repo};
use serde_json::{Value as Json, json};

/// Every built-in game, with a player count it is played with.
const GAMES: &[(&str, usize)] = &[
    ("hangover", 4),
    ("hangover", 3),
    ("curtain-call", 2),
    ("torite-4to6", 4),
    ("torite-4to6", 3),
    ("clock-tcg", 2),
    ("bridge", 4),
    ("bridge-duplicate", 4),
];

/// The published schema, as validators of one request and of one reply.
struct Schema {
    request: jsonschema::Validator,
    reply: jsonschema::Validator,
}

fn schema() -> &'static Schema {
    static SCHEMA: OnceLock<Schema> = OnceLock::new();
    SCHEMA.get_or_init(|| {
        let read = |name: &str| -> Json {
            serde_json::from_str(&std::fs::read_to_string(repo().join("docs").join(name)).unwrap()).unwrap()
        };
        let (referee, verdict) = (read("referee.schema.json"), read("verdict.schema.json"));
        let id = referee["$id"].as_str().unwrap().to_string();
        let verdict_id = verdict["$id"].as_str().unwrap().to_string();
        let registry = jsonschema::Registry::new()
            .add(&id, referee)
            .unwrap()
            .add(&verdict_id, verdict)
            .unwrap()
            .prepare()
            .unwrap();
        let part = |name: &str| {
            let pointer = json!({"$ref": format!("{id}#/$defs/{name}")});
            jsonschema::options().with_registry(&registry).build(&pointer).unwrap()
        };
        Schema { request: part("request"), reply: part("reply") }
    })
}

fn fits(validator: &jsonschema::Validator, value: &Json) -> Result<(), String> {
    let problems: Vec<String> = validator.iter_errors(value).map(|e| format!("{e} at {}", e.instance_path())).collect();
    if problems.is_empty() { Ok(()) } else { Err(format!("{problems:?}\n{value}")) }
}

/// A referee process, asked one request at a time.
struct Referee {
    child: Child,
    to: Option<ChildStdin>,
    from: BufReader<ChildStdout>,
}

impl Referee {
    fn start(args: &[&str]) -> Referee {
        let mut child = bin()
            .arg("referee")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let (to, from) = (child.stdin.take(), BufReader::new(child.stdout.take().unwrap()));
        Referee { child, to, from }
    }

    /// Sends a request the schema allows; its reply, which echoes its id and fits the schema.
    fn ask(&mut self, request: Json) -> Json {
        fits(&schema().request, &request).unwrap_or_else(|e| panic!("a request outside the schema: {e}"));
        let reply = self.send(request.to_string().as_bytes());
        assert_eq!(reply["id"], request["id"], "{reply}");
        reply
    }

    /// Asks and expects an answer: its reply.
    fn ok(&mut self, request: Json) -> Json {
        let reply = self.ask(request.clone());
        assert_eq!(reply["ok"], true, "{request} got {reply}");
        reply
    }

    /// Sends one line: the reply line as it was written.
    fn send_raw(&mut self, line: &[u8]) -> String {
        let to = self.to.as_mut().unwrap();
        to.write_all(line).unwrap();
        to.write_all(b"\n").unwrap();
        to.flush().unwrap();
        let mut text = String::new();
        self.from.read_line(&mut text).unwrap();
        assert!(text.ends_with('\n'), "a whole reply line: {text:?}");
        text
    }

    /// Sends one line as it is (which need not be a request at all): its reply.
    fn send(&mut self, line: &[u8]) -> Json {
        let text = self.send_raw(line);
        let reply: Json = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
        fits(&schema().reply, &reply).unwrap_or_else(|e| panic!("a reply outside the schema: {e}"));
        reply
    }

    /// Sends a line that is no good request: the error reply, its code `code`.
    fn refuse(&mut self, line: &[u8], code: &str) -> Json {
        let reply = self.send(line);
        assert_eq!(reply["ok"], false, "{}: {reply}", String::from_utf8_lossy(line));
        assert_eq!(reply["error"]["code"], code, "{}: {reply}", String::from_utf8_lossy(line));
        reply
    }

    /// Ends the input: the exit code, and what was written to standard error. No reply is left.
    fn finish(mut self) -> (i32, String) {
        drop(self.to.take());
        let mut rest = String::new();
        std::io::Read::read_to_string(&mut self.from, &mut rest).unwrap();
        assert_eq!(rest, "", "replies to nothing");
        let out = self.child.wait_with_output().unwrap();
        (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

/// Draws a game to its end: each draw's event, the last null.
fn draw_to_end(referee: &mut Referee, game: &str) {
    for n in 0.. {
        let reply = referee.ok(json!({"id": n, "op": "draw", "game": game}));
        if reply["event"].is_null() {
            return;
        }
        assert_eq!(reply["events"], n + 1, "{reply}");
        assert!(n < 20_000, "a built-in game ends");
    }
}

/// A verdict without its `file` (the game's id in the referee, the path for check).
fn unnamed(mut verdict: Json) -> Json {
    verdict.as_object_mut().unwrap().remove("file");
    verdict
}

/// `shinpan check --format json` of each file: one verdict each, in order.
fn check(files: &[String]) -> Vec<Json> {
    let out = bin().args(["check", "--format", "json"]).args(files).output().unwrap();
    let verdicts: Vec<Json> =
        String::from_utf8(out.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(verdicts.len(), files.len());
    verdicts
}

/// Seeded games of every built-in game drawn through the pipe: 1,000 of each
/// (`SHINPAN_GAME_SEEDS` sets fewer for a mutation run, or more).
fn seeds() -> u64 {
    std::env::var("SHINPAN_GAME_SEEDS").ok().and_then(|s| s.parse().ok()).unwrap_or(1000)
}

fn play(rules: &str, players: usize, seed: u64) -> String {
    let args = ["play", "--rules", rules, "--players", &players.to_string(), "--seed", &seed.to_string()];
    let out = bin().args(args).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn every_built_in_game_drawn_through_the_pipe_is_the_game_play_writes() {
    let names: std::collections::BTreeSet<&str> = GAMES.iter().map(|(g, _)| *g).collect();
    assert_eq!(names, shinpan::editor::builtin_games().collect(), "every built-in game is played");
    let scratch = Scratch::new("referee-drawn");
    let mut referee = Referee::start(&[]);
    let (mut files, mut verdicts) = (vec![], vec![]);
    for &(rules, players) in GAMES {
        let engine = shinpan::Rules::new(rules).unwrap();
        for seed in 0..seeds() {
            let opened =
                referee.ok(json!({"id": "new", "op": "new", "rules": rules, "players": players, "seed": seed}));
            let game = opened["game"].as_str().unwrap().to_string();
            assert_eq!(opened["players"].as_array().unwrap().len(), players, "{opened}");
            draw_to_end(&mut referee, &game);
            let transcript = referee.ok(json!({"id": 1, "op": "transcript", "game": game}))["transcript"].clone();
            let transcript = transcript.as_str().unwrap();
            let verdict = referee.ok(json!({"id": 2, "op": "verdict", "game": game}))["verdict"].clone();
            assert_eq!(verdict["finished"], true, "{rules} seed {seed}: {verdict}");
            referee.ok(json!({"id": 3, "op": "close", "game": game}));
            // The first seeds against the binary itself; every one against the library.
            if seed < 3 {
                assert_eq!(transcript, play(rules, players, seed), "{rules} seed {seed}");
                files.push(scratch.write(&format!("{rules}-{players}-{seed}.yaml"), transcript));
                verdicts.push(verdict.clone());
            }
            assert_eq!(transcript, engine.play(players, seed).unwrap(), "{rules} seed {seed}");
            let checked: Json = serde_json::from_str(&engine.check_text("game", transcript).json_line()).unwrap();
            assert_eq!(unnamed(verdict), unnamed(checked), "{rules} seed {seed}");
        }
    }
    for ((file, ours), checked) in files.iter().zip(verdicts).zip(check(&files)) {
        assert_eq!(unnamed(ours), unnamed(checked), "{file}");
    }
    assert_eq!(referee.finish().0, 0);
}

/// A game of `rules` among `players`, the table's events drawn until a player is to move: its
/// id, its players, and the events they may take.
fn at_a_players_turn(referee: &mut Referee, rules: &str, players: usize) -> (String, Vec<Json>, Vec<Json>) {
    let opened = referee.ok(json!({"id": 0, "op": "new", "rules": rules, "players": players, "seed": 7}));
    let (game, players) = (opened["game"].as_str().unwrap().to_string(), opened["players"].as_array().unwrap().clone());
    let mut legal = opened["legal"].clone();
    loop {
        let moves: Vec<Json> = legal
            .as_array()
            .unwrap()
            .iter()
            .filter(|l| players.contains(&l["by"]))
            .map(|l| l["event"].clone())
            .collect();
        if !moves.is_empty() {
            return (game, players, moves);
        }
        referee.ok(json!({"id": 0, "op": "draw", "game": game}));
        legal = referee.ok(json!({"id": 0, "op": "legal", "game": game}))["legal"].clone();
    }
}

/// What can be asked of a game without changing it: to compare before and after.
fn everything_about(referee: &mut Referee, game: &str) -> Vec<Json> {
    let ops = [json!({"op": "legal"}), json!({"op": "state"}), json!({"op": "state", "all": true})];
    let more = [json!({"op": "transcript"}), json!({"op": "verdict"})];
    ops.into_iter()
        .chain(more)
        .map(|mut ask| {
            ask["id"] = json!("look");
            ask["game"] = json!(game);
            referee.ok(ask)
        })
        .collect()
}

#[test]
fn a_refused_event_carries_checks_verdict_and_changes_nothing() {
    let scratch = Scratch::new("referee-refused");
    let mut referee = Referee::start(&[]);
    let (game, players, legal) = at_a_players_turn(&mut referee, "hangover", 4);
    let before = everything_about(&mut referee, &game);
    let (view, all) = (&before[1]["state"], &before[2]["state"]);
    assert!(all.as_object().unwrap().len() > view.as_object().unwrap().len(), "`all` is every variable");
    let mover = legal[0]["by"].as_str().unwrap();
    let someone_else = players.iter().find(|p| *p != mover).unwrap();
    let out_of_turn = {
        let mut e = legal[0].clone();
        e["by"] = json!(someone_else);
        e
    };
    let transcript = before[3]["transcript"].as_str().unwrap().to_string();
    let (mut files, mut refusals) = (vec![], vec![]);
    for (n, event) in
        [out_of_turn, json!({"by": mover, "play": "ZZ"}), json!({"by": "nobody"}), json!(7)].into_iter().enumerate()
    {
        let reply = referee.send(json!({"id": n, "op": "apply", "game": game, "event": event}).to_string().as_bytes());
        assert_eq!(reply["ok"], false, "{event}: {reply}");
        let want = if n == 0 { "illegal" } else { "malformed" };
        assert_eq!(reply["refused"]["verdict"], want, "{event}: {reply}");
        files.push(scratch.write(&format!("refused-{n}.yaml"), &format!("{transcript}  - {event}\n")));
        refusals.push(reply["refused"].clone());
        assert_eq!(everything_about(&mut referee, &game), before, "{event}: the game is unchanged");
    }
    for ((file, refused), checked) in files.iter().zip(refusals).zip(check(&files)) {
        assert_eq!(unnamed(refused), unnamed(checked), "{file}");
    }
    // A listed event is taken.
    let taken = referee.ok(json!({"id": 9, "op": "apply", "game": game, "event": legal[0]}));
    assert_eq!(taken["events"], before[0]["events"].as_u64().unwrap() + 1, "{taken}");
    assert_eq!(referee.finish().0, 0);
}

#[test]
fn undo_gives_back_the_game_before_the_last_event() {
    let mut referee = Referee::start(&[]);
    let game = referee.ok(json!({"id": 1, "op": "new", "rules": "curtain-call", "players": 2, "seed": 4}))["game"]
        .as_str()
        .unwrap()
        .to_string();
    let nothing = referee.ok(json!({"id": 2, "op": "undo", "game": game}));
    assert_eq!((&nothing["undone"], &nothing["events"]), (&json!(false), &json!(0)), "{nothing}");
    for n in 0..5 {
        referee.ok(json!({"id": n, "op": "draw", "game": game}));
    }
    let before = everything_about(&mut referee, &game);
    let drawn = referee.ok(json!({"id": 3, "op": "draw", "game": game}))["event"].clone();
    let undone = referee.ok(json!({"id": 4, "op": "undo", "game": game}));
    assert_eq!((&undone["undone"], &undone["events"]), (&json!(true), &json!(5)), "{undone}");
    assert_eq!(everything_about(&mut referee, &game), before);
    let again = referee.ok(json!({"id": 5, "op": "draw", "game": game}))["event"].clone();
    assert_eq!(again, drawn, "the generator is given back too");
    assert_eq!(referee.finish().0, 0);
}

#[test]
fn a_game_resumes_from_a_transcript() {
    let whole = play("curtain-call", 2, 9);
    let lines: Vec<&str> = whole.lines().collect();
    let kept = lines.len() - 20;
    let half = lines[..kept].join("\n") + "\n";
    let mut referee = Referee::start(&[]);
    let resumed = referee.ok(json!({"id": 1, "op": "new", "rules": "curtain-call", "transcript": half}));
    let game = resumed["game"].as_str().unwrap().to_string();
    let taken = half.lines().filter(|l| l.starts_with("  - ")).count();
    assert_eq!(resumed["events"], taken, "{resumed}");
    for (n, line) in lines[kept..].iter().enumerate() {
        let event: Json = serde_json::from_str(line.trim_start_matches("  - ")).unwrap();
        referee.ok(json!({"id": n, "op": "apply", "game": game, "event": event}));
    }
    let transcript = referee.ok(json!({"id": 2, "op": "transcript", "game": game}));
    assert_eq!(transcript["transcript"], whole);
    let verdict = referee.ok(json!({"id": 3, "op": "verdict", "game": game}))["verdict"].clone();
    let scratch = Scratch::new("referee-resumed");
    let checked = check(&[scratch.write("whole.yaml", &whole)]).remove(0);
    assert_eq!(unnamed(verdict), unnamed(checked));
    // A transcript that is not legal is not resumed: the reply is check's verdict on it.
    let illegal = std::fs::read_to_string(repo().join("fixtures/hangover/must-follow.yaml")).unwrap();
    let refused = referee.ask(json!({"id": 4, "op": "new", "rules": "hangover", "transcript": illegal}));
    let checked = check(&["fixtures/hangover/must-follow.yaml".to_string()]).remove(0);
    assert_eq!(unnamed(refused["refused"].clone()), unnamed(checked), "{refused}");
    assert_eq!(referee.finish().0, 0);
}

#[test]
fn a_refused_new_names_no_game_id() {
    let mut referee = Referee::start(&[]);
    let illegal = std::fs::read_to_string(repo().join("fixtures/hangover/must-follow.yaml")).unwrap();
    let refused = referee.ask(json!({"id": 1, "op": "new", "rules": "hangover", "transcript": illegal}));
    // A transcript that cannot be read still names the rules the request named.
    let unread = referee.ask(json!({"id": 2, "op": "new", "rules": "hangover", "transcript": "events: ["}));
    assert_eq!(unread["refused"]["verdict"], "malformed", "{unread}");
    assert_eq!(unread["refused"]["rules"], "hangover", "{unread}");
    let opened = referee.ok(json!({"id": 3, "op": "new", "rules": "hangover", "players": 3}));
    for refusal in [&refused, &unread] {
        assert_eq!(refusal["refused"]["file"], "transcript", "{refusal}");
        assert_ne!(refusal["refused"]["file"], opened["game"], "a later game's id: {refusal}");
    }
    // A game opened is named by its id, one gone on from a transcript too.
    let empty = "rules: curtain-call\nplayers: [aki, ben]\nevents: []\n";
    let resumed = referee.ok(json!({"id": 4, "op": "new", "rules": "curtain-call", "transcript": empty}));
    for game in [&opened["game"], &resumed["game"]] {
        let verdict = referee.ok(json!({"id": 5, "op": "verdict", "game": game}));
        assert_eq!(&verdict["verdict"]["file"], game, "{verdict}");
    }
    assert_eq!(referee.finish().0, 0);
}

#[test]
fn a_bad_request_gets_an_error_and_the_referee_goes_on() {
    use shinpan::codes::{REFEREE_BAD_REQUEST as BAD, REFEREE_UNKNOWN_GAME, REFEREE_UNKNOWN_OP, USAGE};
    let mut referee = Referee::start(&[]);
    let game = referee.ok(json!({"id": 0, "op": "new", "rules": "hangover", "players": 3}))["game"].clone();
    let deep = format!(
        "{{\"id\": 1, \"op\": \"apply\", \"game\": \"g1\", \"event\": {}{}}}",
        "[".repeat(200),
        "]".repeat(200)
    );
    let bad: [(&[u8], &str); 19] = [
        (deep.as_bytes(), BAD),
        (b"not json", BAD),
        (b"[1, 2]", BAD),
        (b"{\"id\": 1", BAD),
        (b"\xff\xfe{}", BAD),
        (b"{\"id\": 1}", BAD),
        (b"{\"id\": 1, \"op\": 7}", BAD),
        (b"{\"id\": 1, \"op\": \"fly\", \"game\": \"g1\"}", REFEREE_UNKNOWN_OP),
        (b"{\"id\": 1, \"op\": \"legal\"}", BAD),
        (b"{\"id\": 1, \"op\": \"legal\", \"game\": \"g999\"}", REFEREE_UNKNOWN_GAME),
        (b"{\"id\": 1, \"op\": \"apply\", \"game\": \"g1\"}", BAD),
        (b"{\"id\": 1, \"op\": \"state\", \"game\": \"g1\", \"all\": \"yes\"}", BAD),
        (b"{\"id\": 1, \"op\": \"new\"}", BAD),
        (b"{\"id\": 1, \"op\": \"new\", \"rules\": \"hangover\", \"players\": \"four\"}", BAD),
        (b"{\"id\": 1, \"op\": \"new\", \"rules\": \"hangover\", \"players\": 3, \"seed\": -1}", BAD),
        (b"{\"id\": 1, \"op\": \"new\", \"rules\": \"hangover\", \"transcript\": \"x\", \"players\": 3}", BAD),
        (b"{\"id\": 1, \"op\": \"new\", \"rules\": \"hangovr\", \"players\": 3}", USAGE),
        (b"{\"id\": 1, \"op\": \"new\", \"rules\": \"hangover\"}", USAGE),
        // Named one by one, a billion players would fill the memory: the count is checked first.
        (b"{\"id\": 1, \"op\": \"new\", \"rules\": \"hangover\", \"players\": 1000000000000}", USAGE),
    ];
    for (line, code) in bad {
        let reply = referee.refuse(line, code);
        let id = serde_json::from_slice::<Json>(line).ok().and_then(|r| r.get("id").cloned()).unwrap_or(Json::Null);
        assert_eq!(reply["id"], id, "{reply}");
        let as_json = serde_json::from_slice(line).unwrap_or(Json::Null);
        // Only a request the schema allows can name rules or a game that do not exist.
        let schema_allows = [USAGE, REFEREE_UNKNOWN_GAME].contains(&code);
        assert_eq!(fits(&schema().request, &as_json).is_ok(), schema_allows, "{as_json}");
        // The game opened before is still served.
        referee.ok(json!({"id": "after", "op": "legal", "game": game}));
    }
    let (code, stderr) = referee.finish();
    assert_eq!(code, 0, "{stderr}");
}

#[test]
fn the_id_is_echoed_as_it_was_written() {
    let mut referee = Referee::start(&[]);
    let rest = |line: &str| line.split_once(",\"ok\"").unwrap().1.to_string();
    let plain = referee.send_raw(br#"{"id": 1, "op": "legal", "game": "g9"}"#);
    let deep = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
    let ids = [
        ("123456789012345678901234567890", "123456789012345678901234567890"),
        ("1e2", "1e2"),
        ("1e400", "1e400"),
        ("-0.50", "-0.50"),
        (r#""\u00e9 \" ,\"ok\"""#, r#""\u00e9 \" ,\"ok\"""#),
        // Blanks outside strings are left out: a reply is one line for every reader.
        ("[1,\t{\"a\" :\r 1e400, \"b c\": \" \"}]", r#"[1,{"a":1e400,"b c":" "}]"#),
        (&deep(126), &deep(126)),
    ];
    for (written, echoed) in ids {
        let reply = referee.send_raw(format!(r#"{{"id": {written}, "op": "legal", "game": "g9"}}"#).as_bytes());
        assert!(reply.starts_with(&format!("{{\"id\":{echoed},\"ok\"")), "{written}: {reply}");
        assert_eq!(rest(&reply), rest(&plain), "{written}: the rest of the reply is as for any id");
    }
    // A bad request echoes its id too; one nested past the limit is not read.
    let bad = referee.send_raw(br#"{"id": 1e400, "op": "fly"}"#);
    assert!(bad.starts_with(r#"{"id":1e400,"ok":false,"error":{"code":"shinpan::referee::unknown-op""#), "{bad}");
    let too_deep = format!(r#"{{"id": {}, "op": "legal", "game": "g9"}}"#, deep(127));
    let refused = referee.refuse(too_deep.as_bytes(), "shinpan::referee::bad-request");
    assert_eq!(refused["id"], Json::Null, "{refused}");
    assert!(refused["error"]["message"].as_str().unwrap().contains("recursion limit"), "{refused}");
    assert_eq!(referee.finish().0, 0);
}

#[test]
fn text_from_a_request_reaches_standard_error_only_escaped() {
    let mut referee = Referee::start(&[]);
    let sneaky = "\u{1b}]0;owned\u{7}\u{1b}[2J";
    let requests = [
        json!({"id": sneaky, "op": sneaky, "game": sneaky}),
        json!({"id": 1, "op": "new", "rules": sneaky, "players": 3}),
        json!({"id": 2, "op": "legal", "game": sneaky}),
    ];
    for request in requests {
        let raw = referee.send_raw(request.to_string().as_bytes());
        assert!(!raw.contains('\u{1b}') && !raw.contains('\u{7}'), "{raw:?}");
        assert!(raw.contains("\\u001b"), "written as JSON writes it: {raw}");
    }
    let (code, stderr) = referee.finish();
    assert_eq!(code, 0);
    assert!(!stderr.contains('\u{1b}') && !stderr.contains('\u{7}'), "{stderr:?}");
}

#[test]
fn many_games_at_once_each_go_as_if_alone() {
    let mut referee = Referee::start(&[]);
    let mut open: Vec<(String, &str, usize, u64)> = vec![];
    for (n, &(rules, players)) in GAMES.iter().enumerate() {
        let seed = 100 + n as u64;
        let opened = referee.ok(json!({"id": n, "op": "new", "rules": rules, "players": players, "seed": seed}));
        open.push((opened["game"].as_str().unwrap().to_string(), rules, players, seed));
    }
    let ids: std::collections::BTreeSet<&String> = open.iter().map(|(g, ..)| g).collect();
    assert_eq!(ids.len(), open.len(), "each game its own id");
    // One draw each in turn, until every game is over.
    let mut playing: Vec<&(String, &str, usize, u64)> = open.iter().collect();
    while !playing.is_empty() {
        playing.retain(|(game, ..)| !referee.ok(json!({"id": game, "op": "draw", "game": game}))["event"].is_null());
    }
    for (game, rules, players, seed) in &open {
        let transcript = referee.ok(json!({"id": 1, "op": "transcript", "game": game}));
        assert_eq!(transcript["transcript"], play(rules, *players, *seed), "{rules}");
        referee.ok(json!({"id": 2, "op": "close", "game": game}));
        let closed = referee.ask(json!({"id": 3, "op": "legal", "game": game}));
        assert_eq!(closed["error"]["code"], "shinpan::referee::unknown-game", "{closed}");
    }
    assert_eq!(referee.finish().0, 0);
}

/// Peak memory of a process, in bytes, where Linux says it.
fn peak_memory(child: &Child) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{}/status", child.id())).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse::<u64>().ok().map(|kb| kb * 1024)
}

#[test]
fn a_line_past_the_cap_is_refused_without_being_held() {
    let mut referee = Referee::start(&["--max-line-bytes", "1000"]);
    let game = referee.ok(json!({"id": 1, "op": "new", "rules": "hangover", "players": 3}))["game"].clone();
    // A good request, but too long: padded with spaces inside the object.
    let long = format!("{{\"id\": 2, \"op\": \"legal\", \"game\": {game}{}}}", " ".repeat(1000));
    let reply = referee.refuse(long.as_bytes(), "shinpan::referee::limit");
    assert_eq!(reply["id"], Json::Null, "the line was not read: {reply}");
    let exactly = format!("{{\"id\": 3, \"op\": \"legal\", \"game\": {game}}}");
    let padded = format!("{}{}", exactly, " ".repeat(1000 - exactly.len()));
    assert_eq!(referee.send(padded.as_bytes())["ok"], true, "a line of exactly the cap is read");
    assert_eq!(referee.finish().0, 0);
    // The default cap, 64 MiB: a longer line is skipped, not held in memory.
    // A line far past the cap is skipped, not held in memory.
    let mut referee = Referee::start(&["--max-line-bytes", "1000"]);
    let huge = vec![b' '; 256 * 1024 * 1024];
    referee.refuse(&huge, "shinpan::referee::limit");
    if let Some(peak) = peak_memory(&referee.child) {
        assert!(peak < 64 * 1024 * 1024, "the referee held {peak} bytes");
    }
    assert_eq!(referee.finish().0, 0);
    // The default cap: 64 MiB.
    let mut referee = Referee::start(&[]);
    let reply = referee.refuse(&huge[..64 * 1024 * 1024 + 1], "shinpan::referee::limit");
    assert!(reply["error"]["message"].as_str().unwrap().contains("67108864"), "{reply}");
    referee.ok(json!({"id": 4, "op": "new", "rules": "hangover", "players": 3}));
    assert_eq!(referee.finish().0, 0);
}

#[test]
fn games_past_the_cap_are_refused_until_one_is_closed() {
    let mut referee = Referee::start(&["--max-games", "3"]);
    let new = json!({"id": 1, "op": "new", "rules": "hangover", "players": 3});
    let games: Vec<Json> = (0..3).map(|_| referee.ok(new.clone())["game"].clone()).collect();
    referee.refuse(new.to_string().as_bytes(), "shinpan::referee::limit");
    referee.ok(json!({"id": 2, "op": "close", "game": games[1]}));
    let reopened = referee.ok(new.clone());
    assert!(!games.contains(&reopened["game"]), "an id is never given twice: {reopened}");
    assert_eq!(referee.finish().0, 0);
    // The default: 10,000.
    let mut referee = Referee::start(&[]);
    for _ in 0..10_000 {
        referee.ok(new.clone());
    }
    referee.refuse(new.to_string().as_bytes(), "shinpan::referee::limit");
    assert_eq!(referee.finish().0, 0);
}

#[test]
fn events_past_the_cap_are_refused() {
    let mut referee = Referee::start(&["--max-events", "3"]);
    let game = referee.ok(json!({"id": 1, "op": "new", "rules": "hangover", "players": 3}))["game"].clone();
    for _ in 0..3 {
        referee.ok(json!({"id": 2, "op": "draw", "game": game}));
    }
    referee.refuse(json!({"id": 3, "op": "draw", "game": game}).to_string().as_bytes(), "shinpan::referee::limit");
    // The cap is met before the event is read.
    let apply = json!({"id": 5, "op": "apply", "game": game, "event": {"by": "table", "deal": {}}});
    referee.refuse(apply.to_string().as_bytes(), "shinpan::referee::limit");
    referee.ok(json!({"id": 6, "op": "undo", "game": game}));
    assert_eq!(referee.ok(json!({"id": 7, "op": "draw", "game": game}))["events"], 3);
    // A game resumed from a transcript may take as many events as one drawn, and no more.
    let whole = play("hangover", 3, 1);
    let resume =
        |events: usize| json!({"id": 8, "op": "new", "rules": "hangover", "transcript": first_events(&whole, events)});
    assert_eq!(referee.ok(resume(3))["events"], 3);
    let reply = referee.refuse(resume(4).to_string().as_bytes(), "shinpan::referee::limit");
    assert!(reply["error"]["message"].as_str().unwrap().contains("4 events, more than the 3"), "{reply}");
    assert_eq!(referee.finish().0, 0);
}

/// A transcript cut after its first `events` events.
fn first_events(transcript: &str, events: usize) -> String {
    let is_event = |line: &&str| line.starts_with("  - ");
    let head = transcript.lines().filter(|l| !is_event(l));
    let kept: Vec<&str> = head.chain(transcript.lines().filter(is_event).take(events)).collect();
    kept.join("\n") + "\n"
}

#[test]
fn only_built_in_rules_reads_no_rules_file() {
    let mut referee = Referee::start(&["--only-builtin-rules"]);
    let file = repo().join("specs/hangover.rules").display().to_string();
    let reply = referee
        .refuse(json!({"id": 1, "op": "new", "rules": file, "players": 3}).to_string().as_bytes(), "shinpan::usage");
    assert!(reply["error"]["message"].as_str().unwrap().contains("--only-builtin-rules"), "{reply}");
    referee.ok(json!({"id": 2, "op": "new", "rules": "hangover", "players": 3}));
    assert_eq!(referee.finish().0, 0);
    // Without it, a rules file is read, with a variant.
    let mut referee = Referee::start(&[]);
    let opened = referee.ok(json!({"id": 3, "op": "new", "rules": file, "players": 3, "variant": {"hand_size": 3}}));
    let transcript = referee.ok(json!({"id": 4, "op": "transcript", "game": opened["game"]}));
    assert!(transcript["transcript"].as_str().unwrap().contains("variant: {\"hand_size\":3}"), "{transcript}");
    let out_of_range = json!({"id": 5, "op": "new", "rules": file, "players": 3, "variant": {"hand_size": 99}});
    referee.refuse(out_of_range.to_string().as_bytes(), "shinpan::usage");
    assert_eq!(referee.finish().0, 0);
}

#[test]
fn a_rules_name_is_a_built_in_one_or_a_rules_file_never_any_file() {
    let scratch = Scratch::new("referee-not-rules");
    let secret = scratch.write("secret.txt", "extends password_hunter2_xyz\ngame hunter2\n");
    let link = scratch.link(&secret, "secret.rules");
    let mut referee = Referee::start(&[]);
    let refused = [
        (secret.clone(), "is not a rules file: its name must end in `.rules`"),
        (link, "does not end in `.rules`"),
        ("hangovr".to_string(), "did you mean `hangover`?"),
        (scratch.path("missing.rules"), "cannot read rules file"),
    ];
    for (rules, why) in refused {
        let new = json!({"id": 1, "op": "new", "rules": rules, "players": 3});
        let reply = referee.refuse(new.to_string().as_bytes(), "shinpan::usage");
        let message = reply["error"]["message"].as_str().unwrap();
        assert!(message.contains(why), "{rules}: {reply}");
        assert!(!message.contains("hunter2"), "the file was read: {reply}");
    }
    // A relative path is found from the referee's working directory (the repository's here).
    referee.ok(json!({"id": 2, "op": "new", "rules": "specs/hangover.rules", "players": 3}));
    assert_eq!(referee.finish().0, 0);
}

#[test]
fn a_rules_file_that_does_not_compile_is_refused_with_its_place_until_it_is_mended() {
    let scratch = Scratch::new("referee-broken-rules");
    let broken = scratch.write("broken.rules", "game broken\nplayers 2\n\nrule r \"x\"\n  flow {\n");
    let undeclared = "game odd\nplayers 2\nscores {}\nwinners []\nflow {\n  finish\n}\nvar x = nothere\n";
    let parent = scratch.write("parent.rules", undeclared);
    let child = scratch.write("child.rules", "extends parent.rules\ngame child\n");
    let mut referee = Referee::start(&[]);
    let cases = [
        (&broken, "shinpan::spec::syntax", format!("{broken}:5:8: syntax error")),
        // An error in the file extended is placed in that file.
        (&child, "shinpan::spec::unknown-name", format!("{parent}:8:9: unknown name `nothere`")),
    ];
    for (rules, code, place) in cases {
        let reply =
            referee.refuse(json!({"id": 1, "op": "new", "rules": rules, "players": 2}).to_string().as_bytes(), code);
        assert!(reply["error"]["message"].as_str().unwrap().starts_with(&place), "{reply}");
    }
    // The file extended, mended while the referee runs: the next `new` compiles it again.
    std::fs::write(&parent, undeclared.replace("nothere", "0")).unwrap();
    referee.ok(json!({"id": 2, "op": "new", "rules": child, "players": 2}));
    assert_eq!(referee.finish().0, 0);
}

#[test]
fn a_zero_limit_is_a_usage_error() {
    for limit in ["--max-games", "--max-events", "--max-line-bytes"] {
        let (code, out, err) = common::run(bin().args(["referee", limit, "0"]));
        assert_eq!((code, out.as_str()), (64, ""), "{limit}: {err}");
        assert!(err.contains(limit) && err.contains("at least 1"), "{limit}: {err}");
    }
}

#[test]
fn the_referee_exits_74_when_its_replies_are_lost() {
    let full = std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap();
    let mut child = bin().arg("referee").stdin(Stdio::piped()).stdout(full).stderr(Stdio::piped()).spawn().unwrap();
    child.stdin.take().unwrap().write_all(b"{\"id\": 1, \"op\": \"legal\", \"game\": \"g1\"}\n").unwrap();
    assert_eq!(child.wait().unwrap().code(), Some(74));
    // With nothing asked, there is nothing to write: the end of the input is exit 0.
    let (code, out, _) = common::run(bin().arg("referee"));
    assert_eq!((code, out.as_str()), (0, ""));
}

// Every fixture, stepped through the pipe.

/// The fixtures of the checker: each transcript beside an `expected.jsonl`.
fn fixtures() -> Vec<PathBuf> {
    let mut dirs = vec![];
    for entry in std::fs::read_dir(repo().join("fixtures")).unwrap() {
        let dir = entry.unwrap().path();
        if dir.ends_with("examples") {
            dirs.extend(std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()));
        } else {
            dirs.push(dir);
        }
    }
    let mut files = vec![];
    for dir in dirs.iter().filter(|d| d.join("expected.jsonl").exists()) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "yaml" || e == "json") {
                files.push(path);
            }
        }
    }
    files.sort();
    assert!(files.len() > 250, "the fixtures are found ({})", files.len());
    files
}

/// The rules a fixture names, as a request names them: a built-in game, or the path of a
/// rules file beside it.
fn rules_of(path: &Path, transcript: &Json) -> Option<String> {
    let name = transcript["rules"].as_str()?;
    let builtin = shinpan::editor::builtin_games().any(|g| g == name);
    Some(if builtin { name.to_string() } else { path.parent()?.join(name).to_string_lossy().into_owned() })
}

/// A transcript as JSON (YAML read through the engine's own reader).
fn transcript_json(text: &str) -> Option<Json> {
    let raw = shinpan::transcript::read(text).ok()?;
    let mut t = serde_json::Map::new();
    for (key, value) in [("rules", &raw.rules), ("players", &raw.players), ("variant", &raw.variant)] {
        if let Some(v) = value {
            t.insert(key.into(), v.value.to_json());
        }
    }
    let events: Vec<Json> = raw.events?.ok()?.iter().map(|e| e.value.to_json()).collect();
    t.insert("events".into(), Json::Array(events));
    Some(Json::Object(t))
}

/// What a verdict says that does not depend on where the transcript writes its events.
fn judged(mut verdict: Json) -> Json {
    let o = verdict.as_object_mut().unwrap();
    for key in ["file", "rules"] {
        o.remove(key);
    }
    for v in o.get_mut("violations").and_then(Json::as_array_mut).into_iter().flatten() {
        let v = v.as_object_mut().unwrap();
        v.remove("line");
        v.remove("column");
        if let Some(history) = v.get_mut("history").and_then(Json::as_object_mut) {
            for changes in history.values_mut().filter_map(Json::as_array_mut) {
                for c in changes.iter_mut().filter_map(Json::as_object_mut) {
                    c.remove("line");
                }
            }
        }
    }
    for n in o.get_mut("notes").and_then(Json::as_array_mut).into_iter().flatten() {
        n.as_object_mut().unwrap().remove("line");
    }
    verdict
}

/// Steps a transcript's events through the referee: the verdict of the first refused, or of
/// the game after the last.
fn stepped(referee: &mut Referee, rules: &str, transcript: &Json) -> Json {
    let mut start = transcript.clone();
    start["events"] = json!([]);
    let opened = referee.ask(json!({"id": 0, "op": "new", "rules": rules, "transcript": start.to_string()}));
    if opened["ok"] == false {
        return opened["refused"].clone();
    }
    let game = opened["game"].clone();
    for (n, event) in transcript["events"].as_array().unwrap().iter().enumerate() {
        let reply = referee.send(json!({"id": n, "op": "apply", "game": game, "event": event}).to_string().as_bytes());
        if reply["ok"] == false {
            referee.ok(json!({"id": "close", "op": "close", "game": game}));
            return reply["refused"].clone();
        }
    }
    let verdict = referee.ok(json!({"id": "verdict", "op": "verdict", "game": game}))["verdict"].clone();
    referee.ok(json!({"id": "close", "op": "close", "game": game}));
    verdict
}

#[test]
fn every_fixture_stepped_through_the_pipe_gets_the_verdict_of_the_whole_file() {
    let mut referee = Referee::start(&[]);
    let mut compared = 0;
    for path in fixtures() {
        let Ok(text) = std::fs::read_to_string(&path) else { continue }; // not text: never a game
        let Some(mut transcript) = transcript_json(&text) else { continue };
        let Some(rules_name) = rules_of(&path, &transcript) else { continue };
        let Ok(rules) = shinpan::Rules::new(&rules_name) else { continue };
        let name = path.to_string_lossy().into_owned();
        // A card file the variant names is found from the transcript's folder: named from
        // here, for the whole transcript and the game alike.
        let whole = if let Some(variant) = transcript["variant"].as_object_mut()
            && let Some(pool) = variant.get_mut("pool")
            && let Some(file) = pool.as_str()
        {
            *pool = json!(path.parent().unwrap().join(file));
            rules.check_value(&name, &transcript)
        } else {
            rules.check_text(&name, &text)
        };
        if whole.verdict == shinpan::Verdict::Malformed {
            continue;
        }
        let step = stepped(&mut referee, &rules_name, &transcript);
        assert_eq!(judged(step), judged(whole.json()), "{name}: stepped, then whole");
        compared += 1;
    }
    assert!(compared > 200, "{compared} fixtures compared");
    assert_eq!(referee.finish().0, 0);
}

// The example.

#[test]
fn the_python_example_plays_a_game_that_check_passes() {
    if Command::new("python3").arg("--version").output().is_err() {
        common::say_skipped("no python3 to run examples/referee/play.py");
        return;
    }
    let scratch = Scratch::new("referee-example");
    let out = scratch.path("game.yaml");
    let script = repo().join("examples/referee/play.py");
    let ran = Command::new("python3")
        .arg(&script)
        .args(["--shinpan", common::exe(), "--out", &out, "--seed", "3"])
        .current_dir(repo())
        .output()
        .unwrap();
    let (stdout, stderr) = (String::from_utf8_lossy(&ran.stdout), String::from_utf8_lossy(&ran.stderr));
    assert!(ran.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("winners"), "{stdout}");
    let verdict = check(&[out]).remove(0);
    assert_eq!((&verdict["verdict"], &verdict["finished"]), (&json!("legal"), &json!(true)), "{verdict}");
}
