//! Messages over standard input and output, framed by `Content-Length` headers. A message
//! that cannot be read (not JSON, not UTF-8, too large, no length) is skipped with a line on
//! standard error, where `lsp-server`'s own reader would stop the server.

use std::io::{BufRead, Read, Write};
use std::thread::JoinHandle;

use lsp_server::{Connection, Message};

/// Largest message read; a larger one is skipped (a rules document is at most 4 MiB, and
/// JSON may double that with escapes).
const MAX_MESSAGE: usize = 64 * 1024 * 1024;
/// Longest header line.
const MAX_HEADER: u64 = 4096;

/// The server's end of a connection over stdio, and the writer thread to wait for at the end:
/// it says whether every message was written (a full disk or a closed pipe loses them).
pub fn stdio() -> (Connection, JoinHandle<bool>) {
    let (server, client) = Connection::memory();
    let Connection { sender, receiver } = client;
    std::thread::spawn(move || {
        let mut input = std::io::stdin().lock();
        loop {
            match read_frame(&mut input) {
                Frame::Message(message) => {
                    let exit = matches!(&message, Message::Notification(n) if n.method == "exit");
                    if sender.send(message).is_err() || exit {
                        break;
                    }
                }
                Frame::Skipped(why) => eprintln!("shinpan lsp: skipped a message: {why}"),
                Frame::End => break,
            }
        }
    });
    let writer = std::thread::spawn(move || {
        let mut output = std::io::stdout().lock();
        for message in receiver {
            if message.write(&mut output).and_then(|()| output.flush()).is_err() {
                return false;
            }
        }
        true
    });
    (server, writer)
}

pub enum Frame {
    Message(Message),
    Skipped(String),
    End,
}

/// Reads one framed message.
pub fn read_frame(input: &mut impl BufRead) -> Frame {
    let mut length = None;
    loop {
        let mut line = Vec::new();
        match input.by_ref().take(MAX_HEADER).read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => return Frame::End,
            Ok(_) => {}
        }
        let line = String::from_utf8_lossy(&line);
        let line = line.trim_end_matches(['\r', '\n']);
        if line.is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':')
            && name.trim().eq_ignore_ascii_case("content-length")
        {
            length = value.trim().parse::<usize>().ok();
        }
    }
    let Some(length) = length else { return Frame::Skipped("no Content-Length header".into()) };
    if length > MAX_MESSAGE {
        return match std::io::copy(&mut input.by_ref().take(length as u64), &mut std::io::sink()) {
            Ok(_) => Frame::Skipped(format!("{length} bytes is more than the {MAX_MESSAGE} bytes read")),
            Err(_) => Frame::End,
        };
    }
    let mut body = vec![0; length];
    if input.read_exact(&mut body).is_err() {
        return Frame::End;
    }
    // The protocol is UTF-8; a stray byte becomes U+FFFD rather than losing the message.
    match serde_json::from_str::<Message>(&String::from_utf8_lossy(&body)) {
        Ok(message) => Frame::Message(message),
        Err(e) => Frame::Skipped(format!("not a JSON-RPC message: {e}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frames(bytes: &[u8]) -> Vec<String> {
        let mut input = std::io::Cursor::new(bytes.to_vec());
        let mut out = vec![];
        loop {
            match read_frame(&mut input) {
                Frame::Message(Message::Notification(n)) => out.push(n.method),
                Frame::Message(_) => out.push("other".into()),
                Frame::Skipped(_) => out.push("skipped".into()),
                Frame::End => return out,
            }
        }
    }

    #[test]
    fn bad_messages_are_skipped_and_reading_goes_on() {
        let good = r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#;
        let mut bytes = format!("Content-Length: {}\r\n\r\n{good}", good.len()).into_bytes();
        bytes.extend(b"Content-Length: 3\r\n\r\n\xff\xfe{");
        bytes.extend(b"Content-Length: 5\r\n\r\nhello");
        bytes.extend(format!("content-length:{}\r\n\r\n{good}", good.len()).as_bytes());
        bytes.extend(b"Content-Length: 99\r\n\r\nshort");
        assert_eq!(frames(&bytes), ["initialized", "skipped", "skipped", "initialized"]);
    }
}
