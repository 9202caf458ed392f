//! The language server under load (issue 29, class 13): a document over the rules-file limit
//! is refused by every request, as `shinpan lint` refuses it, rather than formatted or
//! analysed; and changes that queue up are applied in order but analysed once, with the
//! newest text, before the next request about the document.
//!
//! Nothing here is timed. What is counted: the diagnostics published (one per analysis), and
//! what the answers hold. The server is driven over stdio from a file holding every message
//! (so they all wait at once), and in process over a channel filled before it starts (so the
//! count is exact).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "tests fail loudly")]

mod common;

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use serde_json::{Value, json};

/// A small game that compiles.
const TINY: &str = r#"game tiny
players 2..3

rule too-high "a number is at most the limit"

param limit: int 1..10 = 5

action say: int 0..10

var total per player = 0

fn doubled(n) = n * 2

flow {
  for p in players {
    choose {
      say(n) by p {
        require n <= limit else too-high "{p} said {n}, more than {limit}"
        total[p] += doubled(n)
      }
    }
  }
}

scores total
winners []
"#;

const URI: &str = "file:///nowhere/queued.rules";

fn request(id: i64, method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

fn notification(method: &str, params: Value) -> Value {
    json!({"jsonrpc": "2.0", "method": method, "params": params})
}

fn initialize() -> Vec<Value> {
    vec![request(0, "initialize", json!({"capabilities": {}})), notification("initialized", json!({}))]
}

fn finish(id: i64) -> Vec<Value> {
    vec![request(id, "shutdown", Value::Null), notification("exit", Value::Null)]
}

fn open(uri: &str, text: &str) -> Value {
    let document = json!({"uri": uri, "languageId": "shinpan", "version": 1, "text": text});
    notification("textDocument/didOpen", json!({"textDocument": document}))
}

fn change(uri: &str, version: usize, changes: Value) -> Value {
    notification(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": changes}),
    )
}

fn position(text: &str, offset: usize) -> Value {
    let before = &text[..offset];
    let line = before.matches('\n').count();
    let column = before.rfind('\n').map_or(offset, |at| offset - at - 1);
    json!({"line": line, "character": before[offset - column..].encode_utf16().count()})
}

/// Runs the real `shinpan lsp` with every message already waiting on its standard input, and
/// reads all it writes until it exits.
fn over_stdio(messages: &[Value]) -> Vec<Value> {
    let dir = std::env::temp_dir().join(format!("shinpan-trust-lsp-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join(format!("input-{}", messages.len()));
    let mut file = std::fs::File::create(&input).unwrap();
    for message in messages {
        let body = message.to_string();
        write!(file, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
    }
    drop(file);
    let mut child = Command::new(env!("CARGO_BIN_EXE_shinpan"))
        .arg("lsp")
        .stdin(std::fs::File::open(&input).unwrap())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut output = BufReader::new(child.stdout.take().unwrap());
    let mut out = vec![];
    while let Some(message) = read_message(&mut output) {
        out.push(message);
    }
    assert!(child.wait().unwrap().success(), "the server ends with status 0 after shutdown and exit");
    let _ = std::fs::remove_file(&input);
    out
}

fn read_message(output: &mut impl BufRead) -> Option<Value> {
    let mut length = 0;
    loop {
        let mut line = String::new();
        if output.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(value) = line.strip_prefix("Content-Length: ") {
            length = value.parse().unwrap();
        }
    }
    let mut body = vec![0; length];
    output.read_exact(&mut body).ok()?;
    Some(serde_json::from_slice(&body).unwrap())
}

/// Runs the server in this process over a channel that holds every message before it starts.
fn in_process(messages: &[Value]) -> Vec<Value> {
    let (server, client) = lsp_server::Connection::memory();
    for message in messages {
        client.sender.send(serde_json::from_value(message.clone()).unwrap()).unwrap();
    }
    let serve = move || shinpan_lsp::serve(&server);
    let status = std::thread::Builder::new().stack_size(64 << 20).spawn(serve).unwrap().join().unwrap();
    assert_eq!(status, 0, "the server ends with status 0 after shutdown and exit");
    client.receiver.try_iter().map(|m| serde_json::to_value(m).unwrap()).collect()
}

fn published<'a>(out: &'a [Value], uri: &str) -> Vec<&'a Value> {
    out.iter()
        .filter(|m| m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri)
        .map(|m| &m["params"])
        .collect()
}

fn response(out: &[Value], id: i64) -> &Value {
    out.iter().find(|m| m["id"] == id && m.get("method").is_none()).unwrap_or_else(|| panic!("no response {id}"))
}

/// A game that parses and that `shinpan fmt` would lay out differently, larger than the 4 MiB
/// a rules file may be.
fn over_the_limit() -> String {
    let mut text = TINY.replace("fn doubled(n) = n * 2", "fn   doubled(n)   =   n*2");
    let mut i = 0;
    while text.len() as u64 <= shinpan::files::MAX_RULES_BYTES {
        text.push_str(&format!("fn   helper_{i}( )   =   {i}+1\n"));
        i += 1;
    }
    text
}

/// Every request about a document over the limit is refused: an error for formatting, nothing
/// found for the rest, and it is never formatted (before, an 8.7 MB document took 31 s and
/// 1 GB to format, though its diagnostics already said it was too large).
#[test]
fn every_request_about_a_document_over_the_limit_is_refused() {
    let big = over_the_limit();
    let name = big.find("helper_7(").unwrap() + 1;
    let end = big.len();
    let uri = "file:///nowhere/big.rules";
    let at = |id: i64, method: &str, offset: usize| {
        request(id, method, json!({"textDocument": {"uri": uri}, "position": position(&big, offset)}))
    };
    let mut messages = initialize();
    // First a text that parses, whose names completion would remember; then the large one.
    messages.push(open(uri, TINY));
    messages.push(request(
        1,
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": position(TINY, TINY.find("doubled(n)").unwrap())}),
    ));
    messages.push(change(uri, 2, json!([{"text": big}])));
    messages.push(at(2, "textDocument/hover", name));
    messages.push(at(3, "textDocument/definition", name));
    messages.push(at(4, "textDocument/completion", end));
    messages.push(request(5, "textDocument/documentSymbol", json!({"textDocument": {"uri": uri}})));
    messages.push(request(
        6,
        "textDocument/formatting",
        json!({"textDocument": {"uri": uri}, "options": {"tabSize": 2, "insertSpaces": true}}),
    ));
    // An edit that brings it back under the limit: answered again.
    let cut = big.find("fn   helper_0").unwrap();
    let range = json!({"start": position(&big, cut), "end": position(&big, end)});
    messages.push(change(uri, 3, json!([{"range": range, "text": ""}])));
    messages.push(request(
        7,
        "textDocument/formatting",
        json!({"textDocument": {"uri": uri}, "options": {"tabSize": 2, "insertSpaces": true}}),
    ));
    messages.extend(finish(8));
    let out = over_stdio(&messages);

    assert!(response(&out, 1)["result"]["contents"]["value"].as_str().unwrap().contains("fn doubled"));
    for (id, nothing) in [(2, Value::Null), (3, Value::Null), (4, json!([])), (5, json!([]))] {
        let answer = response(&out, id);
        assert_eq!(answer["result"], nothing, "request {id} about the large document: {answer}");
    }
    let formatting = response(&out, 6);
    assert_eq!(formatting["error"]["code"], -32803, "{formatting}");
    assert!(formatting["error"]["message"].as_str().unwrap().contains("larger than 4 MiB"), "{formatting}");
    assert!(formatting.get("result").is_none(), "no edit: {formatting}");
    let edits = &response(&out, 7)["result"];
    assert!(edits[0]["newText"].as_str().unwrap().contains("fn doubled(n) = n * 2"), "{edits}");

    let versions: Vec<&Value> = published(&out, uri).into_iter().map(|p| &p["version"]).collect();
    let diagnostics = published(&out, uri).into_iter().find(|p| p["version"] == 2).expect("the large version's");
    assert_eq!(diagnostics["diagnostics"][0]["code"], "shinpan::spec::limit", "{versions:?}");
}

/// The messages of `count` queued changes to `URI`, after it is opened as TINY, and a hover
/// on the last helper they add: incremental changes (each adds a helper at the end, so their
/// order shows), a whole text among them, and at the end a name no one declares.
fn queued_changes(count: usize) -> (Vec<Value>, String) {
    let mut messages = initialize();
    messages.push(open(URI, TINY));
    let mut text = TINY.to_string();
    // Versions 2 to `count` add helpers; the last, `count + 1`, edits the flow.
    for version in 2..=count {
        let line = format!("fn helper_{version}() = {version}\n");
        if version == count / 2 {
            text.push_str(&line);
            messages.push(change(URI, version, json!([{"text": text}])));
            continue;
        }
        let end = position(&text, text.len());
        // Two changes in one message: they apply in order too.
        let (first, second) = line.split_at(3);
        let after_first = {
            let mut t = text.clone();
            t.push_str(first);
            t
        };
        let changes = json!([
            {"range": {"start": end, "end": end}, "text": first},
            {"range": {"start": position(&after_first, after_first.len()), "end": position(&after_first, after_first.len())}, "text": second},
        ]);
        text.push_str(&line);
        messages.push(change(URI, version, changes));
    }
    let last = count + 1;
    let old = "total[p] += doubled(n)";
    let start = text.find(old).unwrap();
    let range = json!({"start": position(&text, start), "end": position(&text, start + old.len())});
    text.replace_range(start..start + old.len(), "total[p] += doubled(nothing_here)");
    messages.push(change(URI, last, json!([{"range": range, "text": "total[p] += doubled(nothing_here)"}])));
    let helper = text.find(&format!("fn helper_{count}()")).unwrap() + 3;
    messages.push(request(
        1,
        "textDocument/hover",
        json!({"textDocument": {"uri": URI}, "position": position(&text, helper)}),
    ));
    messages.push(request(2, "textDocument/documentSymbol", json!({"textDocument": {"uri": URI}})));
    messages.extend(finish(3));
    (messages, text)
}

fn assert_the_newest_text_was_analysed(out: &[Value], text: &str, count: usize) {
    let last = count + 1;
    let hover = response(out, 1)["result"]["contents"]["value"].as_str().unwrap().to_string();
    assert!(hover.contains(&format!("fn helper_{count}() = {count}")), "{hover}");
    let symbols = response(out, 2)["result"].as_array().unwrap().clone();
    let helpers: Vec<&str> =
        symbols.iter().filter_map(|s| s["name"].as_str()).filter(|n| n.starts_with("helper_")).collect();
    let expected: Vec<String> = (2..=count).map(|v| format!("helper_{v}")).collect();
    let expected: Vec<&str> = expected.iter().map(String::as_str).collect();
    assert!(
        helpers == expected,
        "the helpers the changes add, in their order: {} of {}",
        helpers.len(),
        expected.len()
    );
    assert!(text.contains("doubled(nothing_here)"));
    let final_diagnostics =
        published(out, URI).into_iter().find(|p| p["version"] == last).expect("the newest version's diagnostics");
    let messages = final_diagnostics["diagnostics"].to_string();
    assert!(messages.contains("nothing_here"), "{messages}");
    // They come before the answer to the hover that needed them.
    let published_at = out.iter().position(|m| m["params"]["version"] == last).unwrap();
    let hover_at = out.iter().position(|m| m["id"] == 1).unwrap();
    assert!(published_at < hover_at);
}

/// A thousand changes waiting in the channel, then a hover: every change is applied, in order,
/// and the text analysed once (one diagnostics, of the newest version). Before, each change was
/// analysed and published in turn (1,000 changes: a hover waited 7.5 s).
#[test]
fn a_thousand_queued_changes_are_analysed_once() {
    let count = 1000;
    let (messages, text) = queued_changes(count);
    let out = in_process(&messages);
    let versions: Vec<&Value> = published(&out, URI).into_iter().map(|p| &p["version"]).collect();
    assert_eq!(versions, [&json!(count + 1)], "one analysis, of the newest text");
    assert_the_newest_text_was_analysed(&out, &text, count);
}

/// The same over stdio, the messages all waiting in the server's input: the server reads them
/// on one thread while it works on another, so how many analyses it makes while it catches up
/// with its reader is not fixed, but far fewer than one per change (before: exactly one each).
#[test]
fn queued_changes_over_stdio_are_analysed_far_fewer_times() {
    let count = 1000;
    let (messages, text) = queued_changes(count);
    let out = over_stdio(&messages);
    let analyses = published(&out, URI).len();
    assert!(analyses < count / 10, "{analyses} analyses of {count} changes");
    assert_the_newest_text_was_analysed(&out, &text, count);
}

/// Changes of every kind to one document (lines of comments put in, taken out and edited
/// inside, with characters of two UTF-16 units, several to a message), applied in order, give
/// the text the editor has: formatting it gives `shinpan fmt`'s layout of that text.
#[test]
fn changes_apply_in_order_whatever_their_ranges() {
    let base = TINY.replace("fn doubled(n) = n * 2", "fn   doubled(n)   =   n*2");
    let mut text = base.clone();
    let mut messages = initialize();
    messages.push(open(URI, &base));
    let mut seed = 7u64;
    let mut next = || {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (seed >> 33) as usize
    };
    for version in 2..400 {
        let mut changes = vec![];
        for _ in 0..1 + next() % 3 {
            let starts: Vec<usize> = std::iter::once(0).chain(text.match_indices('\n').map(|(at, _)| at + 1)).collect();
            let notes: Vec<usize> = starts.iter().copied().filter(|s| text[*s..].starts_with("// note")).collect();
            let (start, end, insert) = match (next() % 3, notes.get(next() % notes.len().max(1))) {
                (1, Some(&line)) => (line, line + text[line..].find('\n').unwrap() + 1, String::new()),
                (2, Some(&line)) => {
                    let inside: Vec<usize> = text[line..]
                        .char_indices()
                        .map(|(at, _)| line + at)
                        .take_while(|at| text.as_bytes()[*at] != b'\n')
                        .filter(|at| *at >= line + 7)
                        .collect();
                    let a = inside[next() % inside.len()];
                    let b = inside[next() % inside.len()];
                    (a.min(b), a.max(b), ["😀", "é", "x", ""][next() % 4].to_string())
                }
                _ => {
                    let line = starts[next() % starts.len()];
                    (line, line, format!("// note {version} é😀 {}\n", next() % 100))
                }
            };
            let range = json!({"start": position(&text, start), "end": position(&text, end)});
            text.replace_range(start..end, &insert);
            changes.push(json!({"range": range, "text": insert}));
        }
        messages.push(change(URI, version, Value::Array(changes)));
    }
    let options = json!({"tabSize": 2, "insertSpaces": true});
    messages.push(request(1, "textDocument/formatting", json!({"textDocument": {"uri": URI}, "options": options})));
    messages.extend(finish(2));
    let out = in_process(&messages);
    assert!(text.matches("// note").count() > 10, "{text}");
    let edits = &response(&out, 1)["result"];
    let want = shinpan::lang::fmt::format_source(&text).unwrap();
    assert_ne!(want, text);
    assert_eq!(edits[0]["newText"].as_str(), Some(want.as_str()), "{edits}");
    // The edit covers the whole of the server's text, which is the editor's.
    assert_eq!(edits[0]["range"]["end"], position(&text, text.len()));
}
