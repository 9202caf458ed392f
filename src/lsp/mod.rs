//! `shinpan lsp`: a language server for rules files over standard input and output. It
//! gives `shinpan lint`'s diagnostics as the user types, hover, go to definition (also into
//! the files a document `extends`), completion and the outline of a document.
//!
//! `lsp-server` does the protocol's handshake and types; this loop answers one message at a
//! time. A request that fails inside the server gets an error response; the server goes on.

pub mod analysis;
pub mod document;
pub mod features;
pub mod text;
pub mod transport;

use std::collections::HashMap;
use std::path::PathBuf;

use lsp_server::{Connection, ErrorCode, Message, Notification, Request, Response};
use lsp_types::{
    CompletionOptions, HoverProviderCapability, OneOf, PublishDiagnosticsParams, ServerCapabilities,
    TextDocumentSyncCapability, TextDocumentSyncKind, TextDocumentSyncOptions, TextDocumentSyncSaveOptions, TextEdit,
    Uri,
};

use crate::lsp::document::Document;
use crate::lsp::text::{Lines, path_of};

/// Runs the server until the client says `exit` or closes its end. The exit status is 0
/// after a `shutdown` request, 1 otherwise (as the protocol asks).
pub fn run() -> u8 {
    let (connection, writer) = transport::stdio();
    let status = match serve(&connection) {
        Ok(status) => status,
        Err(why) => {
            eprintln!("shinpan lsp: {why}");
            1
        }
    };
    drop(connection);
    // Every answer is written before the process ends.
    let _ = writer.join();
    status
}

fn capabilities() -> ServerCapabilities {
    let sync = TextDocumentSyncOptions {
        open_close: Some(true),
        change: Some(TextDocumentSyncKind::FULL),
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

fn serve(connection: &Connection) -> Result<u8, lsp_server::ProtocolError> {
    let (id, params) = connection.initialize_start()?;
    let result = serde_json::json!({
        "capabilities": capabilities(),
        "serverInfo": {"name": "shinpan", "version": env!("CARGO_PKG_VERSION")},
    });
    // Not `initialize_finish`: it stops the server when `initialized` does not come next.
    let _ = connection.sender.send(Response::new_ok(id, result).into());
    let mut server = Server { documents: HashMap::new(), roots: roots(&params), connection, shut_down: false };
    for message in &connection.receiver {
        match message {
            Message::Request(request) => server.request(request),
            Message::Notification(n) if n.method == "exit" => return Ok(if server.shut_down { 0 } else { 1 }),
            Message::Notification(n) => server.notification(n),
            Message::Response(_) => {}
        }
    }
    // The client closed the connection without `exit`.
    Ok(1)
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

    fn notified(&mut self, n: Notification) {
        match n.method.as_str() {
            "textDocument/didOpen" => {
                let Ok(p) = serde_json::from_value::<lsp_types::DidOpenTextDocumentParams>(n.params) else { return };
                let doc = Document::new(p.text_document.uri.clone(), p.text_document.text, &self.roots);
                self.publish(&doc, Some(p.text_document.version));
                self.documents.insert(p.text_document.uri, doc);
            }
            "textDocument/didChange" => {
                let Ok(p) = serde_json::from_value::<lsp_types::DidChangeTextDocumentParams>(n.params) else { return };
                // Full sync: the last change holds the whole text.
                let Some(change) = p.content_changes.into_iter().last() else { return };
                let Some(doc) = self.documents.get_mut(&p.text_document.uri) else { return };
                doc.update(change.text, &self.roots);
                if let Some(doc) = self.documents.get(&p.text_document.uri) {
                    self.publish(doc, Some(p.text_document.version));
                }
            }
            // A saved file may be the parent of another open one: check them all again.
            "textDocument/didSave" => {
                for doc in self.documents.values_mut() {
                    doc.refresh(&self.roots);
                }
                self.documents.values().for_each(|doc| self.publish(doc, None));
            }
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

    fn publish(&self, doc: &Document, version: Option<i32>) {
        let params = PublishDiagnosticsParams { uri: doc.uri.clone(), diagnostics: doc.diagnostics.clone(), version };
        self.send(Notification::new("textDocument/publishDiagnostics".into(), params).into());
    }
}

fn invalid(e: &serde_json::Error) -> Failure {
    (ErrorCode::InvalidParams as i32, format!("the request's parameters do not fit: {e}"))
}

/// The whole document in `shinpan fmt`'s layout; nothing while it does not parse (the
/// diagnostics already say why).
fn formatting(doc: &Document) -> Option<Vec<TextEdit>> {
    let formatted = crate::lang::fmt::format_source(&doc.text).ok();
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
