//! `shinpan lsp`: the real binary driven over stdio with Content-Length framed JSON-RPC, as an
//! editor drives it. Positions are found by searching the test texts, never hard-coded.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, reason = "tests fail loudly")]

mod common;

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

use serde_json::{Value, json};

/// A small game: every kind of declaration the tests look up.
const TINY: &str = r#"// A small game for the tests of the language server.
game tiny
players 2..3

rule too-high "a number is at most the limit"

enum Color { red, blue }

card Token(worth: int, color: Color) {
  "T1" (1, Color.red)
  "T2" (2, Color.blue)
}

param limit: int 1..10 = 5

action say: int 0..10

// Each player's running total.
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
  finish
}

scores total
winners [p for p in players where total[p] == max(values(total))]
"#;

struct Client {
    child: Child,
    input: ChildStdin,
    messages: Receiver<Value>,
    /// Notifications read while waiting for a response.
    pending: VecDeque<Value>,
    next_id: i64,
}

impl Client {
    fn start() -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_shinpan"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let input = child.stdin.take().unwrap();
        let mut output = BufReader::new(child.stdout.take().unwrap());
        let (sender, messages) = channel();
        std::thread::spawn(move || {
            while let Some(message) = read_message(&mut output) {
                if sender.send(message).is_err() {
                    return;
                }
            }
        });
        Client { child, input, messages, pending: VecDeque::new(), next_id: 1 }
    }

    /// Started and initialized, with the repository as the workspace.
    fn ready() -> Client {
        let mut client = Client::start();
        let root = uri(Path::new(common::repo()));
        let result = client.request("initialize", json!({"capabilities": {}, "rootUri": root}));
        assert_eq!(result["result"]["capabilities"]["hoverProvider"], json!(true), "{result}");
        client.notify("initialized", json!({}));
        client
    }

    fn send_bytes(&mut self, body: &[u8]) {
        write!(self.input, "Content-Length: {}\r\n\r\n", body.len()).unwrap();
        self.input.write_all(body).unwrap();
        self.input.flush().unwrap();
    }

    fn send(&mut self, message: Value) {
        self.send_bytes(message.to_string().as_bytes());
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.send(json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// Sends a request and waits for its response (the whole response, `result` or `error`).
    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let message = self.next();
            if message["id"] == json!(id) {
                return message;
            }
            self.pending.push_back(message);
        }
    }

    fn next(&mut self) -> Value {
        self.messages.recv_timeout(Duration::from_secs(30)).expect("the server answers within 30 s")
    }

    /// The next diagnostics published for `uri`.
    fn diagnostics(&mut self, uri: &str) -> Vec<Value> {
        let is_ours = |m: &Value| m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri;
        if let Some(at) = self.pending.iter().position(is_ours) {
            let message = self.pending.remove(at).unwrap();
            return message["params"]["diagnostics"].as_array().unwrap().clone();
        }
        loop {
            let message = self.next();
            if is_ours(&message) {
                return message["params"]["diagnostics"].as_array().unwrap().clone();
            }
            self.pending.push_back(message);
        }
    }

    fn open(&mut self, uri: &str, text: &str) -> Vec<Value> {
        let document = json!({"uri": uri, "languageId": "shinpan", "version": 1, "text": text});
        self.notify("textDocument/didOpen", json!({"textDocument": document}));
        self.diagnostics(uri)
    }

    fn change(&mut self, uri: &str, version: i64, text: &str) -> Vec<Value> {
        let document = json!({"uri": uri, "version": version});
        self.notify("textDocument/didChange", json!({"textDocument": document, "contentChanges": [{"text": text}]}));
        self.diagnostics(uri)
    }

    /// A request about the place of `needle` (plus `shift` bytes) in `text`.
    fn at(&mut self, method: &str, uri: &str, text: &str, needle: &str, shift: usize) -> Value {
        let position = position(text, offset(text, needle) + shift);
        let response = self.request(method, json!({"textDocument": {"uri": uri}, "position": position}));
        response["result"].clone()
    }

    /// `shutdown`, then `exit`: the exit status.
    fn stop(mut self) -> i32 {
        let response = self.request("shutdown", Value::Null);
        assert_eq!(response["result"], Value::Null, "{response}");
        self.notify("exit", Value::Null);
        wait(&mut self.child).code().unwrap()
    }
}

fn wait(child: &mut Child) -> std::process::ExitStatus {
    for _ in 0..300 {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    child.kill().unwrap();
    panic!("the server did not end within 30 s");
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

fn uri(path: &Path) -> String {
    format!("file://{}", path.display())
}

fn offset(text: &str, needle: &str) -> usize {
    text.find(needle).unwrap_or_else(|| panic!("`{needle}` is not in the text"))
}

/// The protocol's position of a byte offset: line, and UTF-16 units into the line.
fn position(text: &str, offset: usize) -> Value {
    let before = &text[..offset];
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let character: usize = before[line_start..].chars().map(char::len_utf16).sum();
    json!({"line": before.matches('\n').count(), "character": character})
}

fn range(text: &str, start: usize, len: usize) -> Value {
    json!({"start": position(text, start), "end": position(text, start + len)})
}

/// A fresh folder for one test's files.
fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("shinpan-lsp-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn hover_text(result: &Value) -> String {
    result["contents"]["value"].as_str().unwrap_or_else(|| panic!("no hover: {result}")).to_string()
}

fn labels(result: &Value) -> Vec<String> {
    result.as_array().unwrap().iter().map(|item| item["label"].as_str().unwrap().to_string()).collect()
}

#[test]
fn diagnostics_follow_the_text_as_it_is_typed() {
    let mut client = Client::ready();
    let uri = uri(&folder("diagnostics").join("tiny.rules"));
    // A mistyped helper after a character that takes two UTF-16 units.
    let broken = TINY.replace("total[p] += doubled(n)", "total[p] += len(\"😀\") + doubld(n)");
    let diagnostics = client.open(&uri, &broken);
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    let d = &diagnostics[0];
    assert_eq!(d["code"], "shinpan::spec::unknown-name");
    assert_eq!(d["severity"], 1);
    assert_eq!(d["range"], range(&broken, offset(&broken, "doubld"), "doubld".len()));
    // The emoji counts two columns: the column is not the byte or character count.
    let line = &broken[broken[..offset(&broken, "doubld")].rfind('\n').unwrap() + 1..offset(&broken, "doubld")];
    assert_eq!(d["range"]["start"]["character"], line.encode_utf16().count());
    assert_ne!(line.encode_utf16().count(), line.chars().count());
    insta::assert_snapshot!(serde_json::to_string_pretty(&diagnostics).unwrap());

    assert_eq!(client.change(&uri, 2, TINY), Vec::<Value>::new());
    // A flow that can end without `finish`: a warning, on the loop it ends after.
    let unfinished = TINY.replace("  }\n  finish\n}", "  }\n}");
    let diagnostics = client.change(&uri, 3, &unfinished);
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    assert_eq!(diagnostics[0]["code"], "shinpan::spec::no-finish");
    assert_eq!(diagnostics[0]["severity"], 2);
    assert_eq!(diagnostics[0]["range"]["start"], position(&unfinished, offset(&unfinished, "for p in players")));
    // A text that does not parse: one syntax diagnostic where it stops.
    let unparsed = TINY.replace("fn doubled(n) = n * 2", "fn doubled(n) = n *");
    let diagnostics = client.change(&uri, 4, &unparsed);
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    assert_eq!(diagnostics[0]["code"], "shinpan::spec::syntax");
    assert_eq!(client.stop(), 0);
}

#[test]
fn hover_shows_declarations_built_ins_and_rule_ids() {
    let mut client = Client::ready();
    let uri = uri(&folder("hover").join("tiny.rules"));
    assert_eq!(client.open(&uri, TINY), Vec::<Value>::new());

    let variable = client.at("textDocument/hover", &uri, TINY, "total[p] +=", 1);
    let text = hover_text(&variable);
    assert!(text.contains("var total per player = 0"), "{text}");
    assert!(text.contains("// Each player's running total."), "{text}");
    let start = offset(TINY, "total[p] +=");
    assert_eq!(variable["range"], range(TINY, start, "total".len()));

    let text = hover_text(&client.at("textDocument/hover", &uri, TINY, "max(values", 0));
    assert!(text.contains("max(xs)") && text.contains("the greatest item of a list"), "{text}");

    let text = hover_text(&client.at("textDocument/hover", &uri, TINY, "too-high \"{p}", 3));
    assert!(text.contains(r#"rule too-high "a number is at most the limit""#), "{text}");

    let text = hover_text(&client.at("textDocument/hover", &uri, TINY, "n <= limit", 0));
    assert!(text.contains("say(n) by p") && text.contains("local `n`"), "{text}");

    // Over a keyword or blank space there is nothing to say.
    assert_eq!(client.at("textDocument/hover", &uri, TINY, "flow {", 0), Value::Null);
    assert_eq!(client.stop(), 0);
}

#[test]
fn hover_leaves_out_a_section_divider_above_a_declaration() {
    let mut client = Client::ready();
    // The built-in Hangover heads each section with a divider; `hand` is the first of one.
    let hangover = std::fs::read_to_string(common::repo().join("specs/hangover.rules")).unwrap();
    let uri_hangover = uri(&folder("divider").join("hangover-copy.rules"));
    client.open(&uri_hangover, &hangover);
    let text = hover_text(&client.at("textDocument/hover", &uri_hangover, &hangover, "hand[p] = d[p]", 0));
    assert!(text.contains("var hand per player"), "{text}");
    assert!(!text.contains("----") && !text.contains("state (2.4"), "{text}");
    // A divider above a comment: the comment is said, the divider is not.
    let divided = TINY.replace("// Each player's", "// ==== totals (3.1)\n// Each player's");
    let uri_tiny = uri(&folder("divider").join("tiny.rules"));
    client.open(&uri_tiny, &divided);
    let text = hover_text(&client.at("textDocument/hover", &uri_tiny, &divided, "total[p] +=", 0));
    assert!(text.contains("// Each player's running total.\nvar total"), "{text}");
    assert!(!text.contains("===="), "{text}");
    assert_eq!(client.stop(), 0);
}

#[test]
fn definition_within_a_file_and_across_extends() {
    let mut client = Client::ready();
    let dir = folder("definition");
    let parent_path = dir.join("tiny.rules");
    std::fs::write(&parent_path, TINY).unwrap();
    let parent = uri(&parent_path);
    client.open(&parent, TINY);

    let found = client.at("textDocument/definition", &parent, TINY, "doubled(n)\n", 2);
    assert_eq!(found["uri"], parent);
    assert_eq!(found["range"], range(TINY, offset(TINY, "doubled(n) ="), "doubled".len()));
    let found = client.at("textDocument/definition", &parent, TINY, "Color.blue", 7);
    assert_eq!(found["range"], range(TINY, offset(TINY, "blue }"), "blue".len()));
    let found = client.at("textDocument/definition", &parent, TINY, "too-high \"{p}", 0);
    assert_eq!(found["range"], range(TINY, offset(TINY, "too-high \"a"), "too-high".len()));
    let found = client.at("textDocument/definition", &parent, TINY, "n <= limit", 0);
    assert_eq!(found["range"], range(TINY, offset(TINY, "say(n)") + 4, 1));

    // A variant: its own `fn` replaces the parent's; the rest is found in the parent.
    let child = "extends \"tiny.rules\"\ngame tiny-triple\n\nfn doubled(n) = n * 3 + limit\n";
    let child_uri = uri(&dir.join("triple.rules"));
    assert_eq!(client.open(&child_uri, child), Vec::<Value>::new());
    let found = client.at("textDocument/definition", &child_uri, child, "limit\n", 0);
    assert_eq!(found["uri"], parent);
    assert_eq!(found["range"], range(TINY, offset(TINY, "limit:"), "limit".len()));
    let found = client.at("textDocument/definition", &child_uri, child, "tiny.rules", 0);
    assert_eq!(found["uri"], parent);
    assert_eq!(found["range"], range(TINY, 0, 0));
    let text = hover_text(&client.at("textDocument/hover", &child_uri, child, "limit\n", 0));
    assert!(text.contains("param limit: int 1..10 = 5") && text.contains("tiny.rules"), "{text}");
    assert_eq!(client.stop(), 0);
}

#[test]
fn definition_in_a_built_in_parent_goes_to_its_file_in_the_workspace() {
    let mut client = Client::ready();
    let spec = std::fs::read_to_string(Path::new(common::repo()).join("specs/hangover.rules")).unwrap();
    let var_at = offset(&spec, "\nvar ") + "\nvar ".len();
    let name: String = spec[var_at..].chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
    let child = format!("extends hangover\ngame hangover-test\n\nfn peek() = {name}\n");
    let child_uri = uri(&folder("builtin").join("variant.rules"));
    assert_eq!(client.open(&child_uri, &child), Vec::<Value>::new());
    let found = client.at("textDocument/definition", &child_uri, &child, &format!("= {name}"), 2);
    let specs = uri(&Path::new(common::repo()).join("specs/hangover.rules"));
    assert_eq!(found["uri"], specs);
    assert_eq!(found["range"], range(&spec, var_at, name.len()));
    assert_eq!(client.stop(), 0);
}

#[test]
fn an_error_in_the_parent_is_shown_on_the_extends_line() {
    let mut client = Client::ready();
    let dir = folder("parent-error");
    let broken = TINY.replace("total[p] += doubled(n)", "total[p] += doubld(n)");
    std::fs::write(dir.join("tiny.rules"), &broken).unwrap();
    let child = "// a variant\nextends \"tiny.rules\"\ngame tiny-variant\n";
    let diagnostics = client.open(&uri(&dir.join("variant.rules")), child);
    assert_eq!(diagnostics.len(), 1, "{diagnostics:?}");
    let d = &diagnostics[0];
    assert_eq!(d["range"], range(child, offset(child, "\"tiny.rules\""), "\"tiny.rules\"".len()));
    assert!(d["message"].as_str().unwrap().contains("unknown function `doubld`"), "{d}");
    let related = &d["relatedInformation"][0]["location"];
    assert_eq!(related["uri"], uri(&dir.join("tiny.rules")));
    assert_eq!(related["range"], range(&broken, offset(&broken, "doubld"), "doubld".len()));
    assert_eq!(client.stop(), 0);
}

#[test]
fn completion_offers_what_fits_the_place() {
    let mut client = Client::ready();
    let uri = uri(&folder("completion").join("tiny.rules"));
    client.open(&uri, TINY);
    let names = labels(&client.at("textDocument/completion", &uri, TINY, "doubled(n)\n", 0));
    for expected in ["doubled", "total", "limit", "n", "p", "max_by", "say", "Color", "players", "require"] {
        assert!(names.iter().any(|n| n == expected), "no `{expected}` in {names:?}");
    }
    let rules = labels(&client.at("textDocument/completion", &uri, TINY, "too-high \"{p}", 0));
    assert!(rules.contains(&"too-high".to_string()) && rules.contains(&"turn-order".to_string()), "{rules:?}");
    assert!(!rules.contains(&"doubled".to_string()), "{rules:?}");

    // While a member is being typed the text does not parse; the last names that did are used.
    let typing = TINY.replace("fn doubled(n) = n * 2", "fn doubled(n) = n * 2\nfn best() = Color.");
    client.change(&uri, 2, &typing);
    let members = labels(&client.at("textDocument/completion", &uri, &typing, "Color.\n", 6));
    assert_eq!(members, ["red", "blue"]);
    let typing = TINY.replace("fn doubled(n) = n * 2", "fn doubled(n) = n * 2\nfn first_token() = \"T");
    client.change(&uri, 3, &typing);
    let codes = labels(&client.at("textDocument/completion", &uri, &typing, "= \"T", 3));
    assert_eq!(codes, ["T1", "T2"]);
    assert_eq!(client.stop(), 0);
}

#[test]
fn document_symbols_list_every_declaration() {
    let mut client = Client::ready();
    let uri = uri(&folder("symbols").join("tiny.rules"));
    client.open(&uri, TINY);
    let response = client.request("textDocument/documentSymbol", json!({"textDocument": {"uri": uri}}));
    let symbols = response["result"].as_array().unwrap();
    let names: Vec<&str> = symbols.iter().map(|s| s["name"].as_str().unwrap()).collect();
    assert_eq!(
        names,
        [
            "tiny", "players", "too-high", "Color", "Token", "limit", "say", "total", "doubled", "flow", "scores",
            "winners"
        ]
    );
    let doubled = symbols.iter().find(|s| s["name"] == "doubled").unwrap();
    assert_eq!(doubled["kind"], 12); // Function
    assert_eq!(doubled["range"], range(TINY, offset(TINY, "fn doubled"), "fn doubled(n) = n * 2".len()));
    let color = symbols.iter().find(|s| s["name"] == "Color").unwrap();
    assert_eq!(color["kind"], 10); // Enum
    let members: Vec<&str> =
        color["children"].as_array().unwrap().iter().map(|m| m["name"].as_str().unwrap()).collect();
    assert_eq!(members, ["red", "blue"]);
    let flow = symbols.iter().find(|s| s["name"] == "flow").unwrap();
    let flow_text = &TINY[offset(TINY, "flow {")..offset(TINY, "\n\nscores")];
    assert_eq!(flow["range"], range(TINY, offset(TINY, "flow {"), flow_text.len()));
    assert_eq!(client.stop(), 0);
}

#[test]
fn formatting_gives_the_layout_of_shinpan_fmt() {
    let mut client = Client::ready();
    let uri = uri(&folder("formatting").join("tiny.rules"));
    // The tiny file with its layout undone: everything pushed to the left, spaces doubled.
    let messy: String = TINY.lines().map(|l| format!("{}\n", l.trim_start().replace(" = ", "  =  "))).collect();
    assert_ne!(messy, TINY);
    client.open(&uri, &messy);
    let response = client.request(
        "textDocument/formatting",
        json!({"textDocument": {"uri": uri}, "options": {"tabSize": 2, "insertSpaces": true}}),
    );
    let edits = response["result"].as_array().unwrap();
    assert_eq!(edits.len(), 1, "{response}");
    let formatted = edits[0]["newText"].as_str().unwrap();
    assert_eq!(Some(formatted.to_string()), shinpan::lang::fmt::format_source(&messy).ok());
    assert_eq!(edits[0]["range"], range(&messy, 0, messy.len()));
    // A formatted document needs no edit; one that does not parse gets none.
    client.change(&uri, 2, formatted);
    let response = client.request(
        "textDocument/formatting",
        json!({"textDocument": {"uri": uri}, "options": {"tabSize": 2, "insertSpaces": true}}),
    );
    assert_eq!(response["result"], json!([]), "{response}");
    client.change(&uri, 3, "game broken\nflow {");
    let response = client.request(
        "textDocument/formatting",
        json!({"textDocument": {"uri": uri}, "options": {"tabSize": 2, "insertSpaces": true}}),
    );
    assert_eq!(response["result"], Value::Null, "{response}");
    assert_eq!(client.stop(), 0);
}

#[test]
fn bad_input_does_not_stop_the_server() {
    let mut client = Client::start();
    // A request before `initialize` is refused, and the server goes on.
    let early = client.request("textDocument/hover", json!({}));
    assert_eq!(early["error"]["code"], -32002, "{early}");
    // In words for the person reading the editor's log, not a dump of the server's structures.
    let words = early["error"]["message"].as_str().unwrap();
    assert!(words.contains("`initialize` first") && !words.contains("Request {"), "{early}");
    let root = uri(Path::new(common::repo()));
    client.request("initialize", json!({"capabilities": {}, "rootUri": root}));
    client.notify("initialized", json!({}));

    // Bytes that are not UTF-8, and a body that is no JSON: skipped.
    client.send_bytes(b"{\"jsonrpc\": \"2.0\", \"method\": \"\xff\xfe\"}");
    client.send_bytes(b"not json at all");
    let dir = folder("bad-input");
    // A document of invalid text with a stray byte, and a giant one.
    let odd_uri = uri(&dir.join("odd.rules"));
    let mut odd = format!(
        "{{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didOpen\",\"params\":{{\"textDocument\":{{\"uri\":\"{odd_uri}\",\"languageId\":\"shinpan\",\"version\":1,\"text\":\"game \"}}}}}}"
    )
    .into_bytes();
    let at = odd.windows(5).position(|w| w == b"game ").unwrap() + 5;
    odd.insert(at, 0xff);
    client.send_bytes(&odd);
    let diagnostics = client.diagnostics(&odd_uri);
    assert_eq!(diagnostics[0]["code"], "shinpan::spec::syntax", "{diagnostics:?}");

    let giant_uri = uri(&dir.join("giant.rules"));
    let giant = "// filler\n".repeat(600_000);
    let diagnostics = client.open(&giant_uri, &giant);
    assert_eq!(diagnostics[0]["code"], "shinpan::spec::limit", "{diagnostics:?}");
    let nothing = client.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": giant_uri}, "position": {"line": 3, "character": 2}}),
    );
    assert_eq!(nothing["result"], Value::Null, "{nothing}");

    let unknown = client.request("textDocument/unheardOf", json!({}));
    assert_eq!(unknown["error"]["code"], -32601, "{unknown}");
    let not_open = client.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": "file:///nowhere.rules"}, "position": {"line": 0, "character": 0}}),
    );
    assert_eq!(not_open["error"]["code"], -32602, "{not_open}");
    let wrong = client.request("textDocument/hover", json!({"textDocument": 7}));
    assert_eq!(wrong["error"]["code"], -32602, "{wrong}");

    // After all that the server still answers.
    let uri = uri(&dir.join("tiny.rules"));
    client.open(&uri, TINY);
    let text = hover_text(&client.at("textDocument/hover", &uri, TINY, "total[p] +=", 0));
    assert!(text.contains("var total"), "{text}");
    assert_eq!(client.stop(), 0);
}

#[test]
fn exit_without_shutdown_ends_with_status_1() {
    let mut client = Client::ready();
    client.notify("exit", Value::Null);
    assert_eq!(wait(&mut client.child).code(), Some(1));
}
