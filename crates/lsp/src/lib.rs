//! `shinpan lsp`: a language server for rules files over standard input and output. It
//! gives `shinpan lint`'s diagnostics as the user types, hover, go to definition (also into
//! the files a document `extends`), completion and the outline of a document.
//!
//! `lsp-server` does the protocol's handshake and types; this loop answers one message at a
//! time. A request that fails inside the server gets an error response; the server goes on.
//!
//! A change to a document is applied at once but analysed later: once, with its newest text,
//! before the next request about it, or when no message has come for a moment (`QUIET`). So
//! a thousand queued changes cost one analysis, and diagnostics are published for the newest
//! version only. A document larger than a rules file may be (4 MiB, as `shinpan lint`
//! refuses) is never analysed or formatted: requests about it get an empty answer, and
//! formatting an error.

pub mod document;
pub mod features;
pub mod text;
pub mod transport;

use std::collections::HashMap;
use std::path::PathBuf;
use std::time::Duration;

use lsp_server::{Connection, ErrorCode, Message, Notification, Request, Response};
use lsp_types::{
    CompletionOptions, HoverProviderCapability, OneOf, PublishDiagnosticsParams, ServerCapabilities,
    TextDocumentSyncCapability, TextDocumentSyncKind, TextDocumentSyncOptions, TextDocumentSyncSaveOptions, TextEdit,
    Uri,
};

use crate::document::Document;
use crate::text::{Lines, path_of};

/// How long no message must come before changed documents are analysed (a request about one
/// analyses it at once): a burst of changes is analysed once, at its end.
const QUIET: Duration = Duration::from_millis(50);

/// Runs the server until the client says `exit` or closes its end. The exit status is 0
/// after a `shutdown` request, 1 otherwise (as the protocol asks).
pub fn run() -> u8 {
    let (connection, writer) = transport::stdio();
    let status = serve(&connection);
    drop(connection);
    // Every answer is written before the process ends; one that could not be is the exit
    // status every command gives when its output is lost.
    if writer.join().unwrap_or(false) {
        status
    } else {
        eprintln!("shinpan lsp: the answers could not be written to the editor");
        WRITE_FAILED
    }
}

/// The output could not be written: sysexits' EX_IOERR, as for every command.
const WRITE_FAILED: u8 = 74;

fn capabilities() -> ServerCapabilities {
    let sync = TextDocumentSyncOptions {
        open_close: Some(true),
        change: Some(TextDocumentSyncKind::INCREMENTAL),
        save: Some(TextDocumentSyncSaveOptions::Supported(true)),
        ..TextDocumentSyncOptions::default()
    };
    ServerCapabilities {
        text_document_sync: Some(TextDocumentSyncCapability::Options(sync)),
        hover_provider: Some(HoverProviderCapability::Simple(true)),
        definition_provider: Some(OneOf::Left(true)),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(vec![".".to_string(), "\"".to_string()]),
            ..CompletionOptions::default()
        }),
        document_symbol_provider: Some(OneOf::Left(true)),
        document_formatting_provider: Some(OneOf::Left(true)),
        ..ServerCapabilities::default()
    }
}

/// Serves one client over `connection` (`run` gives it standard input and output) until it
/// says `exit` (0 after `shutdown`, else 1) or closes its end (1).
pub fn serve(connection: &Connection) -> u8 {
    let Some((id, params)) = initialize_request(connection) else { return 1 };
    let result = serde_json::json!({
        "capabilities": capabilities(),
        "serverInfo": {"name": "shinpan", "version": env!("CARGO_PKG_VERSION")},
    });
    // Not `initialize_finish`: it stops the server when `initialized` does not come next.
    let _ = connection.sender.send(Response::new_ok(id, result).into());
    let mut server = Server { documents: HashMap::new(), roots: roots(&params), connection, shut_down: false };
    loop {
        let next = if server.documents.values().any(|d| d.stale) {
            match connection.receiver.recv_timeout(QUIET) {
                Ok(message) => Some(message),
                Err(e) if e.is_timeout() => {
                    server.settle_all();
                    continue;
                }
                Err(_) => None,
            }
        } else {
            connection.receiver.recv().ok()
        };
        let Some(message) = next else { break };
        match message {
            Message::Request(request) => server.request(request),
            Message::Notification(n) if n.method == "exit" => return if server.shut_down { 0 } else { 1 },
            Message::Notification(n) => server.notification(n),
            Message::Response(_) => {}
        }
    }
    // The client closed the connection without `exit`.
    1
}

/// Waits for the `initialize` request: its id and parameters; none when the client says
/// `exit` or closes its end first. Not `Connection::initialize_start`: it answers an earlier
/// request with a dump of the request's Rust structure as the message.
fn initialize_request(connection: &Connection) -> Option<(lsp_server::RequestId, serde_json::Value)> {
    loop {
        match connection.receiver.recv().ok()? {
            Message::Request(request) if request.method == "initialize" => return Some((request.id, request.params)),
            Message::Request(request) => {
                let message = format!("`{}` came before `initialize`: send `initialize` first", request.method);
                let refusal = Response::new_err(request.id, ErrorCode::ServerNotInitialized as i32, message);
                let _ = connection.sender.send(refusal.into());
            }
            Message::Notification(n) if n.method == "exit" => return None,
            // Notifications before `initialize` are dropped, as the protocol asks.
            Message::Notification(_) | Message::Response(_) => {}
        }
    }
}

/// The workspace folders the client opened, where a built-in game's file may be found.
fn roots(params: &serde_json::Value) -> Vec<PathBuf> {
    let folders = params.get("workspaceFolders").and_then(|f| f.as_array()).into_iter().flatten();
    let uris = folders.filter_map(|f| f.get("uri")).chain(params.get("rootUri"));
    uris.filter_map(|u| u.as_str()?.parse::<Uri>().ok()).filter_map(|u| path_of(&u)).collect()
}

struct Server<'a> {
    documents: HashMap<Uri, Document>,
    roots: Vec<PathBuf>,
    connection: &'a Connection,
    shut_down: bool,
}

/// An error response's code and message.
type Failure = (i32, String);

impl Server<'_> {
    fn send(&self, message: Message) {
        // The writer thread stops only when standard output is gone: nothing is left to tell.
        let _ = self.connection.sender.send(message);
    }

    fn request(&mut self, request: Request) {
        let id = request.id.clone();
        let answer = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.answer(&request)));
        let response = match answer {
            Ok(Ok(value)) => Response::new_ok(id, value),
            Ok(Err((code, message))) => Response::new_err(id, code, message),
            Err(_) => Response::new_err(id, ErrorCode::InternalError as i32, "shinpan failed on this request".into()),
        };
        self.send(response.into());
    }

    fn answer(&mut self, request: &Request) -> Result<serde_json::Value, Failure> {
        if self.shut_down {
            return Err((ErrorCode::InvalidRequest as i32, "the server is shutting down".into()));
        }
        let params = &request.params;
        let json = |value: serde_json::Result<serde_json::Value>| value.map_err(|e| invalid(&e));
        if let Some(uri) = about(params) {
            self.settle(&uri);
            if self.documents.get(&uri).is_some_and(Document::too_large) {
                return refused(&request.method);
            }
        }
        match request.method.as_str() {
            "shutdown" => {
                self.shut_down = true;
                Ok(serde_json::Value::Null)
            }
            "textDocument/hover" => {
                let (doc, at) = self.place(params)?;
                json(serde_json::to_value(features::hover(doc, at)))
            }
            "textDocument/definition" => {
                let (doc, at) = self.place(params)?;
                json(serde_json::to_value(features::definition(doc, at)))
            }
            "textDocument/completion" => {
                let (doc, at) = self.place(params)?;
                json(serde_json::to_value(features::completion(doc, at)))
            }
            "textDocument/documentSymbol" => json(serde_json::to_value(features::symbols(self.document(params)?))),
            "textDocument/formatting" => json(serde_json::to_value(formatting(self.document(params)?))),
            other => Err((ErrorCode::MethodNotFound as i32, format!("shinpan does not answer `{other}`"))),
        }
    }

    /// The open document a request is about.
    fn document(&self, params: &serde_json::Value) -> Result<&Document, Failure> {
        let identifier: lsp_types::TextDocumentIdentifier =
            serde_json::from_value(params.get("textDocument").cloned().unwrap_or_default()).map_err(|e| invalid(&e))?;
        self.documents.get(&identifier.uri).ok_or_else(|| {
            (ErrorCode::InvalidParams as i32, format!("`{}` is not an open document", identifier.uri.as_str()))
        })
    }

    /// The open document and the position a request is about.
    fn place(&self, params: &serde_json::Value) -> Result<(&Document, lsp_types::Position), Failure> {
        let at =
            serde_json::from_value(params.get("position").cloned().unwrap_or_default()).map_err(|e| invalid(&e))?;
        Ok((self.document(params)?, at))
    }

    fn notification(&mut self, n: Notification) {
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.notified(n)));
        if result.is_err() {
            eprintln!("shinpan lsp: failed on a notification; going on");
        }
    }

    /// Documents change here; they are analysed by `settle`.
    fn notified(&mut self, n: Notification) {
        match n.method.as_str() {
            "textDocument/didOpen" => {
                let Ok(p) = serde_json::from_value::<lsp_types::DidOpenTextDocumentParams>(n.params) else { return };
                let (uri, text, version) = (p.text_document.uri, p.text_document.text, p.text_document.version);
                self.documents.insert(uri.clone(), Document::unanalysed(uri, text, Some(version)));
            }
            "textDocument/didChange" => {
                let Ok(p) = serde_json::from_value::<lsp_types::DidChangeTextDocumentParams>(n.params) else { return };
                let Some(doc) = self.documents.get_mut(&p.text_document.uri) else { return };
                for change in p.content_changes {
                    doc.apply(change);
                }
                doc.version = Some(p.text_document.version);
            }
            // A saved file may be the parent of another open one: check them all again.
            "textDocument/didSave" => self.documents.values_mut().for_each(|doc| doc.stale = true),
            "textDocument/didClose" => {
                let Ok(p) = serde_json::from_value::<lsp_types::DidCloseTextDocumentParams>(n.params) else { return };
                if let Some(mut doc) = self.documents.remove(&p.text_document.uri) {
                    doc.diagnostics.clear();
                    self.publish(&doc, None);
                }
            }
            _ => {}
        }
    }

    /// Analyses the document at `uri` if it changed since its last analysis, and publishes its
    /// diagnostics.
    fn settle(&mut self, uri: &Uri) {
        let Some(doc) = self.documents.get_mut(uri).filter(|d| d.stale) else { return };
        doc.refresh(&self.roots);
        if let Some(doc) = self.documents.get(uri) {
            self.publish(doc, doc.version);
        }
    }

    /// Analyses every document that changed.
    fn settle_all(&mut self) {
        let stale: Vec<Uri> = self.documents.values().filter(|d| d.stale).map(|d| d.uri.clone()).collect();
        for uri in stale {
            // A panic in one document's analysis leaves the others to be analysed.
            let settled = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.settle(&uri)));
            if settled.is_err() {
                if let Some(doc) = self.documents.get_mut(&uri) {
                    doc.stale = false;
                }
                eprintln!("shinpan lsp: failed analysing a document; going on");
            }
        }
    }

    fn publish(&self, doc: &Document, version: Option<i32>) {
        let params = PublishDiagnosticsParams { uri: doc.uri.clone(), diagnostics: doc.diagnostics.clone(), version };
        self.send(Notification::new("textDocument/publishDiagnostics".into(), params).into());
    }
}

/// The document a request is about, if it names one.
fn about(params: &serde_json::Value) -> Option<Uri> {
    params.get("textDocument")?.get("uri")?.as_str()?.parse().ok()
}

/// The answer to a request about a document too large to be a rules file: what finds nothing,
/// or for formatting an error saying why.
fn refused(method: &str) -> Result<serde_json::Value, Failure> {
    match method {
        "textDocument/formatting" => {
            let limit = shinpan::files::MAX_RULES_BYTES / (1024 * 1024);
            Err((
                ErrorCode::RequestFailed as i32,
                format!("the document is larger than {limit} MiB, too large to be a rules file: not formatted"),
            ))
        }
        "textDocument/completion" | "textDocument/documentSymbol" => Ok(serde_json::json!([])),
        _ => Ok(serde_json::Value::Null),
    }
}

fn invalid(e: &serde_json::Error) -> Failure {
    (ErrorCode::InvalidParams as i32, format!("the request's parameters do not fit: {e}"))
}

/// The whole document in `shinpan fmt`'s layout; nothing while it does not parse (the
/// diagnostics already say why).
fn formatting(doc: &Document) -> Option<Vec<TextEdit>> {
    let formatted = shinpan::editor::format(&doc.text).ok();
    formatted.map(|text| replace_all(&doc.text, text))
}

/// One edit that replaces the whole text (nothing when it would not change).
fn replace_all(old: &str, new: String) -> Vec<TextEdit> {
    if old == new {
        return vec![];
    }
    let lines = Lines::new(old);
    vec![TextEdit { range: lines.range(&(0..old.len())), new_text: new }]
}
