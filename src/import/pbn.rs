//! PBN (Portable Bridge Notation 1.0-2.1) records: each game of the file becomes a `bridge`
//! transcript, following rules/bridge.md section 11 and rulings B18-B23.

use std::collections::HashMap;
use std::rc::Rc;

use serde_json::{Value as Json, json};

use super::Deal;
use super::bridge::{self as b, AuctionEnd, SEATS};

/// A piece of a PBN file: a tag, a word of a section, or a blank line between games.
#[derive(Debug)]
enum Token {
    Tag { name: String, value: String, line: usize },
    Word { text: String, line: usize },
    Blank,
    Bad { why: String, line: usize },
}

/// The deals of a PBN file, in order.
pub fn deals(text: &str) -> Vec<Deal> {
    let mut previous: Tags = HashMap::new();
    let mut out = vec![];
    for game in games(scan(text)) {
        let Some(line) = game.iter().find_map(tag_line) else { continue };
        let tags = inherited_tags(&game, &mut previous);
        let number = out.len() + 1;
        let transcript = Game { tokens: &game, tags: &tags }.transcript();
        let echoed = |name: &str| tags.get(name).map(|v| super::capped(v, super::MAX_ECHOED_TAG));
        out.push(Deal { number, line, board: echoed("Board"), room: echoed("Room"), transcript });
    }
    out
}

fn tag_line(t: &Token) -> Option<usize> {
    match t {
        Token::Tag { line, .. } => Some(*line),
        _ => None,
    }
}

/// A game's tags by name. A value is shared, not copied, by each later game that inherits it.
type Tags = HashMap<String, Rc<str>>;

/// The tags of a game, a `#` value taking the previous game's value of the tag (PBN 4.8): the
/// same value, shared, so a megabyte tag inherited by a thousand games is held once.
fn inherited_tags(game: &[Token], previous: &mut Tags) -> Tags {
    let mut tags = HashMap::new();
    for t in game {
        if let Token::Tag { name, value, .. } = t {
            if tags.contains_key(name) {
                continue;
            }
            let value = match value.as_str() {
                "#" | "##" => previous.get(name).cloned().unwrap_or_else(|| Rc::from("")),
                _ => Rc::from(value.as_str()),
            };
            tags.insert(name.clone(), value);
        }
    }
    *previous = tags.clone();
    tags
}

/// Tokens split into games at blank lines; stretches without a tag are not games.
fn games(tokens: Vec<Token>) -> Vec<Vec<Token>> {
    let mut out = vec![vec![]];
    for t in tokens {
        match t {
            Token::Blank => out.push(vec![]),
            t => {
                if let Some(game) = out.last_mut() {
                    game.push(t);
                }
            }
        }
    }
    out.retain(|g| g.iter().any(|t| matches!(t, Token::Tag { .. })));
    out
}

/// The tokens of a PBN text: `%` lines, `;` and `{ }` comments dropped.
fn scan(text: &str) -> Vec<Token> {
    let mut out = vec![];
    let mut in_comment = false;
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let mut rest = raw.trim_end_matches('\r');
        if in_comment {
            match rest.find('}') {
                Some(end) => rest = &rest[end + 1..],
                None => continue,
            }
        } else if rest.starts_with('%') {
            continue;
        } else if rest.trim().is_empty() {
            out.push(Token::Blank);
            continue;
        }
        in_comment = scan_line(rest, line, &mut out);
    }
    out
}

/// Scans one line; whether it ends inside a `{` comment.
fn scan_line(mut rest: &str, line: usize, out: &mut Vec<Token>) -> bool {
    loop {
        rest = rest.trim_start();
        let Some(first) = rest.chars().next() else { return false };
        match first {
            ';' => return false,
            '{' => match rest.find('}') {
                Some(end) => rest = &rest[end + 1..],
                None => return true,
            },
            '[' => match tag(rest, line) {
                Ok((t, after)) => {
                    out.push(t);
                    rest = after;
                }
                Err(why) => {
                    out.push(Token::Bad { why, line });
                    return false;
                }
            },
            _ => {
                let end = rest.find(|c: char| c.is_whitespace() || "[{;".contains(c)).unwrap_or(rest.len());
                out.push(Token::Word { text: rest[..end].to_string(), line });
                rest = &rest[end..];
            }
        }
    }
}

/// `[Name "value"]` at the start of `text`; the token and the text after it.
fn tag(text: &str, line: usize) -> Result<(Token, &str), String> {
    let inner = &text[1..];
    let name_end = inner.find(|c: char| c.is_whitespace() || c == '"').unwrap_or(inner.len());
    let name = inner[..name_end].to_string();
    let after_name = inner[name_end..].trim_start();
    let Some(quoted) = after_name.strip_prefix('"') else {
        return Err(format!("the tag `[{name}` has no quoted value"));
    };
    let mut value = String::new();
    let mut chars = quoted.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '\\' => value.extend(chars.next().map(|(_, c)| c)),
            '"' => {
                let Some(after) = quoted[i + 1..].trim_start().strip_prefix(']') else {
                    return Err(format!("the tag `[{name}` does not end with `]`"));
                };
                return Ok((Token::Tag { name, value, line }, after));
            }
            c => value.push(c),
        }
    }
    Err(format!("the value of the tag `[{name}` is not closed"))
}

/// One game's tokens and its tags (after inheritance).
struct Game<'a> {
    tokens: &'a [Token],
    tags: &'a Tags,
}

/// A call or card of a section with its annotations.
struct Item {
    text: String,
    line: usize,
    mark: Option<String>,
    note: Option<String>,
}

impl Game<'_> {
    fn tag(&self, name: &str) -> Option<&str> {
        self.tags.get(name).map(|v| &**v).filter(|v| !v.is_empty())
    }

    fn transcript(&self) -> Result<Json, String> {
        if let Some(Token::Bad { why, line }) = self.tokens.iter().find(|t| matches!(t, Token::Bad { .. })) {
            return Err(format!("line {line}: {why}"));
        }
        let hands = self.hands()?;
        let dealer = self.tag("Dealer").and_then(b::seat).ok_or("the [Dealer] tag is missing or not a seat")?;
        let mut events = vec![b::deal_event(&hands)?, json!({"by": "table", "dealer": SEATS[dealer]})];
        if let Some(v) = self.tag("Vulnerable").and_then(vulnerability) {
            events.push(json!({"by": "table", "vulnerable": v}));
        }
        self.auction_and_play(&mut events)?;
        Ok(b::transcript(self.meta(), events))
    }

    fn meta(&self) -> Json {
        let mut meta = serde_json::Map::new();
        let keys = [
            ("event", "Event"),
            ("site", "Site"),
            ("date", "Date"),
            ("board", "Board"),
            ("room", "Room"),
            ("score", "Score"),
        ];
        for (key, tag) in keys {
            if let Some(v) = self.tag(tag) {
                meta.insert(key.into(), json!(super::capped(v, super::MAX_META_TAG)));
            }
        }
        let names: serde_json::Map<String, Json> = [("N", "North"), ("E", "East"), ("S", "South"), ("W", "West")]
            .iter()
            .filter_map(|(s, tag)| self.tag(tag).map(|n| (s.to_string(), json!(super::capped(n, super::MAX_META_TAG)))))
            .collect();
        meta.insert("names".into(), Json::Object(names));
        Json::Object(meta)
    }

    /// `[Deal "N:hand hand hand hand"]`, hands clockwise from the seat given, each
    /// `spades.hearts.diamonds.clubs`.
    fn hands(&self) -> Result<[Vec<String>; 4], String> {
        let deal = self.tag("Deal").ok_or("the [Deal] tag is missing")?;
        let (first, hands) = deal.split_once(':').ok_or("the [Deal] tag does not start with a seat and `:`")?;
        let first = b::seat(first)
            .ok_or_else(|| format!("the [Deal] tag starts with `{}`, not a seat", crate::transcript::cut(first)))?;
        let hands: Vec<&str> = hands.split_whitespace().collect();
        if hands.len() != 4 {
            return Err(format!("the [Deal] tag gives {} hands, not 4", hands.len()));
        }
        let mut out: [Vec<String>; 4] = Default::default();
        for (i, hand) in hands.iter().enumerate() {
            out[(first + i) % 4] = hand_cards(hand)?;
        }
        Ok(out)
    }

    /// The items of a section (the words after its tag), with notes and marks attached.
    fn section(&self, name: &str) -> Vec<Item> {
        let notes = self.notes();
        let mut items: Vec<Item> = vec![];
        let mut mark = None;
        let mut inside = false;
        for t in self.tokens {
            match t {
                Token::Tag { name: n, .. } => inside = n == name,
                Token::Word { text, line } if inside => {
                    if let Some(n) = text.strip_prefix('=').and_then(|t| t.strip_suffix('=')) {
                        if let (Some(last), Some(note)) = (items.last_mut(), notes.get(n)) {
                            last.note = Some(note.clone());
                        }
                    } else if text.starts_with('$') {
                        // A NAG (an annotation glyph): nothing a transcript keeps.
                    } else if text == "^R" || text == "^L" || text == "^I" {
                        mark = Some(text.clone());
                    } else {
                        let text = text.trim_end_matches(['!', '?']).to_string();
                        items.push(Item { text, line: *line, mark: mark.take(), note: None });
                    }
                }
                _ => {}
            }
        }
        items
    }

    /// `[Note "1:text"]` tags, by number.
    fn notes(&self) -> HashMap<String, String> {
        self.tokens
            .iter()
            .filter_map(|t| match t {
                Token::Tag { name, value, .. } if name == "Note" => {
                    value.split_once(':').map(|(n, text)| (n.trim().to_string(), text.trim().to_string()))
                }
                _ => None,
            })
            .collect()
    }

    fn auction_and_play(&self, events: &mut Vec<Json>) -> Result<(), String> {
        let calls = self.calls(events)?;
        let contract_tag = self.tag("Contract").and_then(b::contract_tag);
        let (declarer_tag, swapped) = match self.tag("Declarer") {
            Some(d) if d.starts_with('^') => (b::seat(&d[1..]), true),
            Some(d) => (b::seat(d), false),
            None => (None, false),
        };
        let (bid, declarer) = if calls.is_empty() {
            // 5.5: no auction; the contract event stands for it.
            let Some((bid, risk)) = contract_tag else { return Ok(()) };
            let declarer = declarer_tag.map(|d| if swapped { b::partner(d) } else { d });
            match (bid.as_str(), declarer) {
                ("Pass", _) => {
                    events.push(json!({"by": "table", "contract": "Pass"}));
                    return Ok(());
                }
                (_, None) => return Ok(()),
                (_, Some(d)) => events.push(json!({"by": "table", "contract": b::contract_json(&bid, d, risk)})),
            }
            (bid, declarer.unwrap_or(0))
        } else {
            let end = b::auction_end(&calls);
            // The contract record from the tags (B23: even where they disagree).
            let record = match (&contract_tag, declarer_tag) {
                (Some((bid, _)), _) if bid == "Pass" => Some(json!("Pass")),
                (Some((bid, risk)), Some(d)) if !swapped => Some(b::contract_json(bid, d, risk)),
                _ => None,
            };
            if end != AuctionEnd::Incomplete
                && let Some(r) = record
            {
                events.push(json!({"by": "table", "contract": r}));
            }
            match end {
                AuctionEnd::Contract { bid, declarer, .. } => (bid, declarer),
                _ => return Ok(()),
            }
        };
        self.play(events, &bid, declarer)
    }

    /// The calls of the auction as events; the (seat, call) pairs.
    fn calls(&self, events: &mut Vec<Json>) -> Result<Vec<(usize, String)>, String> {
        let items = self.section("Auction");
        let Some(first) = self.tag("Auction").and_then(b::seat) else {
            return if items.is_empty() { Ok(vec![]) } else { Err("the [Auction] tag does not name a seat".into()) };
        };
        let mut calls: Vec<(usize, String)> = vec![];
        let mut seat = first;
        for item in items {
            match item.text.as_str() {
                "*" | "-" => break,
                "+" => continue,
                "^S" => {
                    seat = (seat + 1) % 4;
                    continue;
                }
                // All pass: at most four passes end any auction (three after a bid).
                "AP" => {
                    while b::auction_end(&calls) == AuctionEnd::Incomplete {
                        events.push(json!({"by": SEATS[seat], "call": "Pass"}));
                        calls.push((seat, "Pass".into()));
                        seat = (seat + 1) % 4;
                    }
                    continue;
                }
                _ => {}
            }
            let call = b::call(&item.text)
                .ok_or_else(|| format!("line {}: `{}` is not a call", item.line, crate::transcript::cut(&item.text)))?;
            let note = item.note.or(item.mark.map(|m| format!("marked {m} in the record")));
            events.push(b::event(SEATS[seat], "call", json!(call), note));
            calls.push((seat, call));
            seat = (seat + 1) % 4;
        }
        Ok(calls)
    }

    /// B18-B20: the play table replayed in playing order, then a claim or the result.
    fn play(&self, events: &mut Vec<Json>, bid: &str, declarer: usize) -> Result<(), String> {
        let items = self.section("Play");
        let Some(first) = self.tag("Play").and_then(b::seat) else { return Ok(()) };
        let mut cells: Vec<Option<Item>> = vec![];
        for item in items {
            match item.text.as_str() {
                "*" => break,
                "-" | "+" => cells.push(None),
                _ => {
                    b::card(&item.text).ok_or_else(|| {
                        format!("line {}: `{}` is not a card", item.line, crate::transcript::cut(&item.text))
                    })?;
                    cells.push(Some(item));
                }
            }
        }
        let trump = b::trump(bid);
        let mut leader = 0;
        let mut played = 0;
        for (t, row) in cells.chunks(4).enumerate() {
            let start =
                row.iter().position(|c| c.as_ref().is_some_and(|i| i.mark.as_deref() == Some("^L"))).unwrap_or(leader);
            let mut trick = vec![];
            for k in 0..4 {
                let col = (start + k) % 4;
                let Some(Some(item)) = row.get(col) else {
                    // B19: an unknown card with recorded cards after it is a gap, not the end.
                    let later = row_after(row, start, k).len()
                        + cells.get((t + 1) * 4..).map_or(0, |r| r.iter().flatten().count());
                    return self.stopped(events, declarer, played, later > 0);
                };
                let card = b::card(&item.text).unwrap_or_default();
                let note = item.note.clone().or(item.mark.as_ref().map(|m| format!("marked {m} in the record")));
                let seat = (first + col) % 4;
                events.push(b::event(SEATS[seat], "play", json!(card), note));
                trick.push((seat, card));
                played += 1;
            }
            leader = column_of(b::trick_winner(&trick, trump), first);
        }
        self.stopped(events, declarer, played, false)
    }

    /// The play stopped after `played` cards: a claim and a result from `[Result]` where the
    /// record allows one (B19, B20, B22).
    fn stopped(&self, events: &mut Vec<Json>, declarer: usize, played: usize, gap: bool) -> Result<(), String> {
        let result = self.tag("Result").and_then(|r| r.trim().parse::<i64>().ok());
        let (Some(n), false) = (result, gap) else { return Ok(()) };
        if played == 52 {
            events.push(json!({"by": "table", "result": n}));
        } else if played > 0 {
            let note = format!("the record stops here; [Result \"{n}\"] read as a claim");
            events.push(b::event(SEATS[declarer], "claim", json!(n), Some(note)));
            events.push(json!({"by": "table", "result": n}));
        }
        Ok(())
    }
}

/// The column of the play table a seat's cards are in, the first column being `first`'s.
fn column_of(seat: usize, first: usize) -> usize {
    (seat + 4 - first) % 4
}

/// The cards of a trick from position `k` on in playing order from `start` (position `k`
/// itself is the unknown card, so these are the cards recorded after it).
fn row_after(row: &[Option<Item>], start: usize, k: usize) -> Vec<&Item> {
    (k..4).filter_map(|j| row.get((start + j) % 4).and_then(Option::as_ref)).collect()
}

fn vulnerability(v: &str) -> Option<&'static str> {
    match v.trim() {
        "None" | "Love" | "-" => Some("None"),
        "NS" => Some("NS"),
        "EW" => Some("EW"),
        "All" | "Both" => Some("All"),
        _ => None,
    }
}

/// `AKQ.T98.-.2`: spades, hearts, diamonds, clubs.
fn hand_cards(hand: &str) -> Result<Vec<String>, String> {
    let suits: Vec<&str> = hand.split('.').collect();
    if suits.len() != 4 {
        return Err(format!("the hand `{}` does not have four suits", crate::transcript::cut(hand)));
    }
    let mut cards = vec![];
    for (suit, ranks) in "SHDC".chars().zip(suits) {
        for r in ranks.chars().filter(|r| *r != '-') {
            cards.push(
                b::card(&format!("{suit}{r}"))
                    .ok_or_else(|| format!("`{r}` is not a rank (in `{}`)", crate::transcript::cut(hand)))?,
            );
        }
    }
    Ok(cards)
}

#[cfg(test)]
#[allow(clippy::unwrap_used, reason = "tests fail loudly")]
mod tests {
    use super::*;

    /// Board 1 of the European championship record, as `fixtures/records/messy.pbn` has it.
    const GAME: &str = r#"[Event "European Team Championships '99"]
[Board "1"]
[Dealer "N"]
[Vulnerable "None"]
[Deal "N:T7.QT6.AQ985.T87 98.542.KT643.K54 AQ32.AK97.72.Q62 KJ654.J83.J.AJ93"]
[Declarer "S"]
[Contract "3NT"]
[Result "7"]
[Room "Open"]
[Auction "N"]
Pass Pass 1NT Pass
3NT Pass Pass Pass
[Play "W"]
S4 ST S8 S3
DJ D5 D4 D7
*
"#;

    fn events(deal: &Deal) -> Vec<Json> {
        deal.transcript.as_ref().unwrap()["events"].as_array().unwrap().clone()
    }

    /// `#` takes the previous game's value of a tag (PBN 4.8); comments (`;` to the end of the
    /// line, `{...}` anywhere) are skipped, even before a tag on the same line.
    #[test]
    fn inherited_tags_and_comments() {
        let second = "; the second table\n[Event \"#\"]\n[Board \"#\"]\n{ same deal } [Deal \"#\"]\n[Room \"Closed\"]\n[Dealer \"#\"]\n";
        let text = format!("{GAME}\n{second}");
        let found = deals(&text);
        assert_eq!(found.len(), 2);
        assert_eq!((found[1].board.as_deref(), found[1].room.as_deref()), (Some("1"), Some("Closed")));
        assert_eq!(events(&found[1])[0], events(&found[0])[0], "the deal is inherited");
        assert_eq!(found[1].line, 19, "a game starts at its first tag, after the comment");
    }

    fn calls_of(auction: &str) -> Vec<(String, String)> {
        let text = GAME.replace("Pass Pass 1NT Pass\n3NT Pass Pass Pass", auction);
        events(&deals(&text)[0])
            .iter()
            .filter(|e| e.get("call").is_some())
            .map(|e| (e["by"].as_str().unwrap().to_string(), e["call"].as_str().unwrap().to_string()))
            .collect()
    }

    /// The auction's special words (PBN 3.5): `AP` passes until the auction ends, `^S` skips
    /// a seat (a call out of rotation recorded as a pass by nobody), `+` is nothing, `*` and
    /// `-` end the section.
    #[test]
    fn the_words_of_an_auction() {
        let pair = |by: &str, call: &str| (by.to_string(), call.to_string());
        assert_eq!(
            calls_of("Pass 1NT AP"),
            [pair("N", "Pass"), pair("E", "1NT"), pair("S", "Pass"), pair("W", "Pass"), pair("N", "Pass")]
        );
        assert_eq!(calls_of("AP").len(), 4, "a passed-out deal");
        assert_eq!(calls_of("Pass ^S 1C +"), [pair("N", "Pass"), pair("S", "1C")]);
        assert_eq!(calls_of("Pass - 1C"), [pair("N", "Pass")]);
        assert_eq!(calls_of("Pass * 1C"), [pair("N", "Pass")]);
        // Comments inside a section are not calls: `{...}` anywhere, `;` to the end of the line.
        let plain = calls_of("Pass 1NT AP");
        assert_eq!(calls_of("Pass {weak} 1NT ; strong\nAP"), plain);
    }

    /// B19: an unknown card (`-`) with recorded cards after it is a gap: the deal is not
    /// claimed from `[Result]`; at the very end it is where the record stops, and it is.
    #[test]
    fn a_gap_is_not_the_end_of_the_play() {
        let claims = |play: &str| {
            let all = events(&deals(&GAME.replace("S4 ST S8 S3\nDJ D5 D4 D7", play))[0]);
            all.iter().filter(|e| e.get("claim").is_some()).count()
        };
        assert_eq!(claims("S4 ST S8 S3\nDJ D5 D4 D7"), 1);
        assert_eq!(claims("S4 ST S8 -\nDJ D5 D4 D7"), 0, "a gap in trick 1");
        // N won trick 1, so W (the first column) plays last to trick 2: nothing comes after.
        assert_eq!(claims("S4 ST S8 S3\n- D5 D4 D7"), 1, "the record stops in trick 2");
        assert_eq!(claims("- - - -"), 0, "no card written: [Result] is not a claim");
    }

    /// `=1=` after a call attaches `[Note "1:..."]` to it; `^R`, `^L`, `^I` before a card
    /// mark it, and the transcript keeps the mark as the card's note.
    #[test]
    fn notes_and_marks() {
        let text = GAME
            .replace("Pass Pass 1NT Pass", "Pass Pass 1NT =1= Pass")
            .replace("[Auction \"N\"]", "[Note \"1:15-17\"]\n[Annotator \"1:not a note\"]\n[Auction \"N\"]")
            .replace("S4 ST S8 S3", "^I S4 ST S8 S3")
            .replace("DJ D5 D4 D7", "DJ ^R D5 D4 D7");
        let all = events(&deals(&text)[0]);
        let calls: Vec<&Json> = all.iter().filter(|e| e.get("call").is_some()).collect();
        assert_eq!(calls[2]["note"], "15-17");
        assert!(calls[1].get("note").is_none() && calls[3].get("note").is_none());
        let plays: Vec<&Json> = all.iter().filter(|e| e.get("play").is_some()).collect();
        assert_eq!((&plays[0]["play"], &plays[0]["note"]), (&json!("S4"), &json!("marked ^I in the record")));
        let marked: Vec<&Json> = plays.iter().filter(|p| p.get("note").is_some()).copied().collect();
        assert_eq!(marked.len(), 2);
        assert_eq!((&marked[1]["play"], &marked[1]["note"]), (&json!("D5"), &json!("marked ^R in the record")));
    }
}
